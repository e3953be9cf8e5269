"""A plain user without bubblewrap (issue 23, item 3): the run says in plain words what isolation is in
force and how to get the strongest; `--jobs N` is refused before anything else, naming the fix."""

from __future__ import annotations

import os

import pytest

from agentbench import users
from tests.cli.helpers import invoke


@pytest.fixture
def plain_user_without_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process seen as uid 1000 on a machine without bubblewrap."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(users, "bwrap_path", lambda: None)


def test_the_statement_says_who_the_agents_run_as_and_how_to_get_more(plain_user_without_bwrap):
    isolation = users.isolation("none")
    assert not isolation.separated
    assert "agents run as you (uid 1000) and can read and write your files" in isolation.summary
    assert "trials run one at a time" in isolation.summary
    assert "apt-get install bubblewrap, then --sandbox bwrap" in isolation.summary
    assert "run AgentBench as root" in isolation.summary
    assert any(note.startswith("user: none (AgentBench is not running as root") for note in isolation.notes)


def test_jobs_is_refused_first_with_the_fix(capsys, tmp_path, plain_user_without_bwrap):
    r = invoke(capsys, "run", "--agent", "noop", "--challenge", "easy/password-gen", "--jobs", "2",
               "--results", str(tmp_path))
    assert r.exit_code == 2
    first, hint = r.err.strip().splitlines()[:2]
    assert first.startswith("error: --jobs 2: trials running at once would see each other's folders")
    assert "apt-get install bubblewrap" in hint and "run AgentBench as root" in hint
    assert "--jobs 1" in hint
    assert "isolation per trial" not in r.err


def test_as_root_the_hint_never_says_run_as_root(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(users, "bwrap_path", lambda: None)
    isolation = users.isolation("none", without_users="the trial user cannot reach /x")
    assert "as root" not in isolation.hint and "as root" not in isolation.summary.split("stronger")[1]
    assert "fix: the trial user cannot reach /x" in isolation.summary
