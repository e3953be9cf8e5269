"""Each real agent CLI against the scripted model server: its trajectory agrees with the server's
request log (model turns, tool calls, files written, tokens where the CLI reports them per turn)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentbench.adapters.base import AdapterContext
from agentbench.adapters.transcripts import build_trajectory
from agentbench.comparison.behaviour import trial_behaviour
from agentbench.models import Challenge, Rubric
from agentbench.modelserver import RunningServer, Script
from agentbench.sandbox import Confinement
from tests.adapters.helpers import CALC_FILES, REAL_CLIS, assert_files_written, scripted_adapter

PROMPT = "Write the calc package (calc/ops.py with add) and tests/test_ops.py."


def _main_loop(requests: list[dict[str, Any]], calls: int) -> int:
    """Model requests of the agent's main loop: those offering tools (aider offers none, and
    Codex's bodies are not plain JSON: every model call the server answered)."""
    bodies = [r for r in requests if r["method"] == "POST" and isinstance(r["body"], dict)]
    return sum(1 for r in bodies if r["body"].get("tools")) or calls


def _context(root: Path) -> AdapterContext:
    for name in ("home", "tmp", "agent", "ws"):
        (root / name).mkdir(parents=True, exist_ok=True)
    challenge = Challenge(id="easy/calc", name="Calc", tier="easy", language="python", prompt=PROMPT,
                          expected_files=tuple(f.path for f in CALC_FILES), test_commands=(),
                          scoring_rubric=Rubric(min_files=1))
    return AdapterContext(challenge=challenge, logs_dir=root / "agent", home=root / "home",
                          tmp=root / "tmp", confinement=Confinement(sandbox="none"))


@pytest.mark.realcli
@pytest.mark.parametrize("agent", sorted(REAL_CLIS))
def test_the_trajectory_agrees_with_the_model_servers_log(agent, real_cli, tmp_path):
    executable = real_cli(REAL_CLIS[agent])
    script = Script(files=CALC_FILES, final_message="All three files written.",
                    input_tokens=1234, output_tokens=56)  # NOTE: aider would print "1.2k"
    with RunningServer(script) as server:
        adapter = scripted_adapter(agent, server.url, executable)
        result = adapter.run_challenge(PROMPT, tmp_path / "ws", 5, context=_context(tmp_path))
        main = _main_loop(list(server.ledger.requests), server.ledger.calls)
    assert result.success, result.error
    assert_files_written(tmp_path / "ws", CALC_FILES)
    trajectory = build_trajectory(agent=agent, adapter=agent, prompt=PROMPT, trial_dir=tmp_path,
                                  workspace=tmp_path / "ws", home=tmp_path / "home")
    steps = trajectory.steps
    models = [s for s in steps if s.type == "model"]
    # one model turn per request of the main loop, in order: the calls each turn made come after it
    # (aider's whole-file format writes every file in one reply)
    assert len(models) == main == (1 if agent == "aider" else len(CALC_FILES) + 1), \
        [(s.type, s.turn, s.tool) for s in steps]
    assert [s.turn for s in steps if s.type != "prompt"] == sorted(
        s.turn for s in steps if s.type != "prompt")
    assert "All three files written." in models[-1].text
    behaviour = trial_behaviour(steps, parsed=trajectory.header.parsed)
    assert behaviour.files_written == len(CALC_FILES), [(s.tool, s.target, s.wrote) for s in steps]
    writes = [s for s in steps if s.type == "tool" and (s.kind == "write" or s.wrote)]
    assert len(writes) == len(CALC_FILES)
    # tokens: each turn's where the CLI reports them per turn, never a placeholder
    inputs = [m.input_tokens for m in models if m.input_tokens is not None]
    outputs = [m.output_tokens for m in models if m.output_tokens is not None]
    if agent in ("aider", "opencode", "gemini", "qwen", "claude-code", "codex"):
        assert inputs == [1234] * main
    if agent in ("aider", "opencode", "gemini", "codex"):  # Codex's: from its session log
        assert outputs == [56] * main
    if agent == "claude-code":
        assert all(o == 56 for o in outputs)  # a start-of-response placeholder is not kept
    if agent == "aider":  # exact, not the rounded "1.2k" of its output
        assert (result.input_tokens, result.output_tokens) == (1234 * main, 56 * main)
        contents = {s.target: json.loads(s.args)["content"] for s in writes}
        assert contents == {f.path: f.content for f in CALC_FILES}  # exact: no extra blank lines
