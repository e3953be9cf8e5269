"""What the agent changed: a unified diff of its workspace against the starting tree, and its summary.

Both sides are read by the harness from folders it owns (the pristine starting tree and the trial's
archived copy of the workspace), never from the agent's `.git`. Text files (UTF-8 without NUL bytes)
are diffed line by line; any other changed file is listed as binary. Protected paths (`protected:`
globs, matched with `fnmatch` on the `/`-separated relative path, so `*` crosses folders) changed by
the agent are named with what was done to them.
"""

from __future__ import annotations

import difflib
import fnmatch
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from agentbench.models import ChangeSummary
from agentbench.workspace import SKIPPED_DIRS, display_name

DIFF_FILE = "changes.diff"
"""The diff's name in the trial folder."""
MAX_DIFF_BYTES = 8 * 1024 * 1024
"""Largest diff kept; past it the diff ends with a note (the counts stay exact)."""
MAX_TEXT_BYTES = 2 * 1024 * 1024
"""Files larger than this are listed as binary rather than diffed line by line."""


def is_protected(rel: str, globs: Sequence[str]) -> bool:
    """Whether the relative path `rel` (with `/`) matches one of the `protected:` globs."""
    return any(fnmatch.fnmatchcase(rel, glob) or fnmatch.fnmatchcase(rel, glob.rstrip("/") + "/*")
               for glob in globs)


def tree_files(root: Path | None) -> dict[str, Path]:
    """Regular files under `root` by relative path, skipping harness, cache and environment folders
    (the ones `workspace.agent_files` skips); symlinks are never followed."""
    if root is None or not root.is_dir():
        return {}
    return {os.fsdecode(path.relative_to(root)): path for path in _walk(root)}


def _walk(folder: Path) -> Iterator[Path]:
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.is_dir(follow_symlinks=False):
            if entry.name not in SKIPPED_DIRS and not entry.name.endswith(".egg-info"):
                yield from _walk(Path(entry.path))
        elif entry.is_file(follow_symlinks=False):
            yield Path(entry.path)


@dataclass(frozen=True, slots=True)
class Changes:
    """The diff text and its summary."""

    diff: str
    summary: ChangeSummary


def diff_trees(before: Path | None, after: Path, protected: Sequence[str] = ()) -> Changes:
    """Diff the starting tree `before` (None: empty) against `after`, file by file in path order."""
    old, new = tree_files(before), tree_files(after)
    parts: list[str] = []
    added = removed = 0
    binary: list[str] = []
    touched: list[str] = []
    for rel in sorted(old.keys() | new.keys()):
        a, b = _read(old.get(rel)), _read(new.get(rel))
        if a == b:
            continue
        touched.append(rel)
        if any(side is not None and _binary(side) for side in (a, b)):
            binary.append(display_name(rel))
            parts.append(f"Binary files {_label('a', rel, a)} and {_label('b', rel, b)} differ\n")
            continue
        lines = list(difflib.unified_diff(_lines(a), _lines(b), _label("a", rel, a),
                                          _label("b", rel, b)))
        added += sum(1 for line in lines[2:] if line.startswith("+"))
        removed += sum(1 for line in lines[2:] if line.startswith("-"))
        parts.append("".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                             for line in lines))
    summary = ChangeSummary(files_changed=len(touched), lines_added=added, lines_removed=removed,
                            binary_files=tuple(binary),
                            protected=_protected_changes(old, new, touched, protected))
    return Changes(diff=_capped("".join(parts)), summary=summary)


_ABSENT = b""


def _read(path: Path | None) -> bytes | None:
    """File bytes; None when absent; a file too large to diff reads as a marker that differs."""
    if path is None:
        return None
    size = path.stat().st_size
    if size > MAX_TEXT_BYTES:
        return b"\0large:" + str(size).encode() + b":" + str(path.stat().st_mtime_ns).encode()
    return path.read_bytes()


def _binary(data: bytes) -> bool:
    if b"\0" in data:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _lines(data: bytes | None) -> list[str]:
    return [] if data is None else data.decode("utf-8").splitlines(keepends=True)


def _label(side: str, rel: str, data: bytes | None) -> str:
    return "/dev/null" if data is None else f"{side}/{display_name(rel)}"


def _capped(text: str) -> str:
    encoded = text.encode("utf-8", "backslashreplace")
    if len(encoded) <= MAX_DIFF_BYTES:
        return text
    head = encoded[:MAX_DIFF_BYTES].decode("utf-8", "ignore")
    return head + f"\n... diff cut at {MAX_DIFF_BYTES // (1024 * 1024)} MiB (the counts are exact)\n"


def _protected_changes(old: dict[str, Path], new: dict[str, Path], touched: list[str],
                       protected: Sequence[str]) -> tuple[str, ...]:
    if not protected:
        return ()
    notes = []
    for rel in touched:
        if not is_protected(rel, protected):
            continue
        what = "added" if rel not in old else "deleted" if rel not in new else "modified"
        notes.append(f"{display_name(rel)} ({what})")
    return tuple(notes)
