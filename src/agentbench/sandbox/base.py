"""What every sandbox shares: resource limits, the trial user, the declared view of the file system,
the command being wrapped, and the `Sandbox` protocol each mode implements (`none`, `bwrap`)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Resource limits of one process tree (None: no limit)."""

    memory_mb: int | None = 8192
    """Memory of the whole tree (cgroup), where a cgroup can be made."""
    processes: int | None = 1024
    """Processes and threads of the whole tree (cgroup `pids.max`), where a cgroup can be made."""
    file_size_mb: int | None = 2048
    """Largest file any process may write (RLIMIT_FSIZE)."""
    open_files: int | None = 4096
    """Open file descriptors per process (RLIMIT_NOFILE)."""
    cpu_seconds: int | None = None
    """CPU time per process (RLIMIT_CPU)."""
    disk_mb: int | None = 10240
    """Disk use of the tree's watched folders together (apparent or allocated size, whichever is
    larger, each inode once); the tree is stopped within about a second of going over."""
    files: int | None = 100_000
    """Entries (files, folders, links) in the watched folders together; enforced like `disk_mb`."""

    def __post_init__(self) -> None:
        for name in ("memory_mb", "processes", "file_size_mb", "open_files", "cpu_seconds",
                     "disk_mb", "files"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"Limits.{name} must be a positive whole number or None, got {value!r}")


@dataclass(frozen=True, slots=True)
class TrialUser:
    """The unprivileged identity one trial's processes run as (no /etc/passwd entry needed)."""

    uid: int
    """Numeric user id, from the reserved range of `agentbench.users`."""
    gid: int
    """Numeric group id (the trial's own group: no other trial shares it)."""

    def __post_init__(self) -> None:
        for name, value in (("uid", self.uid), ("gid", self.gid)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"TrialUser.{name} must be a positive number (never root), got {value!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    """What a command may see of the file system, as declared by its caller (a sandbox enforces it)."""

    writable: tuple[Path, ...] = ()
    """Folders the command may write (everything else is read-only)."""
    readable: tuple[Path, ...] = ()
    """Folders it must be able to read although they lie in a hidden or replaced folder."""
    hidden: tuple[Path, ...] = ()
    """Folders (or files) it must not see (see `Confinement.hidden`)."""
    network: bool = True
    """Whether it keeps the network."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    """One command to wrap: what was asked, and how it runs once limited and dropped to its user."""

    argv: tuple[str, ...]
    """The command as asked (its named paths, its program's interpreter)."""
    inner: tuple[str, ...]
    """`argv` inside `prlimit` and `setpriv`: what the sandbox finally runs."""
    cwd: Path
    """Its working folder."""
    search_path: str = ""
    """Its PATH."""
    user: TrialUser | None = None
    """The trial user it drops to (None: AgentBench's own user)."""
    namespaces: bool = False
    """Whether private namespaces can be made here (`process.mount_namespaces`)."""


class Sandbox(Protocol):
    """One sandbox mode: chosen once per run (`sandbox_named`), then asked to wrap every command."""

    @property
    def name(self) -> str:
        """Its `--sandbox` value."""
        ...

    @property
    def label(self) -> str:
        """The first part of the isolation label a trial record keeps."""
        ...

    @property
    def where(self) -> str:
        """Where a command runs, in words ("in the bwrap sandbox", "here")."""
        ...

    @property
    def described(self) -> str:
        """How a command is run, in words ("inside bwrap (as under --sandbox bwrap)")."""
        ...

    @property
    def separates(self) -> bool:
        """Whether concurrent trials cannot see each other's temp folders even as one user."""
        ...

    def problem(self) -> str | None:
        """Why it cannot be used on this machine (None: it can)."""
        ...

    def note(self, hiding: bool) -> str:
        """What it gives each trial, for the run header and `doctor` (`hiding`: whether hidden
        paths can be covered without a sandbox here)."""
        ...

    def wrap(self, command: Command, view: View) -> list[str]:
        """The full argv running `command.inner` with `view`."""
        ...


def prlimit_argv(limits: Limits) -> list[str]:
    exe = shutil.which("prlimit")
    if exe is None:
        return []
    flags = []
    if limits.file_size_mb is not None:
        flags.append(f"--fsize={limits.file_size_mb * 1024 * 1024}")
    if limits.open_files is not None:
        flags.append(f"--nofile={limits.open_files}")
    if limits.cpu_seconds is not None:
        flags.append(f"--cpu={limits.cpu_seconds}")
    return [exe, *flags, "--"] if flags else []


UNDUMPABLE_REAL_GID = 65534
"""The real group id of an undumpable command (`nogroup`: files are reached by the effective one)."""


def setpriv_argv(user: TrialUser | None, *, undumpable: bool = False) -> list[str]:
    """Drop to `user` for good: real/effective/saved ids, no groups, no capabilities, no_new_privs.

    `undumpable`: the real group id differs from the effective and saved ones (the trial's group,
    which every file access uses). The kernel then makes every program the tree executes undumpable
    (`begin_new_exec`: ids that differ), and no process can match all of a tree process's group ids,
    so no process of the trial user, not even its own child, can ptrace it or open its
    `/proc/<pid>/fd`, `mem` or `environ`. glibc then drops `TMPDIR` (and `LD_*`) from the environment
    of every program the tree starts (secure mode)."""
    if user is None:
        return []
    exe = setpriv_path()
    if exe is None:
        raise FileNotFoundError("setpriv (util-linux) is not installed: cannot run as the trial user")
    real_gid = (UNDUMPABLE_REAL_GID if user.gid != UNDUMPABLE_REAL_GID else UNDUMPABLE_REAL_GID - 1)
    groups = ([f"--rgid={real_gid}", f"--egid={user.gid}"] if undumpable else [f"--regid={user.gid}"])
    return [exe, f"--reuid={user.uid}", *groups, "--clear-groups", "--no-new-privs",
            "--inh-caps=-all", "--bounding-set=-all", "--"]


def setpriv_path() -> str | None:
    """Where `setpriv` (util-linux) is installed, or None."""
    return shutil.which("setpriv")


def interpreters(exe: str, search_path: str) -> list[str]:
    """The `#!` interpreter of `exe` (resolved), or the program `#!/usr/bin/env` runs."""
    path = shutil.which(exe, path=search_path or None) if exe and "/" not in exe else exe
    try:
        with open(os.path.realpath(path or ""), "rb") as handle:
            first = handle.read(256).split(b"\n", 1)[0]
    except OSError:
        return []
    words = first[2:].decode(errors="replace").split() if first.startswith(b"#!") else []
    if len(words) >= 2 and Path(words[0]).name == "env":
        program = next((w for w in words[1:] if not w.startswith("-")), "")
        found = shutil.which(program, path=search_path or None) if program else None
        return [found] if found else []
    return words[:1]


def outermost(paths: Iterable[Path]) -> tuple[Path, ...]:
    ordered = sorted(dict.fromkeys(paths), key=lambda p: len(p.parts))
    kept: list[Path] = []
    for path in ordered:
        if not any(path.is_relative_to(k) for k in kept):
            kept.append(path)
    return tuple(kept)


