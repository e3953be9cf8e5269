"""The `qwen` adapter (Qwen Code, npm `@qwen-code/qwen-code`) against the scripted Chat Completions API.

Unit tests parse outputs recorded from the real CLI (tests/adapters/data/qwen/, recorded with the
command line `build_argv` makes against the scripted server: `success` writes three files,
`conn_error` has nothing listening, `not_found` a base URL the server does not serve, `crash` an
unknown option); the `realcli` tests drive the real CLI (ci/install/qwen.sh) end to end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentbench.adapters.qwen_code import QwenCodeAdapter, render_settings, result_element
from agentbench.adapters.registry import ADAPTERS
from agentbench.models import AgentConfig
from agentbench.modelserver import RunningServer, Script, ScriptedFile
from agentbench.modelserver import openai_chat as wire
from tests.adapters.helpers import (
    CALC_FILES,
    CALC_SCRIPT,
    assert_files_written,
    recorded_returncode,
    recorded_run,
    replaying,
    silent_endpoint,
    trial_setup,
)

DATA = Path(__file__).parent / "data" / "qwen"


def recorded(name: str) -> tuple[str, str]:
    """(stdout, stderr) of a recorded run."""
    return recorded_run(DATA, name)


trial = trial_setup


@pytest.fixture
def no_user_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """No OpenAI variables from the developer's environment leak into a test."""
    for name in QwenCodeAdapter.passthrough_env:
        monkeypatch.delenv(name, raising=False)


# --- command line and per-trial configuration ---------------------------------------------------


def test_registered_under_its_name() -> None:
    assert ADAPTERS["qwen"] is QwenCodeAdapter
    assert QwenCodeAdapter().name == "qwen" and QwenCodeAdapter.package.startswith("@qwen-code/qwen-code (npm install -g")


def test_build_argv_is_headless_json_yolo_and_the_prompt_comes_on_stdin(tmp_path: Path) -> None:
    setup = trial(tmp_path)
    argv = QwenCodeAdapter().build_argv("--yolo; rm -rf /\nsecond line", setup)
    assert argv == ["--output-format", "json", "--approval-mode", "yolo"]
    assert QwenCodeAdapter().stdin_file(setup) == setup.prompt_file
    with_model = QwenCodeAdapter().build_argv("p", trial(tmp_path, "qwen3-coder-plus"))
    assert with_model[-2:] == ["--model", "qwen3-coder-plus"]


def test_prepare_writes_settings_into_the_trial_home(tmp_path: Path, no_user_endpoint: None) -> None:
    setup = trial(tmp_path)
    config = AgentConfig(name="qwen", env=(("OPENAI_BASE_URL", "http://127.0.0.1:1/v1"),
                                           ("OPENAI_API_KEY", "sk-test")))
    env = QwenCodeAdapter(config).environment(setup)
    settings = json.loads((setup.home / ".qwen" / "settings.json").read_text())
    context_file = settings["context"]["fileName"]
    assert settings == json.loads(render_settings(context_file[0]))
    assert len(context_file) == 1 and context_file[0].startswith("AGENTBENCH-NO-CONTEXT-")
    assert settings["model"] == {"generationConfig": {"maxRetries": 0}}
    assert settings["security"] == {"auth": {"selectedType": "openai"},
                                    "folderTrust": {"enabled": False}}
    assert settings["general"]["enableAutoUpdate"] is False
    assert settings["privacy"]["usageStatisticsEnabled"] is False
    assert settings["telemetry"]["enabled"] is False and settings["tools"]["approvalMode"] == "yolo"
    assert env["HOME"] == str(setup.home) and env["QWEN_CODE_SUPPRESS_YOLO_WARNING"] == "1"
    assert env["QWEN_DEBUG_LOG_FILE"] == "1"  # its retries show only there (the harness follows it)
    assert env["OPENAI_BASE_URL"] == "http://127.0.0.1:1/v1" and env["OPENAI_API_KEY"] == "sk-test"


# --- parsing recorded output ----------------------------------------------------------------------


def test_parse_success_reads_the_result_element() -> None:
    usage = QwenCodeAdapter().parse_output(*recorded("success"))
    assert (usage.input_tokens, usage.output_tokens) == (4 * 321, 4 * 54)
    assert usage.turns == 4 and usage.cost_usd is None and usage.error is None
    assert usage.final_message == "Done: all three files written."


@pytest.mark.parametrize(("name", "start"), [
    ("conn_error", "connection: [API Error: Connection error."),
    ("not_found", "model_not_found: [API Error: 404"),
    ("crash", "no Qwen Code JSON result in the output (stderr: Unknown arguments"),
])
def test_parse_failures(name: str, start: str) -> None:
    usage = QwenCodeAdapter().parse_output(*recorded(name))
    assert usage.error is not None and usage.error.startswith(start), usage.error
    assert usage.final_message == ""


def test_stream_json_lines_are_read_too() -> None:
    stdout = "\n".join(json.dumps(e) for e in (
        {"type": "system", "subtype": "init"},
        {"type": "result", "subtype": "success", "is_error": False, "num_turns": 2,
         "result": "ok", "usage": {"input_tokens": 7, "output_tokens": 5}}))
    usage = QwenCodeAdapter().parse_output("warning: noise\n" + stdout, "")
    assert (usage.input_tokens, usage.output_tokens, usage.turns, usage.final_message) == (7, 5, 2, "ok")


@pytest.mark.parametrize("stdout", [
    "", "not json\n\x00\xff", "[{broken", '[1, "two"]', '{"type": "result"}', '[{"type": "result", '
    '"usage": "none", "num_turns": "3", "is_error": true, "error": 5}]',
])
def test_parse_garbage_never_raises(stdout: str) -> None:
    usage = QwenCodeAdapter().parse_output(stdout, "FATAL ERROR: Reached heap limit\n")
    assert usage.input_tokens is None and usage.turns is None
    if result_element(stdout) is None:
        assert usage.error is not None and "heap limit" in usage.error


@pytest.mark.parametrize(("name", "success"), [("success", True), ("conn_error", False),
                                               ("not_found", False), ("crash", False)])
def test_run_challenge_on_replayed_runs(tmp_path: Path, name: str, success: bool) -> None:
    config = AgentConfig(name="qwen", executable="/bin/true")
    replay = replaying(recorded(name), recorded_returncode(DATA, name))
    result = QwenCodeAdapter(config, run=replay).run_challenge("the prompt", tmp_path, 1)
    assert result.success is success and result.timed_out is False
    assert (result.error is None) is success
    if success:
        assert result.prompts_used == 4 and result.output_tokens == 216


# --- the scripted server, as Qwen Code calls it -------------------------------------------------

QWEN_PARAMETERS: dict[str, dict[str, Any]] = {"read_file": {"absolute_path": {}},
                                               "write_file": {"file_path": {}, "content": {}}}
QWEN_TOOLS = [{"type": "function", "function": {"name": name, "parameters": {"properties": props}}}
              for name, props in QWEN_PARAMETERS.items()]
QWEN_USER = {"role": "user", "content": [
    {"type": "text", "text": "My operating system is: linux\n"
                             "I'm currently working in the directory: /home/me/proj\n"},
    {"type": "text", "text": "Write a.py"}]}


def test_non_streamed_write_file_call_then_final_text() -> None:
    script = Script(files=(ScriptedFile(path="a.py", content="A = 1\n"),), final_message="Finished.",
                    input_tokens=11, output_tokens=3)
    body: dict[str, Any] = {"model": "m", "tools": QWEN_TOOLS, "messages": [QWEN_USER]}
    first = wire.completion(script, body)
    call = first["choices"][0]["message"]["tool_calls"][0]
    assert first["choices"][0]["finish_reason"] == "tool_calls"
    assert call["function"]["name"] == "write_file"
    assert json.loads(call["function"]["arguments"]) == {"file_path": "/home/me/proj/a.py",
                                                         "content": "A = 1\n"}
    body["messages"] = [QWEN_USER, first["choices"][0]["message"],
                        {"role": "tool", "tool_call_id": call["id"],
                         "content": [{"type": "text", "text": "Successfully wrote"}]}]
    final = wire.completion(script, body)
    assert final["choices"][0]["message"] == {"role": "assistant", "content": "Finished."}
    assert final["usage"] == {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14}


def test_json_schema_side_requests_get_schema_shaped_json() -> None:
    script = Script(files=(ScriptedFile(path="a.py", content=""),))
    schema = {"type": "object", "properties": {"next_speaker": {"type": "string"},
                                               "is_loop": {"type": "boolean"},
                                               "score": {"type": "number"}}}
    body = {"model": "m", "messages": [QWEN_USER],
            "response_format": {"type": "json_schema", "json_schema": {"schema": schema}}}
    answer = json.loads(wire.completion(script, body)["choices"][0]["message"]["content"])
    assert answer == {"next_speaker": "user", "is_loop": False, "score": 0}


# --- the real CLI ---------------------------------------------------------------------------------



@pytest.mark.realcli
def test_real_cli_writes_the_scripted_files(real_cli: Callable[[str], str], tmp_path: Path,
                                            no_user_endpoint: None) -> None:
    executable = real_cli("qwen")
    script = CALC_SCRIPT
    workspace = tmp_path / "ws"
    workspace.mkdir()
    with RunningServer(script) as server:
        env = (("OPENAI_BASE_URL", server.url + "/v1"), ("OPENAI_API_KEY", "sk-scripted"))
        config = AgentConfig(name="qwen", executable=executable, model="scripted", env=env)
        result = QwenCodeAdapter(config).run_challenge("Write the calculator package.", workspace, 3)
        ledger = server.ledger
    assert_files_written(workspace, CALC_FILES)
    assert sorted(p.name for p in workspace.iterdir()) == ["calc", "tests"]
    assert result.success, result.error
    assert result.final_message == "All three files written."
    assert ledger.calls == 4 and result.prompts_used == 3 + 1
    assert (result.input_tokens, result.output_tokens) == (ledger.input_tokens, ledger.output_tokens)
    assert {r["body"]["model"] for r in ledger.requests if r["body"]} == {"scripted"}


@pytest.mark.realcli
def test_real_cli_is_killed_at_its_time_limit(real_cli: Callable[[str], str], tmp_path: Path,
                                              no_user_endpoint: None) -> None:
    executable = real_cli("qwen")
    with silent_endpoint() as silent_url:  # accepts connections, never answers
        url = f"{silent_url}/v1"
        config = AgentConfig(name="qwen", executable=executable, model="scripted",
                             env=(("OPENAI_BASE_URL", url), ("OPENAI_API_KEY", "sk-scripted")))
        result = QwenCodeAdapter(config).run_challenge("Write a file.", tmp_path, 0.05)  # type: ignore[arg-type]
    assert result.timed_out is True and result.success is False
    assert result.error is not None
    assert 3 <= result.time_taken_seconds < 30
