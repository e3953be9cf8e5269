"""`--sandbox bwrap`: a read-only view of the host with only the declared folders writable, fresh
/tmp, /var/tmp and /dev/shm, the hidden folders covered, its own PID, IPC and UTS namespaces, no
capabilities even as root; the paths a command names (argv, PATH, symlinked install trees, `#!`
interpreters) stay visible read-only."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from agentbench.sandbox.base import Command, View, interpreters, outermost

TMPFS_ROOTS = ("/tmp", "/var/tmp", "/dev/shm")
"""Folders the bwrap sandbox replaces with a fresh, empty tmpfs."""


@dataclass(frozen=True, slots=True)
class Bwrap:
    """The bubblewrap sandbox (see the module)."""

    name: str = "bwrap"
    label: str = "bwrap"
    where: str = "in the bwrap sandbox"
    described: str = "inside bwrap (as under --sandbox bwrap)"
    separates: bool = True

    def problem(self) -> str | None:
        """Why bubblewrap cannot be used here (not installed), or None."""
        return None if bwrap_path() else ("bubblewrap is not installed (Debian/Ubuntu: apt-get install "
                                          "bubblewrap)")

    def note(self, hiding: bool) -> str:
        """What a trial sees."""
        if self.problem():
            return "sandbox: bwrap asked for but not installed"
        return ("sandbox: bwrap: read-only host, fresh /tmp, /var/tmp and /dev/shm, own PID namespace, "
                "no capabilities, challenges, results, database and cache covered; network kept")

    def wrap(self, command: Command, view: View) -> list[str]:
        """`command.inner` inside bwrap, showing `view`."""
        visible = visible_paths(command.argv, command.search_path, view)
        return [*_bwrap(view, command, visible), *command.inner]


def bwrap_path() -> str | None:
    """Where bubblewrap is installed, or None."""
    return shutil.which("bwrap")


@dataclass(frozen=True, slots=True)
class Visible:
    """What the sandbox must show of the temp folders it replaces (all read-only)."""

    trees: tuple[Path, ...]
    """Files and folders bound read-only at their own paths."""
    links: tuple[tuple[Path, str], ...]
    """Symbolic links inside the hiding roots recreated in the sandbox (link, target) that no bound
    tree already holds (links elsewhere are visible as they are)."""


def visible_paths(argv: Sequence[str], search_path: str, view: View) -> Visible:
    """Paths the fresh temp folders (or hidden folders) would hide but the command needs.

    Named paths are argv elements, PATH entries (and every symbolic link inside them) and the
    view's `readable` folders. A symbolic link is followed hop by hop; for each hop the
    folder holding both the link and the final target (never a whole temp folder: at least one
    level below it) is bound, so an executable installed as a link from a bin folder into its
    package (`tools/bin/claude -> ../claude-code/node_modules/...`) finds its install tree. A
    script's `#!` interpreter, or the program `#!/usr/bin/env` names, is followed the same way.
    """
    roots = _hiding_roots(view)
    trees: dict[Path, None] = {}
    links: dict[Path, str] = {}
    for path in _named_paths(argv, search_path, view, roots):
        hops = list(_link_hops(path))
        links.update(hops)
        final = Path(os.path.realpath(path))
        trees.update(dict.fromkeys(t for link, _ in hops if (t := _tree(link, final, roots))))
        if not hops:
            trees[path] = None
    kept = outermost(trees)
    # NOTE: a link outside the hiding roots (a venv's python3 -> /usr/bin/python3 -> python3.11) is
    # already there in the read-only view of the host; recreating it fails ("File exists").
    return Visible(trees=kept, links=tuple((link, target) for link, target in links.items()
                                           if _under(link, roots)
                                           and not any(link.is_relative_to(t) for t in kept)))


def _named_paths(argv: Sequence[str], search_path: str, view: View,
                 roots: tuple[Path, ...]) -> list[Path]:
    """Existing absolute paths under `roots` that the command names, directly or through PATH."""
    dirs = [Path(p) for p in search_path.split(":") if p]
    named = [*argv, *map(str, dirs), *map(str, view.readable)]
    named += [str(link) for folder in dirs if _under(folder, roots) for link in _links_in(folder)]
    named += interpreters(argv[0] if argv else "", search_path)
    paths = (Path(item) for item in named)
    return [p for p in paths if p.is_absolute() and _under(p, roots) and os.path.lexists(p)]


def _hiding_roots(view: View) -> tuple[Path, ...]:
    return (*map(Path, TMPFS_ROOTS), *view.hidden)


def _under(path: Path, roots: Iterable[Path]) -> bool:
    return any(path != root and path.is_relative_to(root) for root in roots)


def _links_in(folder: Path) -> list[Path]:
    try:
        return [Path(e.path) for e in os.scandir(folder) if e.is_symlink()]
    except OSError:
        return []


def _link_hops(path: Path) -> Iterator[tuple[Path, str]]:
    """Every symbolic link met while resolving `path` (its components included): (link, target)."""
    pending = list(Path(os.path.abspath(path)).parts[1:])
    current = Path("/")
    for _ in range(200):
        if not pending:
            return
        candidate = current / pending.pop(0)
        if candidate.is_symlink():
            target = os.readlink(candidate)
            yield candidate, target
            resolved = Path(os.path.normpath(candidate.parent / target))
            pending = [*resolved.parts[1:], *pending]
            current = Path("/")
        else:
            current = candidate


def _tree(link: Path, final: Path, roots: tuple[Path, ...]) -> Path | None:
    """The folder to bind for one link hop: holding the link and the final target, below a root
    (None when the target is visible anyway: the link alone is recreated)."""
    root = next((r for r in roots if final.is_relative_to(r) and final != r), None)
    if root is None:
        return None
    common = Path(os.path.commonpath([link.parent, final]))
    return common if _under(common, roots) else root / final.relative_to(root).parts[0]


def _bwrap(view: View, command: Command, visible: Visible) -> list[str]:
    exe = bwrap_path() or "bwrap"
    argv = [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for tmp in TMPFS_ROOTS:
        argv += ["--perms", "1777", "--tmpfs", tmp]
    for path in map(Path, view.hidden):
        if _under(path, map(Path, TMPFS_ROOTS)) or not os.path.lexists(path):
            continue
        if path.is_dir():
            argv += ["--perms", "0755", "--tmpfs", str(path)]
        else:
            argv += ["--ro-bind", "/dev/null", str(path)]
    state = _Mounts(_hiding_roots(view))
    for path in visible.trees:
        argv += [*state.parents(path), "--ro-bind", str(path), str(path)]
        state.bound.append(path)
    for link, target in visible.links:
        argv += [*state.parents(link), "--symlink", target, str(link)]
    for path in map(Path, view.writable):
        argv += [*state.parents(path), "--bind", str(path), str(path)]
        state.bound.append(path)
    argv += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent",
             "--chdir", str(command.cwd)]
    if os.geteuid() == 0 and command.user is None:
        # NOTE: bwrap started by root keeps every capability inside (CAP_SYS_ADMIN can remount "/"
        # read-write); none is needed there. With a trial user, setpriv drops them all instead
        # (after bwrap, still privileged, has entered the user's 0700 workspace).
        argv += ["--cap-drop", "ALL"]
    if not view.network:
        argv.append("--unshare-net")
    return [*argv, "--"]


@dataclass(slots=True)
class _Mounts:
    """What one bwrap command line has made so far (to create missing parents only once)."""

    roots: tuple[Path, ...]
    made: set[Path] = field(default_factory=set)
    bound: list[Path] = field(default_factory=list)

    def parents(self, path: Path) -> list[str]:
        """`--dir` for each missing parent inside a fresh tmpfs, world-traversable (bwrap makes
        them 0700 root otherwise, which the trial user could not enter)."""
        ops: list[str] = []
        for parent in reversed(path.parents):
            if (parent in self.made or not _under(parent, self.roots)
                    or any(parent.is_relative_to(b) for b in self.bound)):
                continue
            self.made.add(parent)
            ops += ["--perms", "0755", "--dir", str(parent)]
        return ops


