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
  their API);
- what a trial must not see (`Confinement.hidden`: the challenges, the results and the database,
  the cache) is covered in both modes: by bwrap, or, without a sandbox, by a private mount
  namespace the trial user's tree runs in (as root only: see `hide_argv`).

This package builds argv wrappers and labels (looking at the file system, and probing once whether
mount namespaces can be made); `process` applies them.

The sandbox is one object chosen once from the run's config (`sandbox_named`): `none`
(`agentbench.sandbox.none`) or `bwrap` (`agentbench.sandbox.bwrap`), each wrapping a command
(`Sandbox.wrap`) to show it the `View` its caller declares (writable, readable, hidden paths).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from agentbench.sandbox.base import (
    Command,
    Limits,
    Sandbox,
    TrialUser,
    View,
    prlimit_argv,
    setpriv_argv,
    setpriv_path,
)
from agentbench.sandbox.bwrap import TMPFS_ROOTS, Bwrap, Visible, bwrap_path, visible_paths
from agentbench.sandbox.none import HIDE_SCRIPT, NoSandbox, hide_argv, hide_covers

__all__ = ["HIDE_SCRIPT", "SANDBOXES", "TMPFS_ROOTS", "Bwrap", "Command", "Confinement", "Limits",
           "NoSandbox", "Sandbox", "TrialUser", "View", "Visible", "best_sandbox", "bwrap_path",
           "confine_argv", "describe", "hide_argv", "hide_covers", "sandbox_named", "setpriv_path",
           "visible_paths"]

_ALL: dict[str, Sandbox] = {"none": NoSandbox(), "bwrap": Bwrap()}

SANDBOXES = tuple(_ALL)
"""Values of `--sandbox`."""


def sandbox_named(name: str) -> Sandbox:
    """The sandbox `--sandbox name` asks for (ValueError for an unknown name; whether it can be
    used here is `Sandbox.problem`)."""
    try:
        return _ALL[name]
    except KeyError:
        raise ValueError(f"sandbox must be one of {SANDBOXES}, got {name!r}") from None


def best_sandbox() -> Sandbox:
    """The strongest sandbox this machine offers (bwrap where installed)."""
    return _ALL["bwrap"] if _ALL["bwrap"].problem() is None else _ALL["none"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Confinement:
    """How to confine one process tree."""

    sandbox: Sandbox = field(default_factory=NoSandbox)
    """The sandbox (`sandbox_named`; its name is accepted too)."""
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
    undumpable: bool = False
    """Run a trial user's tree undumpable (`setpriv_argv`): no process of that user can reach its
    processes' descriptors or memory. No effect without a trial user."""

    def __post_init__(self) -> None:
        if isinstance(self.sandbox, str):  # NOTE: a name, from an untyped caller
            object.__setattr__(self, "sandbox", sandbox_named(self.sandbox))

    @property
    def view(self) -> View:
        """What the command may see of the file system."""
        return View(writable=self.writable, readable=self.readable, hidden=self.hidden,
                    network=self.network)

    @property
    def watched_folders(self) -> tuple[Path, ...]:
        """The folders the disk watch measures."""
        return self.writable if self.watched is None else self.watched


def confine_argv(argv: Sequence[str], confinement: Confinement, cwd: Path,
                 search_path: str = "", *, namespaces: bool = False) -> list[str]:
    """`argv` wrapped in `prlimit`, `setpriv` (for a trial user) and the confinement's sandbox
    (`namespaces`: whether private namespaces can be made here, `process.mount_namespaces`).

    Raises FileNotFoundError when a trial user is asked for and `setpriv` is not installed.
    """
    inner = (*prlimit_argv(confinement.limits),
             *setpriv_argv(confinement.user, undumpable=confinement.undumpable), *argv)
    command = Command(argv=tuple(argv), inner=inner, cwd=cwd, search_path=search_path,
                      user=confinement.user, namespaces=namespaces)
    return confinement.sandbox.wrap(command, confinement.view)


def describe(confinement: Confinement, cgroup: bool) -> str:
    """The isolation label a trial record keeps, e.g. `bwrap+user+cgroup+rlimits`."""
    parts = [confinement.sandbox.label]
    if confinement.user is not None:
        parts.append("user")
    if cgroup:
        parts.append("cgroup")
    if shutil.which("prlimit"):
        parts.append("rlimits")
    return "+".join(parts)
