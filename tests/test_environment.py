"""AgentBench survives its own environment: an activated venv under the system temp folder, file
names that are not UTF-8. Each test runs `agentbench run` for real, in the sandbox modes it concerns."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from agentbench.records import loads_run
from agentbench.sandbox import Confinement, visible_paths
from tests.cli.helpers import invoke
from tests.test_engine import fake_agent, run_args

CI = bool(os.environ.get("CI"))
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None and not CI, reason="bubblewrap not installed")


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
