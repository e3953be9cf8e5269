"""Each real agent CLI through `agentbench run`, against the scripted model server: the trial folder
gets a `trajectory.jsonl` naming every file the model asked the CLI to write, with the usage the
server reported; `regrade` keeps it, and writes one for a trial that has none."""

from __future__ import annotations

import json

import pytest

from agentbench.adapters.registry import get_adapter
from agentbench.adapters.trajectory import read_steps
from agentbench.modelserver import RunningServer, Script, ScriptedFile
from tests.cli.helpers import invoke

EXECUTABLES = {"claude-code": "claude", "codex": "codex", "gemini": "gemini", "aider": "aider",
               "opencode": "opencode", "qwen": "qwen"}

CHALLENGE = """\
name: "Hello (trajectory test)"
language: python
time_limit_minutes: 5
prompt: |
  Write hello.py with a function hello() returning "hi", and tests/test_hello.py testing it.
expected_files: [hello.py, tests/test_hello.py]
test_commands: ["python -m pytest -q"]
scoring_rubric: {max_time_minutes: 1}
"""

FILES = (ScriptedFile(path="hello.py", content="def hello():\n    return 'hi'\n"),
         ScriptedFile(path="tests/test_hello.py",
                      content="from hello import hello\n\n\ndef test_hello():\n    assert hello() == 'hi'\n"))


def run_agent(agent, server, tmp_path, capsys, *extra):
    challenges = tmp_path / "challenges"
    (challenges / "easy").mkdir(parents=True, exist_ok=True)
    (challenges / "easy" / "hello.yaml").write_text(CHALLENGE)
    adapter = get_adapter(agent)
    env = ", ".join(f'{k} = "{v.format(url=server.url)}"' for k, v in adapter.scripted_env)
    config = tmp_path / "agentbench.toml"
    config.write_text(f"[agents.{agent}]\nenv = {{ {env} }}\n")
    return invoke(capsys, "run", "--agent", agent, "--challenge", "easy/hello", "--challenges",
                  str(challenges), "--agents-config", str(config), "--results",
                  str(tmp_path / "r"), "--run-id", "t", *extra)


@pytest.mark.realcli
@pytest.mark.parametrize("agent", sorted(EXECUTABLES))
def test_real_cli_run_leaves_a_trajectory(agent, real_cli, capsys, tmp_path):
    real_cli(EXECUTABLES[agent])
    with RunningServer(Script(files=FILES, final_message="Both files written.")) as server:
        r = run_agent(agent, server, tmp_path, capsys)
        ledger = server.ledger
    assert r.exit_code == 0, r.err
    path = tmp_path / "r" / "t" / "trials" / agent / "easy" / "hello" / "trial-1" / "trajectory.jsonl"
    header, steps = read_steps(path)
    assert header.parsed and header.parser == agent and header.agent == agent, header
    assert steps[0].type == "prompt" and "hello.py" in steps[0].text
    written = [s.target for s in steps if s.kind == "write"]
    shells = [s for s in steps if s.kind == "shell"]
    # NOTE: headless Gemini CLI may write a file through its shell tool; every file is named
    named = " ".join(written + [s.target for s in shells])
    assert "hello.py" in named and "test_hello.py" in named, [(s.tool, s.target) for s in steps]
    assert all(not w.startswith("/") for w in written), written  # shown relative to the workspace
    models = [s for s in steps if s.type == "model"]
    assert any("Both files written." in m.text for m in models)
    used = (sum(m.input_tokens or 0 for m in models), sum(m.output_tokens or 0 for m in models))
    if agent in ("codex", "opencode", "qwen"):
        assert used == (ledger.input_tokens, ledger.output_tokens)
    else:  # NOTE: aider rounds; Claude Code and Gemini CLI also make calls outside the main loop
        assert 0 < used[0] <= ledger.input_tokens and used[1] <= ledger.output_tokens


@pytest.mark.realcli
def test_regrade_keeps_the_trajectory_and_writes_a_missing_one(real_cli, capsys, tmp_path):
    real_cli("claude")
    with RunningServer(Script(files=FILES)) as server:
        assert run_agent("claude-code", server, tmp_path, capsys).exit_code == 0
    trial = tmp_path / "r" / "t" / "trials" / "claude-code" / "easy" / "hello" / "trial-1"
    before = (trial / "trajectory.jsonl").read_text()
    r = invoke(capsys, "regrade", "t", "--results", str(tmp_path / "r"))
    assert r.exit_code == 0, r.err
    assert (trial / "trajectory.jsonl").read_text() == before
    (trial / "trajectory.jsonl").unlink()
    r = invoke(capsys, "regrade", "t", "--results", str(tmp_path / "r"))
    assert r.exit_code == 0, r.err
    header = json.loads((trial / "trajectory.jsonl").read_text().splitlines()[0])
    assert header["parsed"] and header["parser"] == "claude-code"
    _, steps = read_steps(trial / "trajectory.jsonl")
    assert [s.target for s in steps if s.kind == "write"] == ["hello.py", "tests/test_hello.py"]
