"""Waiting for a child process to end, woken the moment it does.

`subprocess.Popen.wait(timeout=...)` polls: it sleeps in steps that grow to 50 ms, so a command that
ends is noticed ~25 ms late on average, on every command of a trial's critical path. A pidfd
(Linux 5.3+) becomes readable when the process ends, so `poll` wakes at once; where there is none
(an older kernel, seccomp), the same polling is done here. Either way the child is not reaped: its
caller reaps it (its exit status stays for `Popen.wait`).
"""

from __future__ import annotations

import os
import select
import time

POLL_STEP_MAX_S = 0.05
"""Longest sleep between two looks without a pidfd (as `subprocess`)."""


def ended_within(pid: int, timeout_s: float) -> bool:
    """Whether the child `pid` (not yet reaped) ended within `timeout_s`."""
    try:
        fd = os.pidfd_open(pid)
    except (OSError, AttributeError):
        return _polled(pid, timeout_s)
    try:
        watch = select.poll()
        watch.register(fd, select.POLLIN)
        return bool(watch.poll(max(0, int(timeout_s * 1000)))) or _ended(pid)
    finally:
        os.close(fd)


def _polled(pid: int, timeout_s: float) -> bool:
    deadline, step = time.monotonic() + timeout_s, 0.0005
    while not _ended(pid):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(step, left))
        step = min(step * 2, POLL_STEP_MAX_S)
    return True


def _ended(pid: int) -> bool:
    """Whether the child `pid` has ended (left unreaped)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True  # NOTE: already reaped
