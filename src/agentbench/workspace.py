"""Trial folders: a fresh temporary root per trial (workspace, home, tmp), and copying what is in them.

The agent works in the workspace; language environments are the toolchains' business
(`agentbench.toolchains`). The workspace is copied into the trial folder (regular files only:
symlinks are recorded, never followed out) so every trial stays inspectable and can be regraded.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from agentbench.sandbox import TrialUser
from agentbench.users import TRIAL_UID_BASE, hand_over, reachable, trial_users_problem

SKIPPED_DIRS = frozenset({".git", ".venv", "venv", "__pycache__", ".pytest_cache",
                          "node_modules", ".mypy_cache", ".ruff_cache", ".tox"})
"""Folders that are not the agent's work product."""

@dataclass(frozen=True, slots=True, kw_only=True)
class TrialDirs:
    """The temporary folders of one trial."""

    base: Path
    """The trial's private root, holding the folders below and the harness's own (random names)."""
    workspace: Path
    """Where the agent works and its project is measured."""
    home: Path
    """HOME for every command of the trial."""
    tmp: Path
    """TMPDIR for every command of the trial."""
    user: TrialUser | None = None
    """The unprivileged user the trial's processes run as, owning workspace, home and tmp (None:
    AgentBench's own user)."""


SHARED_CACHE = Path("/var/cache/agentbench")
"""The cache as root when the home folder's is out of the trial users' reach (e.g. /root at 0700)."""


def cache_dir() -> Path:
    """Where AgentBench caches template environments (`AGENTBENCH_CACHE` overrides).

    The trial users must read it (the environments there run their commands): as root, when the
    home folder's cache is out of their reach, the cache is `SHARED_CACHE` instead.
    """
    if custom := os.environ.get("AGENTBENCH_CACHE"):
        return Path(custom)
    return shared_if_hidden(home_cache(), SHARED_CACHE)


def home_cache() -> Path:
    """The cache in the home folder (`XDG_CACHE_HOME` respected)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "agentbench"


def shared_if_hidden(cache: Path, shared: Path) -> Path:
    """`shared` when trial users would run but could not read `cache`; `cache` otherwise."""
    if trial_users_problem() is not None:
        return cache
    return shared if reachable(TrialUser(TRIAL_UID_BASE, TRIAL_UID_BASE), cache) else cache


@contextlib.contextmanager
def cache_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on `path` (created) while building something in the cache."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def make_trial_dirs(base: Path, user: TrialUser | None = None) -> TrialDirs:
    """Create the empty folders of one trial under `base`, handed to `user` when given."""
    dirs = TrialDirs(base=base, workspace=base / "workspace", home=base / "home", tmp=base / "tmp",
                     user=user)
    for path in (dirs.workspace, dirs.home, dirs.tmp):
        path.mkdir(parents=True, exist_ok=True)
    hand_over(user, base, writable=(dirs.workspace, dirs.home, dirs.tmp))
    return dirs


def copy_tree(source: Path, dest: Path, files: Iterable[Path] | None = None) -> None:
    """Copy a folder's regular files and folders (symlinks are skipped, never followed).

    `files` limits the copy to those files under `source` (e.g. `agent_files(source)`).
    """
    for src in _walk_regular(source) if files is None else files:
        target = dest / src.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
        shutil.copymode(src, target)


def _walk_regular(root: Path) -> Iterator[Path]:
    for entry in sorted(os.scandir(root), key=lambda e: e.name):
        if entry.is_symlink():
            continue
        if entry.is_dir(follow_symlinks=False):
            yield from _walk_regular(Path(entry.path))
        elif entry.is_file(follow_symlinks=False):
            yield Path(entry.path)


def agent_files(workspace: Path, suffixes: tuple[str, ...] = ()) -> tuple[Path, ...]:
    """Regular files the agent produced, skipping harness, cache and environment folders."""
    found = []
    for dirpath, dirnames, filenames in os.walk(workspace, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if not path.is_symlink() and (not suffixes or path.suffix in suffixes):
                found.append(path)
    return tuple(found)


def archive_workspace(workspace: Path, dest: Path, max_bytes: int = 50 * 1024 * 1024) -> tuple[str, ...]:
    """Copy the agent's files into the trial folder, up to `max_bytes`; say what was left out and why."""
    left_out = []
    used = 0
    for path in agent_files(workspace):
        size = path.stat().st_size
        rel = path.relative_to(workspace)
        if used + size > max_bytes:
            left_out.append(f"{display_name(rel)} ({size} bytes) not archived: the archive keeps at "
                            f"most {max_bytes // (1024 * 1024)} MiB per trial")
            continue
        used += size
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest / rel)
    return tuple(left_out)


def tree_digest(*roots: Path) -> str:
    """A SHA-256 over the relative paths and contents of every regular file under `roots`."""
    digest = hashlib.sha256()
    for root in roots:
        for path in _walk_regular(root):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def pack_tree(root: Path, *, extra: tuple[Path, ...] = ()) -> bytes:
    """A gzipped tar of `root`'s regular files (and of `extra` files, by name at the top)."""
    import io
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path in _walk_regular(root) if root.is_dir() else ():
            tar.add(path, arcname=str(path.relative_to(root)), recursive=False)
        for path in extra:
            tar.add(path, arcname=path.name, recursive=False)
    return buffer.getvalue()


def unpack_tree(data: bytes, dest: Path) -> None:
    """Extract a `pack_tree` archive into `dest`, refusing links and paths that leave it."""
    import io
    import tarfile

    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall(dest, filter="data")


def display_name(path: Path | str) -> str:
    """A path as text that is always valid UTF-8 (undecodable bytes shown as \\xNN escapes)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")
