"""Issue 22, copies the harness is not told about: the challenges' counterparts in every other
worktree of the repository holding them (the main one and each linked one) are hidden too."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from agentbench.loader import discover_challenges
from agentbench.plan import RunConfig
from tests.conftest import make_tiny_challenge


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.mark.parametrize("run_from", ["main", "linked"])
def test_every_worktree_copy_of_the_challenges_is_hidden(tmp_path: Path, monkeypatch, run_from: str):
    monkeypatch.setenv("AGENTBENCH_CACHE", str(tmp_path / "cache"))
    main = tmp_path / "main"
    make_tiny_challenge(main / "challenges")
    git(main, "init", "-q")
    git(main, "add", ".")
    git(main, "commit", "-qm", "c")
    for name in ("wt-a", "wt-b"):
        git(main, "worktree", "add", "-q", str(tmp_path / name), "-b", name)
    (tmp_path / "gone").mkdir()
    git(main, "worktree", "add", "-q", str(tmp_path / "gone" / "wt-c"), "-b", "wt-c")
    subprocess.run(["rm", "-rf", str(tmp_path / "gone")], check=True)  # a stale worktree entry
    used = (main if run_from == "main" else tmp_path / "wt-a") / "challenges"
    found = discover_challenges([used], include_builtin=False)
    config = RunConfig(agents=("noop",), challenges=tuple(found), results_dir=tmp_path / "results",
                       run_id="r", challenge_dirs=(str(used),))
    hidden = set(config.hidden_paths(str(tmp_path / "x.db")))
    copies = {Path(os.path.realpath(t / "challenges")) for t in (main, tmp_path / "wt-a", tmp_path / "wt-b")}
    assert copies <= hidden
    assert not any("wt-c" in str(p) for p in hidden)
