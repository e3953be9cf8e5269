"""`agentbench doctor` says OK for every real agent CLI that .ci/run installs."""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import invoke

REAL = {"claude-code": "claude", "codex": "codex", "gemini": "gemini", "aider": "aider",
        "opencode": "opencode", "qwen": "qwen"}


@pytest.mark.realcli
@pytest.mark.parametrize("agent", sorted(REAL))
def test_doctor_is_ok_for_the_real_cli(agent, real_cli, capsys):
    real_cli(REAL[agent])
    r = invoke(capsys, "doctor", "--agent", agent, "--json")
    rows = [row for row in json.loads(r.out) if row["subject"] == agent]
    assert all(row["ok"] for row in rows), rows
    assert r.exit_code == 0
