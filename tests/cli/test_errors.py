"""Every bad-input path ends with the README's one-line error and hint, and an exact exit code."""

from __future__ import annotations

import json

from tests.cli.helpers import invoke


def one_error(err: str) -> bool:
    lines = err.strip().splitlines()
    return lines[0].startswith("error: ") and lines[-1].startswith("hint: ") and "Usage:" not in err


def test_doctor_with_an_unknown_agent_is_bad_input(capsys):
    r = invoke(capsys, "doctor", "--agent", "nope")
    assert r.exit_code == 2 and one_error(r.err) and "unknown agent 'nope'" in r.err


def test_a_tab_in_yaml_is_named(capsys, tmp_path):
    (tmp_path / "easy").mkdir()
    (tmp_path / "easy" / "t.yaml").write_text(
        "name: x\nlanguage: python\nprompt: p\nexpected_files:\n\t- a.py\ntest_commands: [pytest]\n"
        "scoring_rubric: {}\n")
    r = invoke(capsys, "list", "--challenges", str(tmp_path))
    assert r.exit_code == 2 and one_error(r.err)
    assert "t.yaml:5" in r.err and "tab" in r.err


def test_a_foreign_json_is_not_an_agentbench_results_file(capsys, tmp_path):
    (tmp_path / "x.json").write_text(json.dumps({"hello": 1}))
    r = invoke(capsys, "compare", str(tmp_path / "x.json"))
    assert r.exit_code == 2 and one_error(r.err)
    assert "no schema_version" in r.err and "None" not in r.err


def test_agents_gives_the_install_command_of_every_cli(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setenv("AGENTBENCH_TOOLS", str(tmp_path / "no-tools"))  # agents looks there too
    r = invoke(capsys, "agents", "--json")
    assert r.exit_code == 0
    rows = {row["name"]: row for row in json.loads(r.out)}
    for agent in ("claude-code", "codex", "gemini", "aider", "opencode", "qwen"):
        note = json.dumps(rows[agent])
        assert "install" in note and ("npm install -g" in note or "pip install" in note), note
