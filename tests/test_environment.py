"""AgentBench survives its own environment: an activated venv under the system temp folder, file
names that are not UTF-8. Each test runs `agentbench run` for real, in the sandbox modes it concerns."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentbench.records import loads_run
from agentbench.sandbox import Confinement, visible_paths
from tests.cli.helpers import invoke
from tests.test_engine import fake_agent, run_args

CI = bool(os.environ.get("CI"))
needs_bwrap = pytest.mark.needs("bwrap")


def outside_link() -> Path:
    """A symbolic link to an executable outside the temp folders, as a venv's python3 ends in
    (`/usr/bin/python3 -> python3.11`)."""
    for folder in ("/usr/bin", "/bin", "/usr/local/bin"):
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            if entry.is_symlink() and os.access(entry.path, os.X_OK) and entry.name.startswith("python3"):
                return Path(entry.path)
    pytest.skip("no python3 installed as a symbolic link outside the temp folders")


@pytest.fixture
def venv_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An activated venv under the system temp folder: its bin/ on PATH, python3 a link to a link."""
    bin_dir = tmp_path / "clone" / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python3").symlink_to(outside_link())
    (bin_dir / "python").symlink_to("python3")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return bin_dir


def test_links_outside_the_hidden_folders_are_not_recreated(venv_on_path):
    visible = visible_paths(["python3", "-c", "pass"], os.environ["PATH"], Confinement(sandbox="bwrap"))
    assert venv_on_path in visible.trees
    assert all(link.is_relative_to(venv_on_path.parents[2]) for link, _ in visible.links), visible.links


@needs_bwrap
def test_a_command_agent_runs_in_bwrap_from_a_venv_under_tmp(capsys, tmp_path, tiny_challenges, venv_on_path):
    config = fake_agent(tmp_path, "venvuser", """
        import subprocess
        out = subprocess.run(["python3", "-c", "print('from path')"], capture_output=True, text=True)
        open("ran.txt", "w").write(out.stdout + out.stderr)
        print("ran", out.stdout.strip())
    """)
    results = tmp_path / "r"
    r = invoke(capsys, *run_args(config, "venvuser", tiny_challenges, results, "--sandbox", "bwrap"))
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((results / "venvuser.json").read_text()).trials
    assert trial.status != "infra_error", trial.error
    assert trial.adapter.final_message == "ran from path", trial.adapter


# -- file names that are not UTF-8 --------------------------------------------------------------------

def undecodable_agent(tmp_path: Path, tiny_challenges: Path) -> Path:
    """An agent that writes the reference solution plus files whose names are not UTF-8."""
    reference = tiny_challenges / "easy" / "adder" / "reference"
    files = {p.relative_to(reference).as_posix(): p.read_text() for p in reference.rglob("*") if p.is_file()}
    return fake_agent(tmp_path, "latin", f"""
        import os
        for name, text in {files!r}.items():
            os.makedirs(os.path.dirname(name) or ".", exist_ok=True)
            open(name, "w").write(text)
        open(b"src/adder/m\\xe9.py", "w").write("def f(x):\\n    return 1 if x else 2\\n")
        open(b"tests/test_\\xe9t\\xe9.py", "w").write("def test_ok():\\n    assert True\\n")
        os.makedirs(b"d\\xfe", exist_ok=True)
        open(b"d\\xfe/f\\xfd.txt", "w").write("hi\\n")
        print("wrote caf\\udce9".encode("utf-8", "surrogateescape").decode("latin-1"))
    """)


@pytest.mark.parametrize("mode", ["none", pytest.param("bwrap", marks=needs_bwrap)])
def test_undecodable_file_names_are_kept_escaped_everywhere(capsys, tmp_path, tiny_challenges, mode):
    from werkzeug.test import Client

    from agentbench.viewer.app import make_app

    config = undecodable_agent(tmp_path, tiny_challenges)
    results = tmp_path / "r"
    r = invoke(capsys, *run_args(config, "latin", tiny_challenges, results, "--sandbox", mode))
    assert r.exit_code == 0, r.err
    run = loads_run((results / "latin.json").read_text())
    (trial,) = run.trials
    assert trial.status == "completed", trial.error
    assert trial.measurements is not None
    assert "tests/test_\\xe9t\\xe9.py" in trial.measurements.tests.test_files
    for args in (("show", run.run_id, "--results", str(results)),
                 ("show", run.run_id, "latin/easy/adder/1", "--results", str(results)),
                 ("compare", str(results / "latin.json"))):
        shown = invoke(capsys, *args)
        assert shown.exit_code == 0 and "Traceback" not in shown.err, shown.err
    for suffix in ("md", "html", "json"):
        out = tmp_path / f"report.{suffix}"
        reported = invoke(capsys, "report", str(results), "--output", str(out))
        assert reported.exit_code == 0, reported.err
        out.read_text(encoding="utf-8")  # valid UTF-8 throughout
    client = Client(make_app(results))
    page = client.get(f"/runs/{run.run_id}/trials/latin/easy/adder/1")
    assert page.status_code == 200
    assert "m\\xe9.py" in page.get_data(as_text=True)
    shown_file = client.get(f"/runs/{run.run_id}/trials/latin/easy/adder/1/file/d%5Cxfe/f%5Cxfd.txt")
    assert shown_file.status_code == 200 and "hi" in shown_file.get_data(as_text=True)
    side = client.get(f"/runs/{run.run_id}/compare/easy/adder")
    assert side.status_code == 200 and "d\\xfe/f\\xfd.txt" in side.get_data(as_text=True)
