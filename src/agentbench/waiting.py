"""Waiting for a child process to end, woken the moment it does.

`subprocess.Popen.wait(timeout=...)` polls: it sleeps in steps that grow to 50 ms, so a command that
ends is noticed ~25 ms late on average, on every command of a trial's critical path. A pidfd
(Linux 5.3+) becomes readable when the process ends, so `poll` wakes at once; where there is none
(an older kernel, seccomp), the polling wait is used.
"""

from __future__ import annotations

import os
import select
import subprocess


def ended_within(proc: subprocess.Popen[bytes], timeout_s: float) -> bool:
    """Wait up to `timeout_s` for `proc` to end and reap it; whether it ended in time."""
    try:
        fd = os.pidfd_open(proc.pid)
    except (OSError, AttributeError):
        fd = -1
    if fd < 0:
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return False
        return True
    try:
        watch = select.poll()
        watch.register(fd, select.POLLIN)
        if not watch.poll(max(0, int(timeout_s * 1000))):
            return proc.poll() is not None
    finally:
        os.close(fd)
    proc.wait()
    return True
