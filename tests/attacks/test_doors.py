"""Issue 22, "every door closed": nothing of a run outlives the harness, however it ends.

End to end through `agentbench run` (a real subprocess) with a sleeping agent that also leaves a
grandchild in its own session with an empty environment; both are found again by a token in their
command lines, which the test reads from /proc.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.attacks.agents import CHALLENGES, agent_config, defined
from tests.attacks.conftest import ROOT, needs_sandbox

pytestmark = pytest.mark.attacks

SLEEPER = '''
import os, subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)  # TOKEN-grandchild"],
                 env={}, start_new_session=True, stdin=subprocess.DEVNULL,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)  # TOKEN-agent"])
'''


def with_token(token: str) -> list[int]:
    """Live processes whose command line holds `token`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if token.encode() in (entry / "cmdline").read_bytes():
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state not in ("Z", "X"):
                    found.append(int(entry.name))
    return found


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def start_sleeper_run(tmp_path: Path, mode: str, token: str, *extra: str) -> tuple[subprocess.Popen, list[str]]:
    with defined({"sleeper": {"__python__": SLEEPER.replace("TOKEN", token)}}):
        config = agent_config(tmp_path, ["sleeper"])
    argv = [sys.executable, "-m", "agentbench", "run", "--agent", "sleeper", "--challenge",
            "easy/calc-nosetup", "--challenges", str(CHALLENGES), "--agents-config", str(config),
            "--results", str(tmp_path / "results"), "--sandbox", mode, "--run-id", "k", *extra]
    proc = subprocess.Popen(argv, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not wait_for(lambda: len(with_token(token)) == 2, 120):
        proc.kill()
        pytest.fail(f"the sleeping agent never started: {proc.communicate()[1][-2000:]}")
    return proc, argv


@contextlib.contextmanager
def swept(token: str):
    try:
        yield
    finally:
        for pid in with_token(token):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_nothing_of_the_run_survives_a_kill_9_of_the_harness(tmp_path, mode):
    needs_sandbox(mode)
    token = f"agentbench-sleeper-{uuid.uuid4().hex}"
    with swept(token):
        proc, _ = start_sleeper_run(tmp_path, mode, token)
        proc.kill()
        proc.communicate(timeout=30)
        assert wait_for(lambda: not with_token(token), 10), f"survivors: {with_token(token)}"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_end_the_run_like_ctrl_c_and_it_resumes(tmp_path, sig):
    token = f"agentbench-sleeper-{uuid.uuid4().hex}"
    with swept(token):
        proc, _ = start_sleeper_run(tmp_path, "none", token, "--agent-timeout", "3")
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 128 + sig, err
        assert "--resume k" in err
        assert not with_token(token), "the signal left processes of the run alive"
        resumed = subprocess.run([sys.executable, "-m", "agentbench", "run", "--resume", "k",
                                  "--results", str(tmp_path / "results")], cwd=ROOT,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                                 text=True, timeout=300)
        assert resumed.returncode == 0, resumed.stderr[-2000:]
        assert (tmp_path / "results" / "sleeper.json").is_file()
        assert wait_for(lambda: not with_token(token), 10)
