"""The common trajectory format, parsed from the real CLIs' recorded transcripts (tests/adapters/data).

Each recorded transcript comes from the real CLI driven by the scripted model server; the steps
parsed from it must name the tools the model asked for, with their kinds, targets, results and the
usage the server reported. Garbage, oversized or hostile input never raises: it gives a note.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from agentbench.adapters.cli_base import CommandAdapter
from agentbench.adapters.registry import get_adapter
from agentbench.adapters.trajectory import (
    MAX_RESULT,
    Header,
    Step,
    StepList,
    Trajectory,
    TrajectoryError,
    Transcript,
    dumps,
    read_header,
    read_steps,
    runs_tests,
    step_from,
    tool_kind,
)
from agentbench.adapters.transcripts import PARSERS, build_trajectory, parser_name

DATA = Path(__file__).parent / "data"
RECORDED = Path("/tmp/agentbench-record/workspace")
"""The workspace folder the recorded CLIs ran in (paths under it are shown relative)."""


def parse(agent: str, name: str, workspace: Path | None = RECORDED, home: Path | None = None):
    return PARSERS[agent](Transcript(stdout=(DATA / agent / name).read_text(), workspace=workspace,
                                     home=home))


def tools(steps: StepList) -> list[tuple[str, str, str]]:
    return [(s.tool, s.kind, s.target) for s in steps.steps if s.type == "tool"]


def test_every_cli_adapter_has_a_parser():
    for name in ("claude-code", "codex", "gemini", "aider", "opencode", "qwen"):
        adapter = get_adapter(name)
        assert isinstance(adapter, CommandAdapter)
        assert parser_name(adapter) in PARSERS
    assert parser_name(get_adapter("reference")) is None


def test_claude_code_stream_json():
    steps = parse("claude-code", "success.stdout.jsonl")
    assert tools(steps) == [("Write", "write", "hello.py"), ("Write", "write", "pkg/util.py")]
    calls = [s for s in steps.steps if s.type == "tool"]
    assert all(s.result.startswith("File created successfully") and s.result_chars for s in calls)
    assert json.loads(calls[0].args) == {"file_path": str(RECORDED / "hello.py"),
                                         "content": "print('hello')\n"}
    models = [s for s in steps.steps if s.type == "model"]
    assert [s.turn for s in models] == [1, 2, 3]
    assert models[-1].text == "Wrote hello.py and pkg/util.py."
    assert all(s.input_tokens == 100 and s.time and s.time.startswith("2026-") for s in models)


def test_claude_code_error_run_ends_with_a_note():
    steps = parse("claude-code", "auth.stdout.jsonl")
    assert any(s.type == "note" and "error" in s.text for s in steps.steps)


def test_codex_jsonl_items():
    steps = parse("codex", "success.stdout.jsonl")
    assert tools(steps) == [("file_change", "write", "calc/__init__.py"),
                            ("file_change", "write", "calc/ops.py"),
                            ("command_execution", "shell", "/bin/bash -lc 'printf %s 1.0 > VERSION'")]
    shell = next(s for s in steps.steps if s.kind == "shell")
    assert shell.exit_code == 0 and shell.is_error is False
    final = [s for s in steps.steps if s.type == "model"][-1]
    assert final.text == "Created the calc package."
    assert (final.input_tokens, final.output_tokens) == (4936, 224)  # turn.completed's usage


def test_gemini_session_log_in_home(tmp_path):
    home = tmp_path / "home"
    chats = home / ".gemini" / "tmp" / "workspace" / "chats"
    chats.mkdir(parents=True)
    shutil.copy(DATA / "gemini" / "home" / "session.jsonl", chats / "session-2026-12-03T13-32-x.jsonl")
    steps = parse("gemini", "home/stdout", home=home)
    found = tools(steps)
    assert found[0] == ("write_file", "write", "README.md")
    assert found[1][:2] == ("run_shell_command", "shell")  # headless Gemini writes pyproject.toml by shell
    assert [t[2] for t in found if t[1] == "write"][-1] == "tests/test_version.py"
    assert len(found) == 8 and steps.sources == ["HOME/.gemini/tmp/workspace/chats/session-2026-12-03T13-32-x.jsonl"]
    models = [s for s in steps.steps if s.type == "model"]
    assert models[-1].text == "Done: all files written."
    assert sum(s.input_tokens or 0 for s in models) == 900 and all(s.time for s in models)


def test_gemini_without_its_log_falls_back_to_the_counts():
    steps = parse("gemini", "success_auto.stdout")
    assert [s.text for s in steps.steps if s.type == "model"] == ["Done: wrote the scripted files."]
    assert any("write_file x2" in s.text for s in steps.steps if s.type == "note")
    assert steps.notes and "no Gemini CLI session log" in steps.notes[0]


def test_gemini_log_behind_a_symlink_is_not_read(tmp_path):
    """The HOME is the agent's: a link planted there must not make the harness read elsewhere."""
    elsewhere = tmp_path / "elsewhere" / "workspace" / "chats"
    elsewhere.mkdir(parents=True)
    shutil.copy(DATA / "gemini" / "home" / "session.jsonl", elsewhere / "session-x.jsonl")
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    os.symlink(tmp_path / "elsewhere", home / ".gemini" / "tmp")
    assert tools(parse("gemini", "home/stdout", home=home)) == []
    shutil.rmtree(home / ".gemini")
    (home / ".gemini" / "tmp" / "workspace").mkdir(parents=True)
    os.symlink(elsewhere, home / ".gemini" / "tmp" / "workspace" / "chats")
    assert tools(parse("gemini", "home/stdout", home=home)) == []


def test_aider_plain_text_with_its_lint_run():
    steps = parse("aider", "lint.stdout")
    found = tools(steps)
    assert [t[2] for t in found[:3]] == ["hello.py", "pkg/util.py", "README.md"]
    assert found[3][:2] == ("aider_run", "shell") and "flake8" in found[3][2]
    lint = next(s for s in steps.steps if s.tool == "aider_run")
    assert "F821 undefined name" in lint.result
    writes = [s for s in steps.steps if s.kind == "write"]
    assert all(s.result.startswith("Applied edit to") for s in writes)
    assert json.loads(writes[0].args)["content"] == "def hello():\n    return undefined_name\n"
    models = [s for s in steps.steps if s.type == "model"]
    assert [(m.input_tokens, m.output_tokens, m.cost_usd) for m in models] == [(321, 54, 0.0018)] * 2
    assert models[0].text == "Done: all three files written."


def test_opencode_events():
    steps = parse("opencode", "success.stdout", workspace=Path("/tmp/tmp96acw305"))
    assert tools(steps) == [("write", "write", "hello.py"), ("write", "write", "pkg/util.py"),
                            ("write", "write", "README.md")]
    models = [s for s in steps.steps if s.type == "model"]
    assert len(models) == 4 and models[-1].text == "Done: all three files written."
    assert all(m.input_tokens == 321 and m.output_tokens == 54 and m.cost_usd == 0 for m in models)
    assert all(s.time and s.time.endswith("+00:00") for s in steps.steps)


def test_qwen_json_array():
    steps = parse("qwen", "success.stdout", workspace=Path("/tmp/tmp7i6rievn"))
    assert tools(steps) == [("write_file", "write", "hello.py"), ("write_file", "write", "pkg/util.py"),
                            ("write_file", "write", "README.md")]
    assert [s.text for s in steps.steps if s.type == "model"][-1] == "Done: all three files written."


@pytest.mark.parametrize("agent", sorted(PARSERS))
@pytest.mark.parametrize("garbage", ["", "not json at all\n\x1b[31mred\x1b[0m",
                                     '{"type": 1}\n[{"type": "assistant", "message": null}]\n{"type":"item.completed","item":[]}',
                                     '{"type": "assistant", "message": {"content": [{"type": "tool_use"}]}}\n' * 3,
                                     "Tokens: 1k sent, 2 received.\n```\nx\n"])
def test_garbage_never_raises(agent, garbage, tmp_path):
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "stdout.log").write_text(garbage)
    trajectory = build_trajectory(agent=agent, adapter=agent, prompt="p", trial_dir=tmp_path,
                                  home=tmp_path)
    assert trajectory.steps[0] == Step(type="prompt", text="p")
    read_back = _round_trip(trajectory, tmp_path)
    assert read_back == trajectory.steps


def test_unparseable_or_missing_transcript_is_a_note(tmp_path):
    no_parser = build_trajectory(agent="mine", adapter="command", prompt="p", trial_dir=tmp_path)
    assert not no_parser.header.parsed and "in-process" in no_parser.header.notes[0]
    (tmp_path / "agent").mkdir()
    os.symlink("/etc/passwd", tmp_path / "agent" / "stdout.log")
    linked = build_trajectory(agent="codex", adapter="codex", prompt="p", trial_dir=tmp_path)
    assert not linked.header.parsed and "not a regular file" in linked.header.notes[0]
    assert len(linked.steps) == 1


def test_a_parser_crash_is_a_note(tmp_path, monkeypatch):
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "stdout.log").write_text("{}")

    def broken(transcript):
        raise RuntimeError("boom")

    monkeypatch.setitem(PARSERS, "codex", broken)  # NOTE: stands in for a parser bug, not the thing tested
    trajectory = build_trajectory(agent="codex", adapter="codex", prompt="p", trial_dir=tmp_path)
    assert "RuntimeError: boom" in trajectory.header.notes[0] and not trajectory.header.parsed


def test_results_are_cut_and_their_size_kept():
    steps = StepList()
    steps.call("Bash", {"command": "cat big"}, call_id="1")
    steps.result("1", "x" * (MAX_RESULT * 3))
    (step,) = steps.steps
    assert step.result_chars == MAX_RESULT * 3 and len(step.result) < MAX_RESULT + 100
    assert "more characters cut" in step.result


def _round_trip(trajectory: Trajectory, folder: Path) -> tuple[Step, ...]:
    path = folder / "t.jsonl"
    path.write_text(dumps(trajectory))
    header, steps = read_steps(path)
    assert header.steps == len(trajectory.steps) and read_header(path) == header
    return steps


def test_round_trip_and_pages(tmp_path):
    steps = StepList()
    for i in range(30):
        steps.model(text=f"turn {i} <b>", input_tokens=i, cost_usd=0.5)
        steps.call("Edit", {"file_path": f"f{i}.py"}, call_id=str(i), target=f"f{i}.py")
        steps.result(str(i), "ok", is_error=False)
    trajectory = Trajectory(header=Header(agent="a", parser="claude-code", parsed=True),
                            steps=tuple(steps.steps))
    assert _round_trip(trajectory, tmp_path) == trajectory.steps
    _, page = read_steps(tmp_path / "t.jsonl", start=10, limit=5)
    assert page == trajectory.steps[10:15]


def test_malformed_files_are_refused(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"trajectory_version": 99}\n')
    with pytest.raises(TrajectoryError, match="version 1"):
        read_steps(path)
    with pytest.raises(TrajectoryError, match="unknown step field"):
        step_from({"type": "tool", "evil": 1})
    with pytest.raises(TrajectoryError, match="unexpected"):
        step_from({"type": "tool", "turn": "1"})
    with pytest.raises(TrajectoryError):
        step_from({"type": "script"})


def test_tool_kinds_and_test_commands():
    assert [tool_kind(n) for n in ("Bash", "Read", "Edit", "MultiEdit", "Grep", "Glob", "write_file",
                                   "run_shell_command", "apply_patch", "TodoWrite", "mcp__fs__read_file",
                                   "WebFetch")] == [
        "shell", "read", "write", "write", "search", "search", "write", "shell", "write", "other",
        "read", "other"]
    assert runs_tests("python -m pytest -q tests/") and runs_tests("cd x && npm test")
    assert runs_tests("/bin/bash -lc 'pytest'") and runs_tests("go test ./...")
    assert not runs_tests("pip install pytest-cov") and runs_tests("pip install -e . && pytest")
    assert not runs_tests("cat tests/test_x.py") and not runs_tests("echo testing")
    assert runs_tests("npx vitest run") and runs_tests("node --import tsx --test test/*.test.ts")
    assert runs_tests("node --test") and not runs_tests("node dist/cli.js --testing")
