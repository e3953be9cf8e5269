"""The claude-code adapter and the Anthropic protocol of the scripted model server.

Unit tests read outputs recorded from the real CLI (Claude Code 2.1.332 against the scripted server,
under tests/adapters/data/claude-code/); the `realcli` tests drive the installed CLI end to end.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from agentbench.adapters.claude_code import QUIET_ENV, ClaudeCodeAdapter
from agentbench.adapters.cli_base import TrialSetup
from agentbench.adapters.registry import get_adapter
from agentbench.models import AgentConfig
from agentbench.modelserver import RunningServer, Script, ScriptedFile
from agentbench.modelserver.anthropic import offers_write_tool, tool_results_seen, working_directory
from tests.adapters.helpers import assert_files_written, silent_endpoint, trial_setup

DATA = Path(__file__).parent / "data" / "claude-code"
RECORDED_WORKSPACE = "/tmp/agentbench-record/workspace"
PASSED_THROUGH = ClaudeCodeAdapter.passthrough_env


def recorded(name: str) -> tuple[str, str]:
    """(stdout, stderr) of a recorded run."""
    stderr = DATA / f"{name}.stderr.txt"
    return ((DATA / f"{name}.stdout.jsonl").read_text(encoding="utf-8"),
            stderr.read_text(encoding="utf-8") if stderr.exists() else "")


def make_setup(tmp_path: Path, model: str | None = None) -> TrialSetup:
    return trial_setup(tmp_path, model, prompt='--help: write hello.py')


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No Anthropic variables from the developer's environment leak into a test."""
    for name in PASSED_THROUGH:
        monkeypatch.delenv(name, raising=False)


# --- command line and environment ----------------------------------------------------------------


def test_registry_name_and_declared_data():
    adapter = get_adapter("claude-code")
    assert isinstance(adapter, ClaudeCodeAdapter)
    assert adapter.name == "claude-code" and adapter.executable == "claude"
    assert "@anthropic-ai/claude-code" in (adapter.package or "")


def test_argv_is_headless_stream_json_without_the_prompt(tmp_path):
    setup = make_setup(tmp_path)
    argv = ClaudeCodeAdapter().build_argv("--help: write hello.py", setup)
    assert argv == ["-p", "--output-format", "stream-json", "--verbose",
                    "--permission-mode", "bypassPermissions"]
    assert ClaudeCodeAdapter().stdin_file(setup) == setup.prompt_file


def test_argv_passes_the_model(tmp_path):
    argv = ClaudeCodeAdapter().build_argv("x", make_setup(tmp_path, model="claude-sonnet-4-5"))
    assert argv[-2:] == ["--model", "claude-sonnet-4-5"]


def test_environment_is_quiet_and_config_env_wins(tmp_path, clean_env, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-user")
    monkeypatch.setenv("OPENAI_API_KEY", "not-for-claude")
    config = AgentConfig(name="claude-code", env=(("ANTHROPIC_BASE_URL", "http://127.0.0.1:1"),
                                                  ("DISABLE_TELEMETRY", "0")))
    setup = make_setup(tmp_path)
    env = ClaudeCodeAdapter(config).environment(setup)
    assert env["ANTHROPIC_API_KEY"] == "sk-user" and "OPENAI_API_KEY" not in env
    assert env["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:1"
    assert env["HOME"] == str(setup.home) and env["TMPDIR"] == str(setup.tmp)
    assert env["IS_SANDBOX"] == "1" and env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] == "1"
    assert env["DISABLE_AUTOUPDATER"] == "1" and env["DISABLE_TELEMETRY"] == "0"
    assert set(QUIET_ENV) <= set(env)


# --- parsing recorded outputs --------------------------------------------------------------------


def test_parse_recorded_success():
    usage = ClaudeCodeAdapter().parse_output(*recorded("success"))
    assert (usage.input_tokens, usage.output_tokens, usage.turns) == (300, 60, 3)
    assert usage.cost_usd == pytest.approx(0.0024)
    assert usage.final_message == "Wrote hello.py and pkg/util.py."
    assert usage.error is None


@pytest.mark.parametrize(("name", "kind", "text"), [
    ("auth", "auth:", "Invalid API key"),
    ("nokey", "auth:", "Not logged in"),
    ("ratelimit", "rate_limit:", "HTTP 429"),
    ("model", "model-not-found:", "HTTP 404"),
])
def test_parse_recorded_api_errors(name, kind, text):
    usage = ClaudeCodeAdapter().parse_output(*recorded(name))
    assert usage.error is not None and usage.error.startswith(kind) and text in usage.error
    assert (usage.input_tokens, usage.output_tokens, usage.cost_usd) == (0, 0, 0.0)


def test_parse_recorded_crash_as_root_without_is_sandbox():
    stdout, stderr = recorded("root")
    assert stdout == ""
    usage = ClaudeCodeAdapter().parse_output(stdout, stderr)
    assert usage.error is not None and usage.error.startswith("config:")
    assert usage.input_tokens is None and usage.final_message == ""


@pytest.mark.parametrize("garbage", ["", "\n\n", "not json at all\n{broken", '{"type": "result"',
                                     '[1, 2]\n"result"\n{"type": "assistant"}\n', "\x00\xff" * 50])
def test_parse_garbage_never_raises(garbage):
    usage = ClaudeCodeAdapter().parse_output(garbage, "Segmentation fault")
    assert usage.error is not None and "no result line" in usage.error
    assert usage.error.endswith(("last line: Segmentation fault", "last event: assistant"))
    assert usage.input_tokens is None and usage.output_tokens is None


def _success_result() -> dict[str, Any]:
    stdout, _ = recorded("success")
    return json.loads(stdout.strip().splitlines()[-1])


def test_parse_sums_every_model_and_counts_cached_input():
    result = _success_result()
    main = next(iter(result["modelUsage"].values()))
    result["modelUsage"]["claude-haiku-4-5"] = {**main, "inputTokens": 7, "outputTokens": 3,
                                                "cacheReadInputTokens": 11,
                                                "cacheCreationInputTokens": 13}
    usage = ClaudeCodeAdapter().parse_output(json.dumps(result) + "\n", "")
    assert (usage.input_tokens, usage.output_tokens) == (300 + 7 + 11 + 13, 60 + 3)


def test_parse_falls_back_to_main_loop_usage_and_takes_the_last_result():
    first = {**_success_result(), "result": "first"}
    last = {**_success_result(), "result": "last", "modelUsage": {}, "num_turns": 9}
    last["usage"] = {**last["usage"], "input_tokens": 5, "cache_read_input_tokens": 2}
    stdout = "noise\n" + json.dumps(first) + "\n" + json.dumps(last) + "\n"
    usage = ClaudeCodeAdapter().parse_output(stdout, "")
    assert (usage.input_tokens, usage.output_tokens, usage.turns) == (7, 60, 9)
    assert usage.final_message == "last"


def test_parse_error_result_subtype():
    result = {**_success_result(), "subtype": "error_max_turns", "is_error": True,
              "errors": ["Reached maximum number of turns (1)"]}
    result.pop("result")
    usage = ClaudeCodeAdapter().parse_output(json.dumps(result), "")
    assert usage.error is not None and "error_max_turns" in usage.error and "maximum" in usage.error
    assert usage.input_tokens == 300


# --- the Anthropic protocol of the scripted server -----------------------------------------------


def test_recorded_request_shows_the_working_directory_and_tool_results():
    body = json.loads((DATA / "request.json").read_text(encoding="utf-8"))
    assert working_directory(body) == RECORDED_WORKSPACE
    assert tool_results_seen(body) == 2
    assert offers_write_tool(body)
    assert not offers_write_tool({**body, "tools": []})


def _post(url: str, payload: dict[str, Any]) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read()


SCRIPT = Script(files=(ScriptedFile(path="a.py", content="A = 1\n"),), final_message="Bye.",
                input_tokens=11, output_tokens=4)
AGENT_BODY = {"model": "m", "max_tokens": 100, "tools": [{"name": "Write"}, {"name": "Bash"}],
              "system": [{"type": "text", "text": " - Primary working directory: /w/s\n"}],
              "messages": [{"role": "user", "content": "go"}]}


def test_non_streaming_tool_call_then_final_answer():
    with RunningServer(SCRIPT) as server:
        status, kind, raw = _post(server.url + "/v1/messages", AGENT_BODY)
        first = json.loads(raw)
        done = {**AGENT_BODY, "messages": [
            *AGENT_BODY["messages"], {"role": "assistant", "content": first["content"]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}]}]}
        second = json.loads(_post(server.url + "/v1/messages", done)[2])
        ledger = server.ledger
    assert status == 200 and kind == "application/json"
    call = first["content"][0]
    assert (call["type"], call["name"], first["stop_reason"]) == ("tool_use", "Write", "tool_use")
    assert call["input"] == {"file_path": "/w/s/a.py", "content": "A = 1\n"}
    assert second["content"] == [{"type": "text", "text": "Bye."}] and second["stop_reason"] == "end_turn"
    assert first["usage"]["input_tokens"] == 11 and first["usage"]["output_tokens"] == 4
    assert (ledger.input_tokens, ledger.output_tokens, ledger.calls) == (22, 8, 2)


def _sse_events(raw: bytes) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for chunk in raw.decode().strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in chunk.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_streaming_events_rebuild_the_tool_call_and_report_usage_once():
    with RunningServer(SCRIPT) as server:
        status, kind, raw = _post(server.url + "/v1/messages", {**AGENT_BODY, "stream": True})
    assert status == 200 and kind.startswith("text/event-stream")
    events = _sse_events(raw)
    names = [name for name, _ in events]
    assert names == ["message_start", "content_block_start", "content_block_delta",
                     "content_block_stop", "message_delta", "message_stop"]
    assert all(data["type"] == name for name, data in events)
    start, delta, end = events[0][1], events[2][1], events[4][1]
    assert start["message"]["usage"]["input_tokens"] == 11
    assert start["message"]["usage"]["output_tokens"] == 0
    assert end["usage"]["output_tokens"] == 4 and end["delta"]["stop_reason"] == "tool_use"
    assert json.loads(delta["delta"]["partial_json"])["file_path"] == "/w/s/a.py"


def test_side_requests_and_count_tokens():
    side = {"model": "haiku", "max_tokens": 50, "messages": [{"role": "user", "content": "title?"}],
            "system": "Reply with JSON {\"isNewTopic\": bool, \"title\": string}"}
    with RunningServer(SCRIPT) as server:
        _, _, raw = _post(server.url + "/v1/messages", side)
        status, _, counted = _post(server.url + "/v1/messages/count_tokens", AGENT_BODY)
        bad_status, _, bad = _post(server.url + "/v1/messages", {"model": "m"})
        calls = server.ledger.calls
    answer = json.loads(raw)
    assert json.loads(answer["content"][0]["text"])["isNewTopic"] is False
    assert status == 200 and json.loads(counted)["input_tokens"] > 0
    assert bad_status == 400 and json.loads(bad)["error"]["type"] == "invalid_request_error"
    assert calls == 1


# --- the real CLI ---------------------------------------------------------------------------------

THREE_FILES = Script(
    files=(ScriptedFile(path="calc/__init__.py", content='"""Calc."""\n'),
           ScriptedFile(path="calc/ops.py", content="def add(a, b):\n    return a + b\n"),
           ScriptedFile(path="tests/test_ops.py",
                        content="from calc.ops import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n")),
    final_message="Created the calc package and its test.", input_tokens=1234, output_tokens=56)


@pytest.mark.realcli
def test_real_claude_writes_the_scripted_files(real_cli, clean_env, tmp_path):
    claude = real_cli("claude")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    with RunningServer(THREE_FILES) as server:
        env = (("ANTHROPIC_BASE_URL", server.url), ("ANTHROPIC_API_KEY", "sk-ant-scripted"))
        adapter = ClaudeCodeAdapter(AgentConfig(name="claude-code", executable=claude, env=env,
                                                model="scripted-model"))
        result = adapter.run_challenge("Create the calc package with a test.", workspace,
                                       time_limit_minutes=3)
        ledger = server.ledger
    assert_files_written(workspace, THREE_FILES.files)
    assert result.success and not result.timed_out and result.error is None, result
    assert result.final_message == THREE_FILES.final_message
    assert ledger.calls == 4 and result.prompts_used == 4
    assert (result.input_tokens, result.output_tokens) == (ledger.input_tokens, ledger.output_tokens)
    assert ledger.input_tokens == 4 * 1234 and ledger.output_tokens == 4 * 56
    assert result.cost_usd is not None and result.cost_usd > 0
    assert {(r["method"], r["path"]) for r in ledger.requests} == {("POST", "/v1/messages")}
    assert {r["body"]["model"] for r in ledger.requests} == {"scripted-model"}


@pytest.mark.realcli
def test_real_claude_is_killed_at_its_time_limit(real_cli, clean_env, tmp_path):
    claude = real_cli("claude")
    with silent_endpoint() as silent_url:  # accepts connections, never answers
        url = silent_url
        env = (("ANTHROPIC_BASE_URL", url), ("ANTHROPIC_API_KEY", "sk-ant-scripted"))
        adapter = ClaudeCodeAdapter(AgentConfig(name="claude-code", executable=claude, env=env))
        result = adapter.run_challenge("Write hello.py.", tmp_path, time_limit_minutes=0.05)
    assert result.timed_out and not result.success
    assert result.time_taken_seconds < 30
    assert result.error is not None and "timed out" in result.error
