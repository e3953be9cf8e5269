"""The snapshot: the one copy of the agent's work that every measurement reads.

When the agent stops, the harness copies its workspace once into a folder of its own (`take_snapshot`)
that no process of the trial can write (it lies in the trial's private root, made by the harness, not
given to the trial's user). Every step of measuring then works on its own fresh copy of it (hidden
tests, build and own tests), or reads it directly (quality, coverage's source lines, completeness);
the results' `workspace/` archive is made from it, and `regrade` snapshots that archive the same way.

What a snapshot holds, and why nothing in it can stall, flood or fool the harness:

- **regular files only**, found by walking folder descriptors (`os.scandir` on a descriptor, never a
  path: a folder swapped for a link mid-walk is not followed) and opened with
  `O_NOFOLLOW | O_NONBLOCK` after an `lstat`, then checked again with `fstat`. FIFOs, sockets and
  devices are never opened; **symbolic links are never kept**, inside or out (`name -> target` is
  recorded: a link adds nothing a copy of its target would not, and keeping none closes every
  link trick at once);
- **bounded**: at most `files` files, `total_bytes` together, `file_bytes` each, `path_bytes` of
  relative path, `depth` folders deep, all within `seconds`. A file costs its length, whatever its
  allocation (`st_blocks`): a copy is never sparse, so a sparse 2 GiB file (a few KiB allocated)
  is refused as the 2 GiB it would become, never copied, and the record says it was sparse;
- **recorded**: everything skipped or cut is a `Skipped` (kind, path made printable, reason), kept in
  the trial record (`cut`) and shown by `agentbench show`. Environment and cache folders
  (`SKIPPED_DIRS`: `.git`, `.venv`, `node_modules`, ...) are not the work product and are left out
  without a note, as everywhere else.

An error reading the agent's files is the agent's (the file is skipped, with the reason); an error
writing the snapshot is the machine's (it propagates: the trial is the infrastructure's failure).
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from agentbench.workspace import SKIPPED_DIRS, display_name

READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
"""How the harness opens a file someone else could have made: never through a link, never waiting
on a FIFO, never becoming a terminal's controller."""
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_CHUNK = 1024 * 1024
MiB = 1024 * 1024


@dataclass(frozen=True, slots=True, kw_only=True)
class SnapshotLimits:
    """How much of a workspace a snapshot keeps."""

    files: int = 5_000
    """Regular files kept; the walk stops at the first one over (each is copied three times more:
    the archive, the hidden tests' and the own tests' copies; an honest project has far fewer)."""
    total_bytes: int = 200 * MiB
    """All kept files together (each counted at its length: see `file_cost`)."""
    file_bytes: int = 32 * MiB
    """One file's length; larger files (sparse or not) are skipped."""
    path_bytes: int = 1024
    """A relative path, in bytes (so every copy's absolute path stays far below PATH_MAX)."""
    depth: int = 32
    """Folders deep."""
    seconds: float = 60.0
    """The whole walk; what is not reached in time is left out."""
    entries: int = 50_000
    """Entries looked at (folders, links, special files included), and listed in one folder; the
    walk stops after."""
    recorded: int = 50
    """Skipped entries named one by one in the record; the rest are counted."""


@dataclass(frozen=True, slots=True)
class Skipped:
    """One entry the snapshot left out or cut."""

    kind: str
    """`fifo`, `socket`, `device`, `symlink`, `unreadable`, `too large`, `path too long`,
    `too deep`, `limit` (files, bytes, entries or time)."""
    path: str
    """Its path relative to the workspace, printable (undecodable bytes as \\xNN)."""
    reason: str
    """Why, in words."""

    def __str__(self) -> str:
        return f"snapshot: {self.kind} {self.path}: {self.reason}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Snapshot:
    """A workspace as the agent left it: regular files only, in a harness-private folder."""

    root: Path
    """The snapshot's folder."""
    files: int = 0
    """Files kept."""
    bytes: int = 0
    """Bytes kept."""
    skipped: tuple[Skipped, ...] = ()
    """What was left out or cut (at most `SnapshotLimits.recorded`, then one line counting the rest)."""
    links: tuple[str, ...] = ()
    """The workspace's symbolic links, as `name -> target` (none is kept)."""

    def notes(self) -> tuple[str, ...]:
        """What was skipped or cut, one line each, for the trial record's `cut`."""
        return tuple(str(s) for s in self.skipped)


@dataclass(slots=True)
class _Walk:
    limits: SnapshotLimits
    deadline: float
    files: int = 0
    bytes: int = 0
    entries: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    dropped: int = 0
    links: list[str] = field(default_factory=list)
    stopped: str | None = None

    def skip(self, kind: str, rel: str, reason: str) -> None:
        if len(self.skipped) < self.limits.recorded:
            self.skipped.append(Skipped(kind, display_name(rel), reason))
        else:
            self.dropped += 1

    def stop(self, reason: str) -> None:
        if self.stopped is None:
            self.stopped = reason

    def over(self) -> bool:
        if self.stopped is None and time.monotonic() > self.deadline:
            self.stop(f"the walk took over {self.limits.seconds:g} s; the rest is left out")
        if self.stopped is None and self.entries > self.limits.entries:
            self.stop(f"over {self.limits.entries} entries; the rest is left out")
        return self.stopped is not None


def take_snapshot(workspace: Path, dest: Path, limits: SnapshotLimits | None = None) -> Snapshot:
    """Copy `workspace`'s regular files into `dest` (created, mode 0700) within `limits`."""
    limits = limits or SnapshotLimits()
    walk = _Walk(limits=limits, deadline=time.monotonic() + limits.seconds)
    os.mkdir(dest, 0o700)
    try:
        source = os.open(workspace, _DIR_FLAGS)
    except OSError as exc:
        walk.skip("unreadable", ".", f"the workspace cannot be opened: {exc.strerror}")
    else:
        target = os.open(dest, _DIR_FLAGS)
        try:
            _copy_folder(walk, source, target, "", 0)
        finally:
            os.close(source)
            os.close(target)
    if walk.stopped:
        walk.skipped.append(Skipped("limit", ".", walk.stopped))
    if walk.dropped:
        walk.skipped.append(Skipped("limit", ".", f"{walk.dropped} more entries skipped (not named)"))
    return Snapshot(root=dest, files=walk.files, bytes=walk.bytes, skipped=tuple(walk.skipped),
                    links=tuple(sorted(walk.links)))


def _entries(walk: _Walk, fd: int, prefix: str) -> list[tuple[str, os.stat_result]]:
    """A folder's entries (name, lstat), sorted; at most `limits.entries` of them are listed."""
    found: list[tuple[str, os.stat_result]] = []
    with os.scandir(fd) as listing:
        for entry in listing:
            if len(found) >= walk.limits.entries:
                walk.skip("limit", prefix or ".", f"a folder of over {walk.limits.entries} entries: "
                                                  "the rest (in listing order) is left out")
                break
            if walk.over():
                break
            with contextlib.suppress(OSError):
                found.append((entry.name, entry.stat(follow_symlinks=False)))
    return sorted(found, key=lambda item: item[0])


def _copy_folder(walk: _Walk, source: int, target: int, prefix: str, depth: int) -> None:
    for name, info in _entries(walk, source, prefix):
        walk.entries += 1
        if walk.over():
            return
        rel = prefix + name
        if len(os.fsencode(rel)) > walk.limits.path_bytes:
            walk.skip("path too long", rel[:200] + "...", f"over {walk.limits.path_bytes} bytes")
        elif stat.S_ISDIR(info.st_mode):
            _descend(walk, source, target, name, rel, depth)
        elif stat.S_ISREG(info.st_mode):
            _copy_file(walk, source, target, name, rel, info)
        elif stat.S_ISLNK(info.st_mode):
            _link(walk, source, name, rel)
        else:
            walk.skip(_kind(info.st_mode), rel, "not a regular file: never opened")


def _descend(walk: _Walk, source: int, target: int, name: str, rel: str, depth: int) -> None:
    if name in SKIPPED_DIRS or name.endswith(".egg-info"):
        return
    if depth + 1 > walk.limits.depth:
        walk.skip("too deep", rel, f"over {walk.limits.depth} folders deep: left out with its content")
        return
    try:
        child = os.open(name, _DIR_FLAGS, dir_fd=source)
    except OSError as exc:
        walk.skip("unreadable", rel, f"folder cannot be opened: {exc.strerror}")
        return
    try:
        os.mkdir(name, 0o700, dir_fd=target)
        made = os.open(name, _DIR_FLAGS, dir_fd=target)
        try:
            _copy_folder(walk, child, made, rel + "/", depth + 1)
        finally:
            os.close(made)
    finally:
        os.close(child)


def _link(walk: _Walk, source: int, name: str, rel: str) -> None:
    try:
        pointed = os.readlink(name, dir_fd=source)
    except OSError:
        pointed = "?"
    walk.links.append(f"{display_name(rel)} -> {display_name(pointed)[:300]}")
    walk.skip("symlink", rel, f"-> {display_name(pointed)[:300]}: links are never kept")


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "special file"


def file_cost(info: os.stat_result) -> int:
    """What a file costs to copy: its length, whatever its allocation (a copy is never sparse, so
    a sparse file costs its whole length)."""
    return info.st_size


def _copy_file(walk: _Walk, source: int, target: int, name: str, rel: str, info: os.stat_result) -> None:
    cost = file_cost(info)
    if cost > walk.limits.file_bytes:
        sparse = (f" (sparse: {info.st_blocks * 512} bytes allocated)"
                  if info.st_blocks * 512 < info.st_size else "")
        walk.skip("too large", rel, f"{info.st_size} bytes{sparse}, over the "
                                    f"{walk.limits.file_bytes // MiB} MiB a file may have")
        return
    if walk.files + 1 > walk.limits.files:
        walk.stop(f"over {walk.limits.files} files; the rest is left out")
        return
    if walk.bytes + cost > walk.limits.total_bytes:
        walk.skip("limit", rel, f"{info.st_size} bytes: over the {walk.limits.total_bytes // MiB} "
                                "MiB a snapshot keeps")
        return
    problem = _copy_regular(source, target, name, info.st_size)
    if problem:
        walk.skip(problem[0], rel, problem[1])
        return
    walk.files += 1
    walk.bytes += cost


def _copy_regular(source: int, target: int, name: str, size: int) -> tuple[str, str] | None:
    """Copy one file, at most `size` bytes; (kind, reason) when the source is not a readable
    regular file (errors writing the copy are the machine's and propagate)."""
    try:
        fd = os.open(name, READ_FLAGS, dir_fd=source)
    except OSError as exc:
        return "unreadable", f"cannot be opened: {exc.strerror}"
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            return _kind(opened.st_mode), "not a regular file when opened: never read"
        mode = 0o700 if opened.st_mode & 0o111 else 0o600
        out = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                      mode, dir_fd=target)
        failed = None
        try:
            for chunk in _chunks(fd, min(size, opened.st_size)):
                while chunk:
                    chunk = chunk[os.write(out, chunk):]
        except _ReadError as exc:
            failed = str(exc)
        finally:
            os.close(out)
        if failed is not None:
            os.unlink(name, dir_fd=target)
            return "unreadable", f"read failed: {failed}"
    finally:
        os.close(fd)
    return None


class _ReadError(Exception):
    pass


def _chunks(fd: int, size: int) -> Iterator[bytes]:
    left = size
    while left > 0:
        try:
            data = os.read(fd, min(_CHUNK, left))
        except OSError as exc:
            raise _ReadError(exc.strerror) from None
        if not data:
            return
        left -= len(data)
        yield data


def read_regular(path: Path, max_bytes: int) -> bytes | None:
    """The content of `path` when it is a regular file (not a link, FIFO or device) of at most
    `max_bytes`; None otherwise. For files a trial's process could have written."""
    chunks: list[bytes] = []
    return b"".join(chunks) if _stream(path, max_bytes, chunks.append) else None


def copy_regular(path: Path, dest: Path, max_bytes: int) -> bool:
    """Copy `path` to `dest` (new) when it is a regular file of at most `max_bytes` (see
    `read_regular`), chunk by chunk; whether it was copied."""
    with dest.open("xb") as out:
        if _stream(path, max_bytes, out.write):
            return True
    dest.unlink()
    return False


def _stream(path: Path, max_bytes: int, sink: Callable[[bytes], object]) -> bool:
    try:
        fd = os.open(path, READ_FLAGS)
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or file_cost(info) > max_bytes:
            return False
        for chunk in _chunks(fd, info.st_size):
            sink(chunk)
        return True
    except _ReadError:
        return False
    finally:
        os.close(fd)
