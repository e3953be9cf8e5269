"""The execution engine with real fake agents: timeouts, crashes, parallel runs, Ctrl-C and resume,
the bubblewrap sandbox. Each fake agent is a small Python script driven by the `command` adapter."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from agentbench.records import loads_run
from tests.cli.helpers import invoke
from tests.conftest import drop_box
from tests.requirements import jobs


def fake_agent(tmp_path: Path, name: str, body: str) -> Path:
    """Write an agent script and an agents config that runs it; return the config path."""
    script = tmp_path / f"{name}.py"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    config = tmp_path / f"{name}.toml"
    config.write_text(textwrap.dedent(f"""\
        [agents.{name}]
        adapter = "command"
        command = ["{sys.executable}", "{script}", "{{prompt_file}}"]
        """), encoding="utf-8")
    return config


def run_args(config: Path, agent: str, challenges: Path, results: Path, *extra: str) -> list[str]:
    return ["run", "--agent", agent, "--challenge", "easy/adder", "--challenges", str(challenges),
            "--results", str(results), "--agents-config", str(config), *extra]


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_hung_agent_is_killed_with_its_children_and_recorded_as_timeout(capsys, tmp_path, tiny_challenges):
    pids = drop_box(tmp_path) / "pids"
    config = fake_agent(tmp_path, "hang", f"""
        import os, subprocess, sys, time
        open("README.md", "w").write("partial work")
        child = subprocess.Popen([sys.executable, "-c", "import os, time; os.setsid(); time.sleep(600)"])
        open({str(pids)!r}, "w").write(str(child.pid))
        time.sleep(600)
    """)
    start = time.monotonic()
    r = invoke(capsys, *run_args(config, "hang", tiny_challenges, tmp_path / "r", "--agent-timeout", "2"))
    assert r.exit_code == 0, r.err
    assert time.monotonic() - start < 60
    (trial,) = loads_run((tmp_path / "r" / "hang.json").read_text()).trials
    assert trial.status == "timeout" and trial.adapter.timed_out
    assert "timed out" in trial.error
    assert trial.score is not None and trial.score.efficiency < 10
    assert not alive(int(pids.read_text()))


def test_crashing_agent_is_recorded_as_agent_error_and_its_work_measured(capsys, tmp_path, tiny_challenges):
    config = fake_agent(tmp_path, "crash", """
        import sys
        open("pyproject.toml", "w").write("garbage = [")
        print("\\x1b[31mboom\\x1b[0m <script>alert(1)</script>")
        sys.exit(3)
    """)
    r = invoke(capsys, *run_args(config, "crash", tiny_challenges, tmp_path / "r"))
    assert r.exit_code == 0, r.err
    assert "\x1b[31m" not in r.out
    (trial,) = loads_run((tmp_path / "r" / "crash.json").read_text()).trials
    assert trial.status == "agent_error" and trial.error == "exited with status 3"
    assert trial.measurements.completeness.found == ("pyproject.toml",)
    assert trial.measurements.build.success is False


def test_missing_agent_cli_stops_the_run_before_it_starts(capsys, tmp_path, tiny_challenges):
    config = tmp_path / "a.toml"
    config.write_text('[agents.ghost]\nadapter = "command"\ncommand = ["no-such-agent-cli", "{prompt_file}"]\n')
    r = invoke(capsys, *run_args(config, "ghost", tiny_challenges, tmp_path / "r"))
    assert r.exit_code == 1
    assert "no-such-agent-cli" in r.err and "not found" in r.err
    assert not (tmp_path / "r" / "ghost.json").exists()


def test_several_agents_and_trials_in_parallel(capsys, tmp_path, tiny_challenges):
    config = fake_agent(tmp_path, "quick", """
        import time
        time.sleep(0.2)
    """)
    r = invoke(capsys, "run", "--agent", "quick", "--agent", "noop", "--challenge", "easy/adder",
               "--trials", "2", "--jobs", jobs(wanted=4), "--challenges", str(tiny_challenges),
               "--results", str(tmp_path), "--agents-config", str(config), "--run-id", "par")
    assert r.exit_code == 0, r.err
    for agent in ("quick", "noop"):
        run = loads_run((tmp_path / f"{agent}.json").read_text())
        assert sorted(t.trial for t in run.trials) == [1, 2]
    records = list((tmp_path / "par" / "trials").rglob("record.json"))
    assert len(records) == 4


def test_ctrl_c_kills_the_running_agent_keeps_finished_trials_and_resume_runs_the_rest(tmp_path, tiny_challenges):
    marker = drop_box(tmp_path) / "started"
    config = fake_agent(tmp_path, "slow", f"""
        import os, pathlib, time
        log = pathlib.Path({str(marker)!r})
        os.umask(0)  # the resumed trials may run as another trial user: they append to it too
        with log.open("a") as f:
            f.write(str(os.getpid()) + "\\n")
        if len(log.read_text().split()) == 2:
            time.sleep(300)  # the second trial hangs: Ctrl-C must not wait for it
    """)
    results = tmp_path / "r"
    args = [sys.executable, "-m", "agentbench", *run_args(config, "slow", tiny_challenges, results,
                                                          "--trials", "4", "--run-id", "ctrl")]
    # NOTE: a shell starting pytest in the background has SIGINT ignored, and children inherit
    # that: the run must get Ctrl-C's default disposition whatever started the tests
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (marker.exists() and len(marker.read_text().split()) >= 2):
        time.sleep(0.05)
    time.sleep(0.3)
    interrupted = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # never leave it running for the next tests
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert time.monotonic() - interrupted < 20
    assert "resume" in err
    trials = results / "ctrl" / "trials" / "slow" / "easy" / "adder"
    assert {p.parent.name for p in trials.glob("*/record.json")} == {"trial-1"}
    assert not any(alive(int(pid)) for pid in marker.read_text().split())
    resumed = subprocess.run([sys.executable, "-m", "agentbench", "run", "--resume", "ctrl",
                              "--results", str(results)], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    run = loads_run((results / "slow.json").read_text())
    assert sorted(t.trial for t in run.trials) == [1, 2, 3, 4]
    assert all(t.status == "completed" for t in run.trials)
    assert len(marker.read_text().split()) == 5  # trial 2 started twice, every other trial once


@pytest.mark.needs("bwrap")
def test_sandboxed_agent_cannot_write_outside_its_workspace(capsys, tmp_path, tiny_challenges):
    outside = Path("/tmp") / f"agentbench-escape-{uuid.uuid4().hex}"
    # NOTE: a host folder outside every temp folder (visible, read-only, inside the sandbox), made
    # beside the tests rather than in HOME, which may itself be inside the system temp folder.
    host_dir = Path(tempfile.mkdtemp(prefix=".escape-target-", dir=Path(__file__).parent))
    host_dir.chmod(0o755)
    via_link = host_dir / f"agentbench-escape-{uuid.uuid4().hex}"
    results = tmp_path / "r"
    config = fake_agent(tmp_path, "escape", f"""
        import errno, os, pathlib
        tried = []
        def attempt(label, target):
            try:
                pathlib.Path(target).write_text("x")
                tried.append(label + ": written")
            except OSError as exc:
                tried.append(label + ": blocked " + errno.errorcode.get(exc.errno, "?"))
        for target in ({str(outside)!r}, os.path.expanduser("~/../escaped"),
                       {str(results / "planted.txt")!r}, "../../escaped", "/etc/agentbench-escaped"):
            attempt(target, target)
        os.symlink({str(host_dir)!r}, "hostlink")
        attempt("via symlink", os.path.join("hostlink", {via_link.name!r}))
        pathlib.Path("inside.txt").write_text("\\n".join(tried))
        os.symlink("/etc/hostname", "README.md")
    """)
    try:
        r = invoke(capsys, *run_args(config, "escape", tiny_challenges, results, "--sandbox", "bwrap"))
        assert r.exit_code == 0, r.err
        assert not outside.exists()
        assert not (results / "planted.txt").exists()
        assert not Path("/etc/agentbench-escaped").exists()
        assert not via_link.exists()
    finally:
        shutil.rmtree(host_dir, ignore_errors=True)
    run = loads_run((results / "escape.json").read_text())
    (trial,) = run.trials
    assert trial.isolation.startswith("bwrap")
    kept = results / run.run_id / trial.logs_dir / "workspace"
    assert (kept / "inside.txt").is_file()
    assert not (kept / "README.md").exists()  # the symlink to a host file is not followed out
    lines = dict(line.rsplit(": ", 1) for line in (kept / "inside.txt").read_text().splitlines())
    # the host is read-only (or, as a trial user, not writable); /tmp is a throwaway tmpfs
    assert lines["/etc/agentbench-escaped"] in ("blocked EROFS", "blocked EACCES")
    # (ENOENT: the target's folder is itself under the system temp folder, invisible in the sandbox)
    assert lines["via symlink"] in ("blocked EROFS", "blocked EACCES", "blocked ENOENT")


@pytest.mark.needs("bwrap")
def test_sandboxed_commands_see_a_scoring_cache_kept_under_tmp(capsys, tmp_path, tiny_challenges, monkeypatch):
    from agentbench.workspace import cache_dir

    real = cache_dir()
    real.mkdir(parents=True, exist_ok=True)
    under_tmp = tmp_path / "cache"  # /tmp is replaced by an empty tmpfs inside the sandbox
    under_tmp.symlink_to(real)
    monkeypatch.setenv("AGENTBENCH_CACHE", str(under_tmp))
    r = invoke(capsys, "run", "--agent", "reference", "--challenge", "easy/adder", "--challenges",
               str(tiny_challenges), "--results", str(tmp_path / "r"), "--sandbox", "bwrap")
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((tmp_path / "r" / "reference.json").read_text()).trials
    assert trial.measurements.build.success and trial.acceptance_rate == 1.0


def test_as_root_a_trial_user_that_cannot_reach_the_agent_means_root_with_a_warning(capsys, tmp_path, tiny_challenges):
    if os.geteuid() != 0:
        pytest.skip("trial users exist only when AgentBench runs as root")
    hidden = tmp_path / "private"
    hidden.mkdir(mode=0o700)
    config = fake_agent(hidden, "private", "open('README.md', 'w').write('hi')\n")
    r = invoke(capsys, *run_args(config, "private", tiny_challenges, tmp_path / "r"))
    assert r.exit_code == 0, r.err
    assert "warning: trials run as root, not as their own user" in r.err
    assert "chmod o+x" in r.err
    (trial,) = loads_run((tmp_path / "r" / "private.json").read_text()).trials
    assert "user" not in trial.isolation.split("+")
    run_dir = next((tmp_path / "r").glob("*/run.json")).parent
    assert (run_dir / trial.logs_dir / "workspace" / "README.md").read_text() == "hi"
