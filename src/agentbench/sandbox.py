"""Confinement of the processes AgentBench starts: resource limits, the trial user, the bwrap sandbox.

Tiers, from always-on to opt-in:
- every process: its own session/process group, an explicit environment, killed with all its
  descendants at its limit (see `process`), rlimits through `prlimit` (file size, open files, CPU),
  and a watch on the disk use and file count of its writable folders;
- where a cgroup can be made (root on cgroup v1 or v2): a `pids` limit and a memory limit, and the
  cgroup's process list to find every descendant, even one that left the process group and cleared
  its environment;
- as root, with a `TrialUser`: the tree joins its cgroups as root, then drops to the trial's own
  unprivileged uid/gid (no supplementary groups, no capabilities, no_new_privs) through `setpriv`,
  so it can neither leave nor loosen its cgroup, read the harness's /proc environment, nor write
  anything but the folders handed to that user (see `agentbench.users`);
- `--sandbox bwrap`: a PID namespace (everything dies with the trial), a read-only view of the host
  with only the trial's workspace, home, temp and scratch folders writable, fresh empty /tmp,
  /var/tmp and /dev/shm (other trials' folders are invisible; files named on the command line, PATH
  entries and the install trees of symlinked executables stay visible read-only), folders asked to
  be hidden covered by an empty tmpfs, no capabilities even as root, network kept (agents need
  their API).

- what a trial must not see (`Confinement.hidden`: the challenges, the results and the database,
  the cache) is covered in both modes: by bwrap, or, without a sandbox, by a private mount
  namespace the trial user's tree runs in (as root only: see `hide_argv`).

This module builds argv wrappers and labels (looking at the file system, and probing once whether
mount namespaces can be made); `process` applies them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SANDBOXES = ("none", "bwrap")
"""Values of `--sandbox`."""

TMPFS_ROOTS = ("/tmp", "/var/tmp", "/dev/shm")
"""Folders the bwrap sandbox replaces with a fresh, empty tmpfs."""


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
class Confinement:
    """How to confine one process tree."""

    sandbox: str = "none"
    """`none` or `bwrap`."""
    writable: tuple[Path, ...] = ()
    """Folders the process may write in the sandbox (everything else is read-only)."""
    limits: Limits = field(default_factory=Limits)
    """Resource limits."""
    network: bool = True
    """Whether the sandbox keeps the network."""
    run_marker: str | None = None
    """Tags every process with the run's marker so Ctrl-C can find and kill all of them."""
    readable: tuple[Path, ...] = ()
    """Folders under the sandbox's fresh temp folders that must stay visible (read-only)."""
    user: TrialUser | None = None
    """Run the tree as this unprivileged user (requires root); None: as AgentBench's own user."""
    watched: tuple[Path, ...] | None = None
    """Folders whose disk use and file count are capped (`Limits.disk_mb`, `Limits.files`);
    None: the writable folders."""
    hidden: tuple[Path, ...] = ()
    """Folders (or files) the trial must not see: the challenges, the results and the database, the
    cache. bwrap covers each with an empty tmpfs (a file with /dev/null); paths named on the command
    line inside them stay visible. Without a sandbox, a trial user's tree runs in a private mount
    namespace with the same covers (see `hide_argv`); AgentBench's own user cannot be kept out."""

    def __post_init__(self) -> None:
        if self.sandbox not in SANDBOXES:
            raise ValueError(f"sandbox must be one of {SANDBOXES}, got {self.sandbox!r}")

    @property
    def watched_folders(self) -> tuple[Path, ...]:
        """The folders the disk watch measures."""
        return self.writable if self.watched is None else self.watched


def confine_argv(argv: Sequence[str], confinement: Confinement, cwd: Path,
                 search_path: str = "", *, namespaces: bool = False) -> list[str]:
    """`argv` wrapped in `prlimit`, `setpriv` (for a trial user) and, for the sandbox, `bwrap`;
    without it, for a trial user, in a private mount namespace hiding `confinement.hidden` where
    `namespaces` says they can be made (`process.mount_namespaces`).

    Raises FileNotFoundError when a trial user is asked for and `setpriv` is not installed.
    """
    inner = [*_prlimit(confinement.limits), *_setpriv(confinement.user), *argv]
    if confinement.sandbox == "bwrap":
        return [*_bwrap(confinement, cwd, visible_paths(argv, search_path, confinement)), *inner]
    if namespaces and confinement.user is not None and confinement.hidden:
        needed = (cwd, *confinement.writable, *confinement.readable,
                  *(Path(p) for p in search_path.split(":") if p), *_argv_paths(argv))
        hide = hide_argv(confinement.hidden, needed)
        if hide:
            return [*hide, *inner]
    return [*_own_ipc(), *inner]


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
    return tuple(c for root in _outermost(roots) for c in _covers(root, wanted))


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
    named = [*argv, *_interpreters(argv[0] if argv else "", "")]
    return [Path(a) for a in named if a.startswith("/") and os.path.lexists(a)]


def _prlimit(limits: Limits) -> list[str]:
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


def _setpriv(user: TrialUser | None) -> list[str]:
    """Drop to `user` for good: real/effective/saved ids, no groups, no capabilities, no_new_privs."""
    if user is None:
        return []
    exe = setpriv_path()
    if exe is None:
        raise FileNotFoundError("setpriv (util-linux) is not installed: cannot run as the trial user")
    return [exe, f"--reuid={user.uid}", f"--regid={user.gid}", "--clear-groups", "--no-new-privs",
            "--inh-caps=-all", "--bounding-set=-all", "--"]


def setpriv_path() -> str | None:
    """Where `setpriv` (util-linux) is installed, or None."""
    return shutil.which("setpriv")


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


def visible_paths(argv: Sequence[str], search_path: str, confinement: Confinement) -> Visible:
    """Paths the fresh temp folders (or hidden folders) would hide but the command needs.

    Named paths are argv elements, PATH entries (and every symbolic link inside them) and the
    confinement's `readable` folders. A symbolic link is followed hop by hop; for each hop the
    folder holding both the link and the final target (never a whole temp folder: at least one
    level below it) is bound, so an executable installed as a link from a bin folder into its
    package (`tools/bin/claude -> ../claude-code/node_modules/...`) finds its install tree. A
    script's `#!` interpreter, or the program `#!/usr/bin/env` names, is followed the same way.
    """
    roots = _hiding_roots(confinement)
    trees: dict[Path, None] = {}
    links: dict[Path, str] = {}
    for path in _named_paths(argv, search_path, confinement, roots):
        hops = list(_link_hops(path))
        links.update(hops)
        final = Path(os.path.realpath(path))
        trees.update(dict.fromkeys(t for link, _ in hops if (t := _tree(link, final, roots))))
        if not hops:
            trees[path] = None
    kept = _outermost(trees)
    # NOTE: a link outside the hiding roots (a venv's python3 -> /usr/bin/python3 -> python3.11) is
    # already there in the read-only view of the host; recreating it fails ("File exists").
    return Visible(trees=kept, links=tuple((link, target) for link, target in links.items()
                                           if _under(link, roots)
                                           and not any(link.is_relative_to(t) for t in kept)))


def _named_paths(argv: Sequence[str], search_path: str, confinement: Confinement,
                 roots: tuple[Path, ...]) -> list[Path]:
    """Existing absolute paths under `roots` that the command names, directly or through PATH."""
    dirs = [Path(p) for p in search_path.split(":") if p]
    named = [*argv, *map(str, dirs), *map(str, confinement.readable)]
    named += [str(link) for folder in dirs if _under(folder, roots) for link in _links_in(folder)]
    named += _interpreters(argv[0] if argv else "", search_path)
    paths = (Path(item) for item in named)
    return [p for p in paths if p.is_absolute() and _under(p, roots) and os.path.lexists(p)]


def _hiding_roots(confinement: Confinement) -> tuple[Path, ...]:
    return (*map(Path, TMPFS_ROOTS), *confinement.hidden)


def _under(path: Path, roots: Iterable[Path]) -> bool:
    return any(path != root and path.is_relative_to(root) for root in roots)


def _links_in(folder: Path) -> list[Path]:
    try:
        return [Path(e.path) for e in os.scandir(folder) if e.is_symlink()]
    except OSError:
        return []


def _interpreters(exe: str, search_path: str) -> list[str]:
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


def _outermost(paths: Iterable[Path]) -> tuple[Path, ...]:
    ordered = sorted(dict.fromkeys(paths), key=lambda p: len(p.parts))
    kept: list[Path] = []
    for path in ordered:
        if not any(path.is_relative_to(k) for k in kept):
            kept.append(path)
    return tuple(kept)


def _bwrap(confinement: Confinement, cwd: Path, visible: Visible) -> list[str]:
    exe = bwrap_path() or "bwrap"
    argv = [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for tmp in TMPFS_ROOTS:
        argv += ["--perms", "1777", "--tmpfs", tmp]
    for path in map(Path, confinement.hidden):
        if _under(path, map(Path, TMPFS_ROOTS)) or not os.path.lexists(path):
            continue
        if path.is_dir():
            argv += ["--perms", "0755", "--tmpfs", str(path)]
        else:
            argv += ["--ro-bind", "/dev/null", str(path)]
    state = _Mounts(_hiding_roots(confinement))
    for path in visible.trees:
        argv += [*state.parents(path), "--ro-bind", str(path), str(path)]
        state.bound.append(path)
    for link, target in visible.links:
        argv += [*state.parents(link), "--symlink", target, str(link)]
    for path in map(Path, confinement.writable):
        argv += [*state.parents(path), "--bind", str(path), str(path)]
        state.bound.append(path)
    argv += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent",
             "--chdir", str(cwd)]
    if os.geteuid() == 0 and confinement.user is None:
        # NOTE: bwrap started by root keeps every capability inside (CAP_SYS_ADMIN can remount "/"
        # read-write); none is needed there. With a trial user, setpriv drops them all instead
        # (after bwrap, still privileged, has entered the user's 0700 workspace).
        argv += ["--cap-drop", "ALL"]
    if not confinement.network:
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


def describe(confinement: Confinement, cgroup: bool) -> str:
    """The isolation label a trial record keeps, e.g. `bwrap+user+cgroup+rlimits`."""
    parts = ["bwrap" if confinement.sandbox == "bwrap" else "process-group"]
    if confinement.user is not None:
        parts.append("user")
    if cgroup:
        parts.append("cgroup")
    if shutil.which("prlimit"):
        parts.append("rlimits")
    return "+".join(parts)
