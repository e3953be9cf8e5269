"""Trial users: when AgentBench runs as root, each trial's processes run as an unprivileged user.

A trial takes one numeric uid/gid from a reserved range (no /etc/passwd entry needed) for as long as
it runs; a lock file per uid, held with `flock`, keeps two concurrent trials (of this run or of any
other AgentBench process on the machine) from ever sharing one. The runner hands the trial's folders
to that user (`hand_over`): its workspace, home and temp folders become the user's, the trial's root
folder is enterable by that user alone, and everything else stays root's. Processes are started as
root, join their cgroups, then drop to the user (`sandbox.Confinement.user`, applied by `process`).
When the trial ends, every process of the user is killed and its files in the shared temp folders
are removed, so the next trial that gets the uid starts clean.

`isolation` says, for the run header and `doctor`, what a trial gets on this machine.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import pwd
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from agentbench.process import cgroups_available, kill_user, mount_namespaces
from agentbench.sandbox import (
    Confinement,
    Limits,
    Sandbox,
    TrialUser,
    bwrap_path,
    describe,
    sandbox_named,
    setpriv_path,
)

TRIAL_UID_BASE = 1_900_000_000
"""First uid (and gid) of the reserved range: above systemd's container ranges' usual start, below
2^31, unused by any distribution."""

TRIAL_UID_COUNT = 4096
"""Size of the reserved range (trials that can run at once on one machine)."""

LOCK_DIR = Path("/run/agentbench/trial-users")
"""Where the per-uid lock files live (root's, mode 0700)."""

SHARED_TEMP = (Path("/tmp"), Path("/var/tmp"), Path("/dev/shm"), Path("/run/lock"), Path("/var/lock"),
               Path("/dev/mqueue"))
"""World-writable folders a trial user can leave files in (cleaned when its trial ends; /dev/mqueue
holds the POSIX message queues where that file system is mounted)."""

SYSV_IPC = (("shm", "shmid"), ("msg", "msqid"), ("sem", "semid"))
"""The System V IPC tables of /proc/sysvipc and the name of their id column."""


def trial_users_problem() -> str | None:
    """Why trials cannot run as their own unprivileged user here; None when they can."""
    if os.geteuid() != 0:
        return f"AgentBench is not running as root (uid {os.geteuid()}): agents run as your own user"
    if setpriv_path() is None:
        return "setpriv (util-linux) is not installed: agents would run as root"
    try:
        _lock_dir(LOCK_DIR)
    except OSError as exc:
        return f"cannot keep trial-user locks in {LOCK_DIR}: {exc}"
    return None


@contextlib.contextmanager
def trial_user(lock_dir: Path = LOCK_DIR, *, required: bool = False) -> Iterator[TrialUser | None]:
    """Hold an unused uid of the reserved range for one trial; None where trial users are unavailable
    (`required`: raise OSError instead, for a run that was checked to have them, so a trial never
    silently runs as root, seeing all the harness hides).

    On exit every process of that user is killed and its files in /tmp, /var/tmp and /dev/shm are
    removed, before the uid can go to another trial.
    """
    problem = trial_users_problem()
    if problem is not None:
        if required:
            raise OSError(f"no trial user for this trial ({problem}); it was not run as root")
        yield None
        return
    folder = _lock_dir(lock_dir)
    with _claim(folder) as user:
        release(user)  # what a trial of this uid left when its run was killed before it could clean up
        try:
            yield user
        finally:
            release(user)


def _lock_dir(path: Path) -> Path:
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = path.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0 or info.st_mode & 0o022:
        raise PermissionError(f"{path} must be a folder owned by root and writable by root only")
    return path


@contextlib.contextmanager
def _claim(folder: Path) -> Iterator[TrialUser]:
    for uid in range(TRIAL_UID_BASE, TRIAL_UID_BASE + TRIAL_UID_COUNT):
        if _uid_taken(uid):
            continue
        fd = os.open(folder / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        try:
            yield TrialUser(uid, uid)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        return
    raise RuntimeError(f"all {TRIAL_UID_COUNT} trial users are in use (locks in {folder})")


def _uid_taken(uid: int) -> bool:
    """Whether the system already knows `uid` (a real account must never be reused)."""
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


def release(user: TrialUser) -> None:
    """Kill every process of `user`, then remove what it left in the shared temp folders and its
    System V IPC objects (shared memory, message queues, semaphores)."""
    kill_user(user)
    sweep(user)
    remove_ipc(user.uid)


def remove_ipc(uid: int, tables: Path = Path("/proc/sysvipc")) -> int:
    """Remove every System V IPC object that `uid` owns or created; return how many were removed.

    NOTE: an object made 0666 outlives its creator and any later trial user could read it. Each
    command also gets its own IPC namespace where `unshare` allows (see `sandbox`); this is for
    the commands that do not.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    removers = {"shm": lambda i: libc.shmctl(i, IPC_RMID, None),
                "msg": lambda i: libc.msgctl(i, IPC_RMID, None),
                "sem": lambda i: libc.semctl(i, 0, IPC_RMID)}
    removed = 0
    for table, id_column in SYSV_IPC:
        for ident in _ipc_ids(tables / table, id_column, uid):
            removed += removers[table](ident) == 0
    return removed


IPC_RMID = 0
"""The `cmd` of shmctl/msgctl/semctl that removes the object."""


def _ipc_ids(table: Path, id_column: str, uid: int) -> list[int]:
    """Ids of the objects of one /proc/sysvipc table whose owner or creator is `uid`."""
    try:
        header, *rows = table.read_text().splitlines()
    except (OSError, ValueError):
        return []
    names = header.split()
    found = []
    for row in rows:
        fields = dict(zip(names, row.split(), strict=False))
        with contextlib.suppress(KeyError, ValueError):
            if str(uid) in (fields["uid"], fields["cuid"]):
                found.append(int(fields[id_column]))
    return found


def sweep(user: TrialUser) -> None:
    """Remove from the shared temp folders whatever `user` owns, and every trial folder handed to it.

    Called with the uid's lock held, so no live trial has that uid: a trial folder still carrying its
    group (root's, mode 0710, see `hand_over`) was left by a run killed outright, and would otherwise
    let the uid's next trial write into that stale workspace.
    """
    for entry, info in shared_entries():
        if info.st_uid == user.uid or (info.st_uid == 0 and info.st_gid == user.gid):
            with contextlib.suppress(OSError):
                _remove(Path(entry.path))


def shared_entries(shared: Iterable[Path] = SHARED_TEMP) -> Iterator[tuple[os.DirEntry[str], os.stat_result]]:
    """Each entry of the `shared` world-writable folders and of the temporary folder (each folder
    once, by its real path), with its `lstat`; unreadable folders and entries are passed over."""
    for folder in {Path(os.path.realpath(f)) for f in (*map(str, shared), tempfile.gettempdir())}:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                yield entry, entry.stat(follow_symlinks=False)
            except OSError:
                continue


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def hand_over(user: TrialUser | None, root: Path, writable: Sequence[Path],
              readable: Sequence[Path] = ()) -> None:
    """Give a trial's folders to its user; a no-op for `None` (no trial user on this machine).

    `root` (the trial's own temporary folder, holding the others) stays root's with mode 0710 and
    the trial's group: that user can pass through it, no other trial user can enter it, and nothing
    in it can be renamed or replaced by the trial. Each `writable` folder (workspace, home, tmp),
    with everything in it, becomes the user's (mode 0700). Each `readable` folder (e.g. the
    harness's environments the trial's commands run) stays root's, readable by the trial's group
    only. Links are never followed.
    """
    if user is None:
        return
    os.chown(root, 0, user.gid, follow_symlinks=False)
    os.chmod(root, 0o710, follow_symlinks=False)
    give(user, writable)
    share(user, readable)


def give(user: TrialUser | None, folders: Sequence[Path]) -> None:
    """Make `folders`, with everything in them, the trial user's (mode 0700 folders, owner-only
    files); a no-op for `None`. Call it again after the harness writes into them (e.g. an adapter's
    per-trial config files in the home folder), before the trial's processes start."""
    if user is None:
        return
    for folder in folders:
        _chown_tree(Path(folder), user.uid, user.gid, group_read=False)


def share(user: TrialUser | None, folders: Sequence[Path]) -> None:
    """Let the trial user read (and enter, and run what is runnable in) `folders`, which stay
    root's: group read for the trial's group only; a no-op for `None`."""
    if user is None:
        return
    for folder in folders:
        _chown_tree(Path(folder), 0, user.gid, group_read=True)


def _chown_tree(top: Path, uid: int, gid: int, *, group_read: bool) -> None:
    """Own `top` and everything in it; owner keeps its bits, the group gets read (and enter/run
    where the owner has it) or nothing, others nothing; set-id bits are dropped."""
    for path in [str(top), *_paths_in(top)]:
        os.chown(path, uid, gid, follow_symlinks=False)
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            continue
        owner = 0o700 if stat.S_ISDIR(mode) else mode & 0o700
        os.chmod(path, owner | ((owner & 0o500) >> 3 if group_read else 0))


def _paths_in(top: Path) -> Iterator[str]:
    for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
        for name in [*dirnames, *filenames]:
            yield os.path.join(dirpath, name)


def reachable(user: TrialUser, path: Path, *, execute: bool = False) -> str | None:
    """Why `user` cannot reach (read, and run when `execute`) `path`; None when it can.

    Checks the mode bits of the path and of every folder on the way, for the path as given and
    for its real path (ACLs are not read). Use it before a run to find, e.g., an agent CLI or a
    Python installed under /root (mode 0700).
    """
    for candidate in dict.fromkeys((Path(os.path.abspath(path)), Path(os.path.realpath(path)))):
        for folder in reversed(candidate.parents):
            if not _allowed(user, folder, 0o1):
                return f"{folder} is not enterable by the trial user (mode {_mode(folder)})"
        wanted = 0o4 | (0o1 if execute or candidate.is_dir() else 0)
        if candidate.exists() and not _allowed(user, candidate, wanted):
            return f"{candidate} is not {'runnable' if execute else 'readable'} by the trial user (mode {_mode(candidate)})"
    return None


def _allowed(user: TrialUser, path: Path, bits: int) -> bool:
    try:
        info = path.stat()
    except OSError:
        return True  # a missing path is reported where it is used, not here
    if info.st_uid == user.uid:
        granted = info.st_mode >> 6
    elif info.st_gid == user.gid:
        granted = info.st_mode >> 3
    else:
        granted = info.st_mode
    return granted & bits == bits


def _mode(path: Path) -> str:
    try:
        return oct(path.stat().st_mode & 0o7777)
    except OSError:
        return "unknown"


@dataclass(frozen=True, slots=True, kw_only=True)
class Isolation:
    """What each trial gets on this machine, for the run header and `doctor`."""

    label: str
    """Short label, as kept in trial records (e.g. `bwrap+user+cgroup+rlimits`)."""
    separated: bool
    """Whether concurrent trials cannot write (or, with a trial user, enter) each other's folders."""
    notes: tuple[str, ...]
    """One line per mechanism: what it gives, or why it is missing."""
    hint: str = ""
    """How to get what is missing."""
    summary: str = ""
    """The isolation in force in plain words: who the agents run as, what they see, whether
    concurrent trials are kept apart, and the one step to the strongest setup when it is not in force."""

    def jobs_problem(self, jobs: int) -> str | None:
        """Why `--jobs N` must be refused here (None: it may run)."""
        if jobs <= 1 or self.separated:
            return None
        return (f"--jobs {jobs}: trials running at once would see each other's folders "
                "(no per-trial user and no sandbox)")


def isolation(sandbox: Sandbox | str, limits: Limits | None = None, *,
              without_users: str | None = None) -> Isolation:
    """Probe this machine: what a trial run in `sandbox` (or the sandbox of that name) gets
    (`without_users`: why trial users are not used although the machine has them)."""
    sandbox = sandbox_named(sandbox) if isinstance(sandbox, str) else sandbox
    limits = limits or Limits()
    problem = without_users or trial_users_problem()
    cgroup = cgroups_available()
    bwrap = sandbox.separates and sandbox.problem() is None
    user = None if problem else TrialUser(TRIAL_UID_BASE, TRIAL_UID_BASE)
    notes = [_user_note(problem, bwrap), _cgroup_note(cgroup, limits, problem is None),
             sandbox.note(problem is None and mount_namespaces()), _disk_note(limits)]
    hint = _separation_hint(problem) if problem and not bwrap else ""
    return Isolation(label=describe(Confinement(sandbox=sandbox, user=user), cgroup),
                     separated=problem is None or bwrap, notes=tuple(notes), hint=hint,
                     summary=_summary(problem, bwrap))


def _summary(problem: str | None, bwrap: bool) -> str:
    """One sentence: who the agents run as, what they see, whether trials are kept apart, and
    the step to the strongest setup (own user per trial inside bwrap) where it is not in force."""
    if problem is None:
        who = "each trial runs as its own unprivileged user"
    elif os.geteuid() == 0:
        who = "agents run as root (no per-trial user)"
    else:
        who = f"agents run as you (uid {os.geteuid()}) and can read and write your files"
    sees = ("inside bwrap (read-only host, own /tmp)" if bwrap
            else "with the host file system visible")
    apart = ("concurrent trials cannot reach each other" if problem is None or bwrap
             else "nothing keeps concurrent trials apart, so trials run one at a time")
    steps = []
    if not bwrap:
        steps.append("use --sandbox bwrap" if bwrap_path() else
                     "apt-get install bubblewrap, then --sandbox bwrap")
    if problem is not None:
        steps.append("run AgentBench as root" if os.geteuid() != 0 else f"fix: {problem}")
    stronger = f"; stronger: {' and '.join(steps)}" if steps else ""
    return f"{who}, {sees}; {apart}{stronger}"


def _separation_hint(problem: str) -> str:
    """How to get trials that cannot see each other, fitted to what this machine lacks."""
    bwrap = ("use --sandbox bwrap" if bwrap_path() is not None
             else "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and use --sandbox bwrap")
    if os.geteuid() == 0:
        return f"{bwrap}, or fix what keeps trial users out ({problem}), or use --jobs 1"
    return f"{bwrap}, or run AgentBench as root (each trial then gets its own user), or use --jobs 1"


def _user_note(problem: str | None, bwrap: bool) -> str:
    if problem is not None:
        return f"user: none ({problem}): agents can read and write whatever that user can"
    shared = ("" if bwrap else " and the shared /tmp, /var/tmp and /dev/shm (its files there are "
              "removed when the trial ends)")
    return (f"user: each trial runs as its own unprivileged uid ({TRIAL_UID_BASE}+, no groups, no "
            f"capabilities): it can write only its workspace, home and temp folders{shared}, cannot "
            "read AgentBench's environment, and cannot enter another trial's folders")


def _cgroup_note(cgroup: bool, limits: Limits, locked: bool) -> str:
    if not cgroup:
        return ("cgroup: none (needs root and cgroup v1/v2): no memory or process limit; survivors "
                "found by process group and marker variable")
    tail = ("it cannot leave or loosen it" if locked
            else "it runs as root, so it could leave or loosen it")
    return (f"cgroup: {limits.memory_mb} MiB memory and {limits.processes} processes per command "
            f"tree; {tail}")


def _disk_note(limits: Limits) -> str:
    disk = "no cap" if limits.disk_mb is None else f"{limits.disk_mb} MiB"
    files = "no cap" if limits.files is None else f"{limits.files} files"
    return f"disk: {disk} and {files} over each command's writable folders, stopped within ~1 s"
