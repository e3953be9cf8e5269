"""`--sandbox none`: the host as it is, seen with the trial user's rights. As root, each tree gets
its own IPC namespace, and a trial user's tree a private mount namespace covering what it must
not see (the challenges, results, database, cache), where namespaces can be made."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from agentbench.sandbox.base import Command, View, interpreters, outermost


@dataclass(frozen=True, slots=True)
class NoSandbox:
    """No sandbox: the host file system, with the trial user's rights (see the module)."""

    name: str = "none"
    label: str = "process-group"
    where: str = "here"
    described: str = "without a sandbox"
    separates: bool = False

    def problem(self) -> str | None:
        """Always usable."""
        return None

    def note(self, hiding: bool) -> str:
        """What a trial sees."""
        if hiding:
            return ("sandbox: none: the host file system is visible where the trial user may read, "
                    "except the challenges, results, database and cache (covered in a private mount "
                    "namespace)")
        return ("sandbox: none: the host file system is visible wherever the user may read, challenges "
                "and results included (only --sandbox bwrap, or running as root, hides them)")

    def wrap(self, command: Command, view: View) -> list[str]:
        """`command.inner`, as root in its own IPC namespace and, for a trial user with hidden paths
        (where namespaces can be made), in a private mount namespace covering them."""
        if command.namespaces and command.user is not None and view.hidden:
            needed = (command.cwd, *view.writable, *view.readable,
                      *(Path(p) for p in command.search_path.split(":") if p), *_argv_paths(command.argv))
            hide = hide_argv(view.hidden, needed)
            if hide:
                return [*hide, *command.inner]
        return [*_own_ipc(), *command.inner]


def _own_ipc() -> list[str]:
    """As root without the sandbox: a fresh IPC namespace, so System V objects and POSIX message
    queues the tree leaves die with it (bwrap does the same with --unshare-ipc)."""
    exe = shutil.which("unshare")
    return [exe, "--ipc", "--"] if exe and os.geteuid() == 0 else []


HIDE_SCRIPT = '''n=$1; shift
while [ "$n" -gt 0 ]; do
  if [ -d "$1" ] && [ ! -L "$1" ]; then
    mount -n -t tmpfs -o ro,nosuid,nodev,noexec,size=4k,mode=0755 agentbench-hidden "$1"
  else
    mount -n -o ro --bind /dev/null "$1"
  fi || { echo "agentbench: cannot hide $1" >&2; exit 125; }
  shift; n=$((n - 1))
done
exec "$@"'''
"""Covers each of its first N arguments (an empty read-only tmpfs on a folder, /dev/null on a file),
then runs the rest; started as root in a private mount namespace, before dropping to the trial user."""


def hide_argv(hidden: Iterable[Path], needed: Iterable[Path]) -> list[str]:
    """A prefix that runs a command in a private mount namespace where `hidden` are empty
    (everything in them except the `needed` paths, which stay as they are), and its own IPC
    namespace (as `_own_ipc`); started as root."""
    covers = hide_covers(hidden, needed)
    if not covers:
        return []
    return [shutil.which("unshare") or "unshare", "--ipc", "--mount", "--propagation", "private", "--",
            "/bin/sh", "-c", HIDE_SCRIPT, "agentbench-hide", str(len(covers)), *map(str, covers)]


def hide_covers(hidden: Iterable[Path], needed: Iterable[Path]) -> tuple[Path, ...]:
    """What to cover so that `hidden` show nothing but the `needed` paths inside them: each hidden
    path, or, where it holds a needed path, everything in it beside the way to that path
    (symbolic links are left: covering one would cover its target)."""
    wanted = {Path(q) for p in needed for q in (os.path.abspath(p), os.path.realpath(p))}
    roots = (Path(os.path.realpath(h)) for h in hidden if os.path.lexists(h))
    return tuple(c for root in outermost(roots) for c in _covers(root, wanted))


def _covers(path: Path, needed: set[Path]) -> list[Path]:
    inside = [n for n in needed if n.is_relative_to(path)]
    if not inside:
        return [path]
    if path in inside or path.is_symlink() or not path.is_dir():
        return []
    try:
        children = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError:
        return []
    return [c for e in children if not e.is_symlink() for c in _covers(Path(e.path), needed)]


def _argv_paths(argv: Sequence[str]) -> list[Path]:
    """Absolute paths a command names (and the `#!` interpreter of its program)."""
    named = [*argv, *interpreters(argv[0] if argv else "", "")]
    return [Path(a) for a in named if a.startswith("/") and os.path.lexists(a)]


