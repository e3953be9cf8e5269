"""The per-command supervisor: `python -I -S supervise.py PARENT STATUS_FD GRACE -- ARGV...`.

`process.run` starts every command under it. It makes itself a child subreaper
(`prctl(PR_SET_CHILD_SUBREAPER)`), so whatever the command starts stays its descendant however it
leaves: `setsid`, double forks, a cleared environment or a renamed argv change nothing, since an
orphan is re-parented to the nearest subreaper above it, which is this process. It starts ARGV,
waits for it, then ends every descendant still alive (SIGTERM, up to GRACE seconds, then SIGKILL
sweeps of its /proc children until none is left, which beats fork races: a killed process forks no
more) and exits as ARGV did (its code, or the same signal).

A SIGTERM, SIGINT or SIGHUP (the harness's time limit or stop), or its parent's death
(`PR_SET_PDEATHSIG`, so a `kill -9` of the harness too), ends the command the same way at once.

On STATUS_FD it writes `ok` once ARGV started, or `error ERRNO MESSAGE` when it could not (the
harness then reports a start error, as for a command started directly), and closes it.

Standard library only, and started with `-I -S`: it must start fast and trust nothing in the
command's environment.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import resource
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
SWEEP_PAUSE_S = 0.02
UNKILLABLE_WAIT_S = 10.0
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


TAG = 1 << 62
"""The hard RLIMIT_LOCKS every supervised command starts with. A process may lower a hard limit but
never raise it (that needs CAP_SYS_RESOURCE), so a finite value marks the command and every
descendant for good, through `setsid`, `exec` and a cleared environment. Linux has ignored
RLIMIT_LOCKS since 2.4.25, so the tag changes nothing, and no other software has a reason to set it
(unlike RLIMIT_RTTIME, which real-time audio daemons set)."""

RLIMIT_LOCKS = getattr(resource, "RLIMIT_LOCKS", 10)
"""RLIMIT_LOCKS (10 on Linux; Python's `resource` does not name it)."""

SUPERVISOR_NAME = "/agentbench/supervise.py"
"""How a supervisor's command line ends its script's path."""


def tag_of(pid: int | str) -> int | None:
    """The hard RLIMIT_LOCKS of `pid` (RLIM_INFINITY: untagged; None: gone or unreadable)."""
    try:
        with open(f"/proc/{pid}/limits", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Max file locks"):
                    hard = line.split()[4]
                    return resource.RLIM_INFINITY if hard == "unlimited" else int(hard)
    except (OSError, IndexError, ValueError):
        return None
    return None


def tagging_possible() -> bool:
    """Whether a tag means anything here: this process itself is untagged (not the case, e.g.,
    for a harness run by a supervised command: its own supervisor's tag then covers it all)."""
    return resource.getrlimit(RLIMIT_LOCKS)[1] == resource.RLIM_INFINITY


def _is_supervisor(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().split(b"\0")
    except OSError:
        return False
    return any(arg.endswith(SUPERVISOR_NAME.encode()) for arg in args[:4])


def escapees() -> set[int]:
    """Tagged processes that left their supervisor: live, tagged, with an untagged parent that is
    not a supervisor (it was killed, so they went to init or another subreaper). Any other tagged
    process has its supervisor as its nearest untagged ancestor: an untagged process can never be
    made by a tagged one, so the rule cannot be gamed."""
    if not tagging_possible():
        return set()
    tagged: dict[int, int] = {}
    untagged: set[int] = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        hard = tag_of(name)
        if hard is None:
            continue
        if hard == resource.RLIM_INFINITY:
            untagged.add(int(name))
            continue
        parent = parent_of(int(name), live_only=True)
        if parent is not None:
            tagged[int(name)] = parent
    return {pid for pid, parent in tagged.items()
            if parent not in tagged and (parent not in untagged or not _is_supervisor(parent))
            and _real_uid(pid) == os.getuid()}


def _real_uid(pid: int) -> int | None:
    """`pid`'s real uid (from `status`: /proc/PID itself is root's for a non-dumpable process).
    Only this uid's escapees are swept: a trial user's are its cgroup's and `users.release`'s, and
    another user's processes are never touched."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Uid:"):
                    return int(line.split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return None


def kill_escapees(seconds: float = UNKILLABLE_WAIT_S) -> int:
    """SIGKILL every escapee (and, round by round, the children they leave) until none is left or
    only ones this process may not signal; returns how many were killed."""
    killed: set[int] = set()
    refused: set[int] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = escapees() - refused
        if not found:
            break
        for pid in found:
            (killed if _kill_escapee(pid) else refused).add(pid)
        time.sleep(SWEEP_PAUSE_S)
    return len(killed)


def _kill_escapee(pid: int) -> bool:
    try:
        fd = os.pidfd_open(pid)
    except OSError as exc:
        if exc.errno == errno.ESRCH:
            return True
        try:  # no pidfds here (a kernel before 5.3, seccomp): kill(2)
            os.kill(pid, signal.SIGKILL)
        except OSError:
            return False
        return True
    try:
        if tag_of(pid) not in (None, resource.RLIM_INFINITY):
            signal.pidfd_send_signal(fd, signal.SIGKILL)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


class Ending(Exception):
    """The harness (or its death) asked for the command to end now."""


def _raise_ending(signum: int, frame: object) -> None:
    raise Ending(signum)


def _prctl(option: int, value: int) -> bool:
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(option, value, 0, 0, 0) == 0)


def children_map() -> dict[int, list[int]]:
    """Live (non-zombie) processes by parent pid, from /proc."""
    kids: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields and fields[0] not in (b"Z", b"X"):
            kids.setdefault(int(fields[1]), []).append(int(name))
    return kids


def descendants(root: int) -> set[int]:
    """Live descendants of `root` (all of them stay below it: it is their subreaper)."""
    kids = children_map()
    found: set[int] = set()
    pending = list(kids.get(root, ()))
    while pending:
        pid = pending.pop()
        if pid not in found:
            found.add(pid)
            pending.extend(kids.get(pid, ()))
    return found


STATUSES: dict[int, int] = {}
"""Wait statuses of the children reaped so far, by pid (the command's is looked up here)."""


def reap_zombies() -> bool:
    """Reap every finished child; False once this process has no children at all."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True
        STATUSES[pid] = status


def parent_of(pid: int, *, live_only: bool = False) -> int | None:
    """`pid`'s parent (None: gone, unreadable, or a zombie when `live_only`)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        if live_only and fields[0] in (b"Z", b"X"):
            return None
        return int(fields[1])
    except (OSError, IndexError, ValueError):
        return None


def signal_all(pids: set[int], sig: int) -> None:
    """Signal each of `pids` (descendants of this process) through a pidfd, checked to still be
    a child of this process or of another of `pids`: a pid that died and was reused since it was
    read from /proc is never signalled."""
    tree = pids | {os.getpid()}
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except OSError as exc:
            if exc.errno != errno.ESRCH:  # no pidfds here (a kernel before 5.3, seccomp): kill(2)
                with contextlib.suppress(OSError):
                    os.kill(pid, sig)
            continue
        try:
            if parent_of(pid) in tree:
                signal.pidfd_send_signal(fd, sig)
        except OSError:
            pass
        finally:
            os.close(fd)


def end_all(grace_s: float) -> None:
    """SIGTERM every descendant, wait up to `grace_s`, then SIGKILL sweeps until none is left
    (or, for processes it may not signal, e.g. set-user-ID ones, until `UNKILLABLE_WAIT_S` more)."""
    me = os.getpid()
    told: set[int] = set()
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and reap_zombies() and (left := descendants(me)):
        new = left - told  # NOTE: processes born during the grace are told too (no respawning past it)
        signal_all(new, signal.SIGTERM)
        signal_all(new, signal.SIGCONT)  # a stopped process handles its SIGTERM only once continued
        told |= new
        time.sleep(SWEEP_PAUSE_S)
    deadline = time.monotonic() + UNKILLABLE_WAIT_S
    while time.monotonic() < deadline:
        if not reap_zombies():
            return  # NOTE: no child at all means no descendant: an orphan would be re-parented here
        left = descendants(me)
        signal_all(left, signal.SIGKILL)
        has_children = reap_zombies()
        if not left and not has_children:
            return
        time.sleep(SWEEP_PAUSE_S if left else 0.001)


def exit_like(status: int) -> None:
    """End this process the way the command ended (its exit code, or the signal that killed it)."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        with contextlib.suppress(OSError, ValueError):  # SIGKILL and SIGSTOP refuse handlers
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def report(fd: int, text: str) -> None:
    with contextlib.suppress(OSError):
        os.write(fd, text.encode(errors="replace") + b"\n")
        os.close(fd)


def _tag() -> None:
    """In the command's process, before it starts: carry the tag (see `TAG`)."""
    with contextlib.suppress(OSError, ValueError):
        resource.setrlimit(RLIMIT_LOCKS, (TAG, TAG))


def start(argv: list[str], status_fd: int) -> int:
    """Start the command, tagged (inheriting every descriptor but the status pipe); its pid.
    A plain fork and exec (no `subprocess`, whose import costs more than the rest of this start)."""
    os.set_inheritable(status_fd, False)
    tag = tagging_possible()
    errors_r, errors_w = os.pipe()  # NOTE: close-on-exec: empty when the exec succeeded
    pid = os.fork()
    if pid == 0:
        _exec(argv, errors_w, tag=tag)
    os.close(errors_w)
    failure = b""
    while chunk := os.read(errors_r, 4096):
        failure += chunk
    os.close(errors_r)
    if failure:
        STATUSES[pid] = os.waitpid(pid, 0)[1]
        report(status_fd, "error " + failure.decode(errors="replace"))
        os._exit(127)
    report(status_fd, "ok")
    return pid


def _exec(argv: list[str], errors_w: int, *, tag: bool) -> None:
    """In the forked child: default SIGPIPE/SIGXFSZ (as `subprocess`' restore_signals), the tag,
    then the command; an exec failure goes to `errors_w` as `ERRNO MESSAGE`. Never returns."""
    try:
        for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
        if tag:
            _tag()
        os.execvp(argv[0], argv)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.write(errors_w, f"{exc.errno or 0} {exc.strerror or exc}".encode(errors="replace"))
    finally:
        os._exit(127)


def wait_for(pid: int) -> None:
    """Until the command ends (orphans are reaped on the way)."""
    while pid not in STATUSES:
        try:
            done, status = os.waitpid(-1, 0)
        except ChildProcessError:
            return
        STATUSES[done] = status


def main(args: list[str]) -> None:
    parent, status_fd, grace_s = int(args[0]), int(args[1]), float(args[2])
    argv = args[4:]
    for sig in ENDING_SIGNALS:
        signal.signal(sig, _raise_ending)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    pid = 0
    try:
        if os.getppid() != parent:
            raise Ending(signal.SIGTERM)
        pid = start(argv, status_fd)
        wait_for(pid)
    except Ending:
        pass
    for sig in ENDING_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    end_all(grace_s)
    exit_like(STATUSES.get(pid, (128 + signal.SIGTERM) << 8))


if __name__ == "__main__":
    main(sys.argv[1:])
