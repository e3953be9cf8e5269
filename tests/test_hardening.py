"""Hostile agents and bad inputs: the run goes on, the record is right, nothing leaks or escapes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentbench.errors import ChallengeError
from agentbench.loader import discover_challenges, load_challenge
from agentbench.records import loads_run
from agentbench.runner import RunConfig, execute
from agentbench.sandbox import Limits
from agentbench.settings import load_agents_config
from tests.cli.helpers import invoke
from tests.conftest import TINY_YAML
from tests.requirements import jobs
from tests.test_engine import fake_agent, run_args

SECRET = "tok-3f9a1c77e2d04b6b9c0d"


def every_file_text(root: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())


def test_secrets_never_reach_results_logs_or_transcripts(capsys, tmp_path, tiny_challenges, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-0123456789abcdef")
    config = fake_agent(tmp_path, "leaky", """
        import os, sys
        token = os.environ["MY_SERVICE_TOKEN"]
        print("my token is", token)
        print("key:", os.environ.get("OPENAI_API_KEY"), file=sys.stderr)
        open("notes.txt", "w").write("token=" + token)
        print("done, token " + token)
    """)
    with config.open("a") as f:
        f.write(f'env = {{ MY_SERVICE_TOKEN = "{SECRET}" }}\n')
    r = invoke(capsys, *run_args(config, "leaky", tiny_challenges, tmp_path / "r"))
    assert r.exit_code == 0, r.err
    text = every_file_text(tmp_path / "r")
    assert SECRET not in text and "sk-live-0123456789abcdef" not in text
    assert "[REDACTED:MY_SERVICE_TOKEN]" in text
    (trial,) = loads_run((tmp_path / "r" / "leaky.json").read_text()).trials
    assert trial.adapter.final_message == "done, token [REDACTED:MY_SERVICE_TOKEN]"
    assert SECRET not in r.out + r.err


def test_an_agent_printing_hundreds_of_megabytes_is_capped(capsys, tmp_path, tiny_challenges):
    config = fake_agent(tmp_path, "loud", """
        import sys
        chunk = "x" * (1 << 20)
        for _ in range(300):
            sys.stdout.write(chunk)
    """)
    r = invoke(capsys, *run_args(config, "loud", tiny_challenges, tmp_path / "r"))
    assert r.exit_code == 0, r.err
    (transcript,) = (tmp_path / "r").rglob("agent/stdout.log")
    assert transcript.stat().st_size <= 20 * 1024 * 1024
    (trial,) = loads_run((tmp_path / "r" / "loud.json").read_text()).trials
    assert trial.status == "completed"


def test_file_size_limit_stops_a_workspace_filler(tmp_path, tiny_challenges):
    config = fake_agent(tmp_path, "filler", """
        try:
            with open("huge.bin", "wb") as f:
                for _ in range(64):
                    f.write(b"\\0" * (1 << 20))
            print("wrote it all")
        except OSError as exc:
            print("stopped:", exc.errno)
    """)
    challenges = discover_challenges([tiny_challenges], include_builtin=False)
    run = RunConfig(agents=("filler",), challenges=challenges, results_dir=tmp_path / "r", run_id="f",
                    limits=Limits(file_size_mb=4), agent_configs=tuple(load_agents_config(config).items()))
    (trial,) = execute(run).records["filler"].trials
    assert trial.adapter.final_message.startswith("stopped: 27")  # EFBIG
    kept = tmp_path / "r" / "f" / trial.logs_dir / "workspace" / "huge.bin"
    assert kept.stat().st_size <= 4 * 1024 * 1024


def test_symlinks_to_host_files_are_never_followed_out(capsys, tmp_path, tiny_challenges):
    config = fake_agent(tmp_path, "linker", """
        import os
        os.makedirs("src/adder", exist_ok=True)
        os.symlink("/etc/passwd", "src/adder/__init__.py")
        os.symlink("/etc", "hostdir")
        os.symlink("/etc/passwd", "pyproject.toml")
    """)
    r = invoke(capsys, *run_args(config, "linker", tiny_challenges, tmp_path / "r"))
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((tmp_path / "r" / "linker.json").read_text()).trials
    assert trial.measurements.completeness.found == ()
    assert trial.measurements.quality.files == 0
    assert trial.measurements.removed_symlinks == (
        "hostdir -> /etc", "pyproject.toml -> /etc/passwd", "src/adder/__init__.py -> /etc/passwd")
    text = every_file_text(tmp_path / "r")
    assert "root:x:0:0" not in text
    assert not any(p.is_symlink() for p in (tmp_path / "r").rglob("*"))


yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 500) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3),
    max_leaves=8,
)
FIELDS = ["name", "language", "prompt", "expected_files", "test_commands", "scoring_rubric",
          "time_limit_minutes", "setup_commands", "acceptance", "unknown"]


@given(doc=st.dictionaries(st.sampled_from(FIELDS), yaml_values, max_size=10), raw=st.text(max_size=80))
@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
def test_fuzzed_challenge_files_only_ever_raise_the_tools_own_error(tmp_path, doc, raw):
    for index, text in enumerate((yaml.safe_dump(doc), raw, TINY_YAML + raw)):
        path = tmp_path / "easy" / f"fuzz{index}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        try:
            load_challenge(path)
        except ChallengeError as exc:
            assert str(path) in exc.message


BWRAP = shutil.which("bwrap")
needs_bwrap = pytest.mark.needs("bwrap")


def agentbench_in(mount: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a mount namespace where the results folder is read-only or tiny."""
    return subprocess.run([BWRAP or "bwrap", "--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", *mount,
                           sys.executable, "-m", "agentbench", *args],
                          capture_output=True, text=True, timeout=300)


@needs_bwrap
def test_a_read_only_results_folder_fails_cleanly_and_keeps_what_was_there(tmp_path, tiny_challenges):
    results = tmp_path / "results"
    results.mkdir()
    (results / "noop.json").write_text("previous results\n")
    proc = agentbench_in(["--ro-bind", str(results), str(results)], "run", "--agent", "noop",
                         "--challenge", "easy/adder", "--challenges", str(tiny_challenges),
                         "--results", str(results))
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "error: " in proc.stderr
    assert "Read-only file system" in proc.stderr or "cannot write" in proc.stderr
    assert (results / "noop.json").read_text() == "previous results\n"


@needs_bwrap
def test_a_full_disk_fails_cleanly(tmp_path, tiny_challenges):
    results = tmp_path / "results"
    proc = agentbench_in(["--size", "4096", "--tmpfs", str(results)], "run", "--agent", "noop",
                         "--challenge", "easy/adder", "--challenges", str(tiny_challenges),
                         "--results", str(results))
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "No space left on device" in proc.stderr or "cannot write" in proc.stderr


HOSTILE = "\x1b[2J\x1b[31mpwned\x1b[0m <script>alert('x')</script> <img src=x onerror=alert(1)> [bold]markup[/bold]"


def test_hostile_text_from_an_agent_stays_inert_in_terminal_and_reports(capsys, tmp_path, tiny_challenges):
    config = fake_agent(tmp_path, "hostile", f"""
        print({HOSTILE!r})
    """)
    results = tmp_path / "r"
    r = invoke(capsys, *run_args(config, "hostile", tiny_challenges, results))
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((results / "hostile.json").read_text()).trials
    assert trial.adapter.final_message == HOSTILE  # kept verbatim in the record (JSON-escaped)
    compare = invoke(capsys, "compare", str(results / "hostile.json"))
    assert "\x1b" not in compare.out + compare.err
    html_path = tmp_path / "report.html"
    invoke(capsys, "report", str(results), "--output", str(html_path))
    html = html_path.read_text()
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert" in html and "\\x1b[31mpwned" in html
    md_path = tmp_path / "report.md"
    invoke(capsys, "report", str(results), "--output", str(md_path))
    assert "\x1b" not in md_path.read_text()


@needs_bwrap
def test_a_hostile_agent_leaves_the_other_trials_of_the_run_untouched(capsys, tmp_path, tiny_challenges):
    config = fake_agent(tmp_path, "vandal", """
        import os, pathlib, subprocess, sys, time
        for parent in pathlib.Path.cwd().parents:          # try to trash sibling workspaces
            for other in parent.glob("agentbench-trial-*/workspace"):
                if other != pathlib.Path.cwd():
                    for f in other.rglob("*.py"):
                        f.write_text("raise SystemExit('vandalised')")
        subprocess.Popen([sys.executable, "-c", "import os, time; os.setsid(); time.sleep(600)"])
        sys.stdout.write("x" * (50 << 20))
        time.sleep(600)
    """)
    r = invoke(capsys, "run", "--agent", "vandal", "--agent", "reference", "--challenge", "easy/adder",
               "--trials", "2", "--jobs", jobs("bwrap", 4), "--challenges", str(tiny_challenges), "--results",
               str(tmp_path / "r"), "--agents-config", str(config), "--agent-timeout", "3",
               "--sandbox", "bwrap")
    assert r.exit_code == 0, r.err
    vandal = loads_run((tmp_path / "r" / "vandal.json").read_text())
    assert [t.status for t in vandal.trials] == ["timeout", "timeout"]
    reference = loads_run((tmp_path / "r" / "reference.json").read_text())
    assert [t.status for t in reference.trials] == ["completed", "completed"]
    assert all(t.acceptance_rate == 1.0 and t.measurements.tests.failed == 0 for t in reference.trials)
