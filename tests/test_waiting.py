"""Waiting for a child to end (`agentbench.waiting`), with a pidfd or without (how much sooner the\nend is noticed is measured by bench/measure_cost.py, not here)."""

from __future__ import annotations

import subprocess
import sys
import time

from agentbench.waiting import ended_within


def _child(code: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", code])


def test_an_ending_child_is_reaped_and_said_to_have_ended():
    proc = _child("import time; time.sleep(0.3); raise SystemExit(3)")
    assert ended_within(proc, 30) is True
    assert proc.returncode == 3


def test_a_child_past_the_time_limit_is_left_running():
    proc = _child("import time; time.sleep(30)")
    try:
        start = time.monotonic()
        assert ended_within(proc, 0.3) is False
        assert time.monotonic() - start >= 0.3 and proc.poll() is None
    finally:
        proc.kill()
        proc.wait()


def test_without_pidfds_the_polling_wait_does_the_same(monkeypatch):
    def no_pidfd(pid: int) -> int:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr("os.pidfd_open", no_pidfd)
    proc = _child("raise SystemExit(4)")
    assert ended_within(proc, 30) is True and proc.returncode == 4
    proc = _child("import time; time.sleep(30)")
    try:
        assert ended_within(proc, 0.2) is False and proc.poll() is None
    finally:
        proc.kill()
        proc.wait()
