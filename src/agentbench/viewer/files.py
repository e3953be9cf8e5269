"""Reading a trial folder for display: logs, the archived workspace, diffs; bounded and link-proof.

Everything under a trial folder may hold an agent's text, and `workspace/` holds whatever files it
left: paths are checked to stay inside the trial folder with no symlink on the way, only regular
files are opened (`O_NOFOLLOW`, never a FIFO), and only a window of a large file is read, so a
20 MB transcript costs one small read per page.
"""

from __future__ import annotations

import difflib
import os
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from agentbench.workspace import display_name

WINDOW = 64 * 1024
"""Bytes of a file shown per page."""

MAX_LISTED = 2_000
"""Files listed at most per folder tree."""

MAX_DIFF_LINES = 2_000
"""Diff lines shown at most."""

MAX_DIFF_INPUT = 512 * 1024
"""Bytes of each side read for a diff."""

LOG_FOLDERS = ("agent", "logs")
"""Trial sub-folders whose files are logs."""

LOG_FILES = ("prompt.md", "trajectory.jsonl", "coverage.json", "record.json", "record.orig.json")
"""Top-level trial files shown as logs."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Window:
    """Part of a file."""

    text: str
    offset: int
    size: int
    """The whole file's size in bytes."""

    @property
    def end(self) -> int:
        """Offset after the window."""
        return self.offset + len(self.text.encode("utf-8", errors="surrogateescape"))


def inside(root: Path, relative: str) -> Path | None:
    """`root/relative` when it names a path inside `root` with no symlink on the way, else None."""
    parts = PurePosixPath(relative).parts
    if not parts or PurePosixPath(relative).is_absolute() or ".." in parts or "." in parts:
        return None
    path: Path | None = root
    for part in parts:
        path = _entry(path, part) if path is not None else None
        if path is None or path.is_symlink():
            return None
    return path


def _entry(folder: Path, shown: str) -> Path | None:
    """The entry of `folder` named `shown`, or whose undecodable name `tree` shows as `shown`
    (`m\\xe9.py` for the bytes `m\xe9.py`); an exact name wins; None when neither exists."""
    exact = folder / shown
    if os.path.lexists(exact) or "\\" not in shown:
        return exact
    try:
        with os.scandir(folder) as entries:
            return next((Path(e.path) for e in entries if display_name(e.name) == shown), exact)
    except OSError:
        return exact


def read_window(path: Path, offset: int = 0, size: int = WINDOW) -> Window | None:
    """`size` bytes of a regular file from `offset` (None: not a regular file or unreadable)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                return None
            offset = max(0, min(offset, info.st_size))
            handle.seek(offset)
            data = handle.read(size)
    except OSError:
        return None
    return Window(text=data.decode("utf-8", errors="replace"), offset=offset, size=info.st_size)


def read_text(path: Path, limit: int = MAX_DIFF_INPUT) -> str | None:
    """The start of a regular file's text (None: not a regular file)."""
    window = read_window(path, 0, limit)
    return None if window is None else window.text


def tree(root: Path) -> list[tuple[str, int]]:
    """(relative path, size) of the regular files under `root`, links never followed; undecodable
    names are shown escaped (`display_name`), and `inside` finds them again by that name."""
    found: list[tuple[str, int]] = []
    if root.is_symlink() or not root.is_dir():
        return found
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder) / name
            try:
                info = path.lstat()
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                found.append((display_name(path.relative_to(root).as_posix()), info.st_size))
            if len(found) >= MAX_LISTED:
                return found
    return found


def logs(trial_dir: Path) -> list[tuple[str, int]]:
    """(path relative to the trial folder, size) of every log, transcript and harness file."""
    found = [(name, (trial_dir / name).lstat().st_size) for name in LOG_FILES
             if (trial_dir / name).is_file() and not (trial_dir / name).is_symlink()]
    for folder in LOG_FOLDERS:
        found += [(f"{folder}/{rel}", size) for rel, size in tree(trial_dir / folder)]
    return found


@dataclass(frozen=True, slots=True, kw_only=True)
class DiffLine:
    """One line of a unified diff: `kind` is `+`, `-`, ` ` or `@` (a hunk header)."""

    kind: str
    text: str


def diff(old: str | None, new: str | None, *, old_name: str, new_name: str) -> tuple[DiffLine, ...]:
    """A unified diff of two texts (None: the file is absent on that side), at most MAX_DIFF_LINES."""
    lines = difflib.unified_diff((old or "").splitlines(), (new or "").splitlines(),
                                 fromfile=old_name if old is not None else "/dev/null",
                                 tofile=new_name if new is not None else "/dev/null", lineterm="", n=3)
    out: list[DiffLine] = []
    for i, line in enumerate(lines):
        if i < 2:
            continue  # NOTE: the ---/+++ header: the page names both sides itself
        if len(out) >= MAX_DIFF_LINES:
            out.append(DiffLine(kind="@", text=f"... diff cut at {MAX_DIFF_LINES} lines"))
            break
        kind = line[:1] if line[:1] in "+- " else "@"
        out.append(DiffLine(kind=kind, text=line[1:] if kind != "@" else line))
    return tuple(out)


def unified_lines(text: str) -> tuple[DiffLine, ...]:
    """A unified diff's text (e.g. a trial's `changes.diff`) as lines to colour, at most
    MAX_DIFF_LINES; file headers are kept as hunk-style lines."""
    out: list[DiffLine] = []
    for line in text.splitlines():
        if len(out) >= MAX_DIFF_LINES:
            out.append(DiffLine(kind="@", text=f"... diff cut at {MAX_DIFF_LINES} lines"))
            break
        header = line.startswith(("--- ", "+++ ", "@@", "Binary files ", "\\"))
        kind = "@" if header or line[:1] not in "+- " or not line else line[:1]
        out.append(DiffLine(kind=kind, text=line if kind == "@" else line[1:]))
    return tuple(out)


def printable(text: str) -> str:
    """Control characters (terminal escapes, NUL, bells) shown as `\\x1b` instead of acting."""
    return "".join(c if c in "\n\t" or (c.isprintable() and c not in "\u2028\u2029")
                   else f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}" for c in text)
