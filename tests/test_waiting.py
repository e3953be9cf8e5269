"""Waiting for a child to end (`agentbench.waiting`, through `process.run`), with a pidfd or without
(how much sooner the end is noticed is measured by bench/measure_cost.py, not here)."""

from __future__ import annotations

import os
import subprocess
import sys

from agentbench import process
from agentbench.waiting import ended_within


def _child(code: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", code])


def test_an_ending_child_is_said_to_have_ended_and_left_to_be_reaped():
    proc = _child("import time; time.sleep(0.3); raise SystemExit(3)")
    assert ended_within(proc.pid, 30) is True
    assert proc.wait(timeout=5) == 3


def test_a_child_past_the_time_limit_is_left_running():
    proc = _child("import time; time.sleep(30)")
    try:
        assert ended_within(proc.pid, 0.3) is False and proc.poll() is None
    finally:
        proc.kill()
    assert ended_within(proc.pid, 30) is True and proc.wait(timeout=5) < 0  # killed, then reaped


def _run(tmp_path, code: str, timeout_s: float) -> process.ProcessResult:
    return process.run([sys.executable, "-c", code], cwd=tmp_path, env=dict(os.environ),
                       timeout_s=timeout_s, stdout_path=tmp_path / "out", stderr_path=tmp_path / "err")


def test_commands_end_and_time_out_alike_with_and_without_pidfds(tmp_path, monkeypatch):
    for pidfds in (True, False):
        if not pidfds:
            def no_pidfd(pid: int) -> int:
                raise OSError(38, "Function not implemented")

            monkeypatch.setattr("os.pidfd_open", no_pidfd)
        done = _run(tmp_path, "raise SystemExit(4)", 30)
        assert (done.returncode, done.timed_out) == (4, False)
        slow = _run(tmp_path, "import time; time.sleep(30)", 0.3)
        assert (slow.returncode, slow.timed_out) == (None, True)
