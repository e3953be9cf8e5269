"""Is the machine out of disk, whatever the trials hold? The harness's own evidence, for excusing.

A measuring command (build, own tests, hidden tests) that fails because the file system holding its
folders is full (`link: ... no space left on device`) says nothing about the agent's work: a
reference solution scored 37.86 instead of 99.6 that way in a `--jobs 2` run on a machine whose
`/tmp` other runs had nearly filled (then, each Go trial also copied a 113 MB build cache). Such a
failure is the machine's, and the trial is `infra_error` (retried), not the agent's result.

Only the harness may excuse, so the agent's own output and exit status are never read. The harness
asks the file system itself (`statvfs`), once a command has failed, and counts back everything any
trial could have written on that file system: every AgentBench folder in the temporary folder (trial
folders of this and every other run, the trash of finished ones) and every entry a trial user owns
(or, without trial users, AgentBench's own user) in the world-writable folders (`users.SHARED_TEMP`).
The machine is out of disk only when, all of that removed, less than `LOW_WATER_BYTES` (5% of a
smaller file system) would still be free: an agent that fills the disk itself (or from another trial of the same run) is counted back
and stays scored; only what no trial wrote (other programs, other users) can excuse a trial.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from agentbench.users import SHARED_TEMP, TRIAL_UID_BASE, TRIAL_UID_COUNT, shared_entries

LOW_WATER_BYTES = 256 * 1024 * 1024
"""Free space (without anything a trial wrote) under which a file system counts as full; on a file
system smaller than 20 times this, a twentieth of its size (`LOW_WATER_SHARE`)."""

LOW_WATER_SHARE = 20

HARNESS_PREFIX = "agentbench-"
"""Names of the harness's folders in the temporary folder (trial folders, the trash...)."""

MAX_COUNTED_ENTRIES = 2_000_000
"""Entries counted at most; a larger footprint is taken as unbounded (never an excuse)."""


class OutOfDisk(OSError):
    """ENOSPC the harness established itself (`shortage`): the machine's failure, never the agent's."""


def confirmed(exc: OSError, own_uid: bool) -> bool:
    """Whether an OSError of the harness's own (disk full or over quota while measuring, say while
    copying the agent's files) is the machine's: always for errors other than those two, and for
    those only when `shortage` finds the file system full without the trials' files (an agent that
    filled the disk to make the harness's copy fail is counted back)."""
    if isinstance(exc, OutOfDisk) or exc.errno not in (errno.ENOSPC, errno.EDQUOT):
        return True
    folders = [_existing(Path(os.fsdecode(name))) for name in (exc.filename, exc.filename2)
               if isinstance(name, (str, bytes))]
    return shortage([*folders, Path(tempfile.gettempdir())], own_uid=own_uid) is not None


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


@dataclass(frozen=True, slots=True)
class Shortage:
    """A file system that is full without the trials' files."""

    folder: Path
    """A folder of the failed command on that file system."""
    free_bytes: int
    """Free space as an unprivileged process sees it (statvfs f_bavail)."""
    trials_bytes: int
    """Allocated by what the trials could have written on it."""
    low_water_bytes: int
    """Free space under which it counts as full."""

    def describe(self) -> str:
        """In words, for the record."""
        mib = 1024 * 1024
        return (f"the file system of {self.folder} had {self.free_bytes / mib:.1f} MiB free "
                f"({(self.free_bytes + self.trials_bytes) / mib:.1f} MiB with every trial's files "
                f"removed, under the {self.low_water_bytes / mib:g} MiB it needs: the machine is out "
                "of disk)")


def shortage(folders: Iterable[Path], own_uid: bool, low_water: int | None = None) -> Shortage | None:
    """The first file system of `folders` that is full without the trials' files (None: none is).

    `own_uid`: trials run as AgentBench's own user (no trial users), so its files count as theirs;
    `low_water`: default `LOW_WATER_BYTES`."""
    low_water = LOW_WATER_BYTES if low_water is None else low_water
    seen: set[int] = set()
    for folder in folders:
        try:
            device = os.stat(folder).st_dev
            if device in seen:
                continue
            seen.add(device)
            info = os.statvfs(folder)
        except OSError:
            continue
        free = info.f_bavail * info.f_frsize
        low = min(low_water, info.f_blocks * info.f_frsize // LOW_WATER_SHARE)
        if free >= low:
            continue
        held = trials_footprint(device, own_uid)
        if held is not None and free + held < low:
            return Shortage(folder=Path(folder), free_bytes=free, trials_bytes=held, low_water_bytes=low)
    return None


def raise_if_short(folders: Iterable[Path], own_uid: bool, during: str) -> None:
    """Raise `OutOfDisk` (ENOSPC: the machine's failure, `infra_error`) when `shortage` finds a file
    system of `folders` full without the trials' files; `during` says what was under way."""
    found = shortage(folders, own_uid=own_uid)
    if found is not None:
        raise OutOfDisk(errno.ENOSPC, f"{during} while {found.describe()}")


def trials_footprint(device: int, own_uid: bool, shared: Iterable[Path] | None = None) -> int | None:
    """Bytes allocated on `device` by what any trial could have written: the harness's folders in the
    temporary folder, the trials' entries in the `shared` folders (default: `SHARED_TEMP`; None: too
    many or unreadable)."""
    counter = _Counter(device)
    temp = os.path.realpath(tempfile.gettempdir())
    for entry, info in shared_entries(SHARED_TEMP if shared is None else shared):
        harness = entry.name.startswith(HARNESS_PREFIX) and os.path.dirname(entry.path) == temp
        if harness or _trial_owned(info.st_uid, own_uid):
            counter.add(entry.path)
    return None if counter.unbounded else counter.bytes


def _trial_owned(uid: int, own_uid: bool) -> bool:
    return TRIAL_UID_BASE <= uid < TRIAL_UID_BASE + TRIAL_UID_COUNT or (own_uid and uid == os.geteuid())


def _listing(folder: str) -> list[str] | None:
    """The entries of a folder inside a counted tree (None: unreadable, so not counted)."""
    try:
        with os.scandir(folder) as entries:
            return [entry.path for entry in entries]
    except FileNotFoundError:
        return []
    except OSError:
        return None


class _Counter:
    """Allocated bytes of trees on one device, each inode once, links never followed."""

    def __init__(self, device: int) -> None:
        self.device = device
        self.bytes = self.entries = 0
        self.unreadable = False
        self._inodes: set[int] = set()

    @property
    def unbounded(self) -> bool:
        """Too many entries, or a folder that could not be read: the footprint is not known."""
        return self.unreadable or self.entries > MAX_COUNTED_ENTRIES

    def add(self, top: str) -> None:
        stack = [top]
        while stack and self.entries <= MAX_COUNTED_ENTRIES:
            path = stack.pop()
            try:
                info = os.lstat(path)
            except OSError:
                continue
            self.entries += 1
            if info.st_dev != self.device or info.st_ino in self._inodes:
                continue
            self._inodes.add(info.st_ino)
            self.bytes += max(info.st_blocks * 512, info.st_size if stat.S_ISREG(info.st_mode) else 0)
            if stat.S_ISDIR(info.st_mode):
                listing = _listing(path)
                self.unreadable |= listing is None
                stack.extend(listing or ())
