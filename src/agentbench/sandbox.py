"""Confinement of the processes AgentBench starts: resource limits and the optional bubblewrap sandbox.

Tiers, from always-on to opt-in:
- every process: its own session/process group, an explicit environment, killed with all its
  descendants at its limit (see `process`), rlimits through `prlimit` (file size, open files, CPU);
- where a cgroup can be made (root on cgroup v1 or v2): a `pids` limit and a memory limit, and the
  cgroup's process list to find every descendant, even one that left the process group and cleared
  its environment;
- `--sandbox bwrap`: a PID namespace (everything dies with the trial), a read-only view of the host
  with only the trial's workspace, home, temp and scratch folders writable, fresh empty /tmp,
  /var/tmp and /dev/shm (other trials' folders are invisible; files named on the command line stay
  readable), network kept (agents need their API).

This module is pure: it builds argv wrappers and labels; `process` applies them.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

SANDBOXES = ("none", "bwrap")
"""Values of `--sandbox`."""


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

    def __post_init__(self) -> None:
        if self.sandbox not in SANDBOXES:
            raise ValueError(f"sandbox must be one of {SANDBOXES}, got {self.sandbox!r}")


def confine_argv(argv: Sequence[str], confinement: Confinement, cwd: Path,
                 search_path: str = "") -> list[str]:
    """`argv` wrapped in `prlimit` and, for the bwrap sandbox, in `bwrap`."""
    inner = [*_prlimit(confinement.limits), *argv]
    if confinement.sandbox == "bwrap":
        named = [*argv, *search_path.split(":"), *map(str, confinement.readable)]
        return [*_bwrap(confinement, cwd, _hidden_paths(named)), *inner]
    return inner


_TMPFS = ("/tmp", "/var/tmp", "/dev/shm")


def _hidden_paths(named: Sequence[str]) -> list[Path]:
    """Paths (on the command line, on PATH, asked for) that the fresh temp folders would hide."""
    return list(dict.fromkeys(Path(a) for a in named
                              if a.startswith(tuple(f"{t}/" for t in _TMPFS)) and Path(a).exists()))


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


def _bwrap(confinement: Confinement, cwd: Path, readable: list[Path]) -> list[str]:
    exe = shutil.which("bwrap") or "bwrap"
    argv = [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for tmp in _TMPFS:
        argv += ["--tmpfs", tmp]
    for path in readable:
        argv += ["--ro-bind", str(path), str(path)]
    for path in confinement.writable:
        argv += ["--bind", str(path), str(path)]
    argv += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent",
             "--chdir", str(cwd)]
    if not confinement.network:
        argv.append("--unshare-net")
    return [*argv, "--"]


def bwrap_path() -> str | None:
    """Where bubblewrap is installed, or None."""
    return shutil.which("bwrap")


def describe(confinement: Confinement, cgroup: bool) -> str:
    """The isolation label a trial record keeps, e.g. `bwrap+cgroup+rlimits`."""
    parts = ["bwrap" if confinement.sandbox == "bwrap" else "process-group"]
    if cgroup:
        parts.append("cgroup")
    if shutil.which("prlimit"):
        parts.append("rlimits")
    return "+".join(parts)
