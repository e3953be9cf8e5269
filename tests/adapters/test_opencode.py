"""The `opencode` adapter (OpenCode, npm `opencode-ai`) and the scripted server's Chat Completions API.

Unit tests parse outputs recorded from the real CLI (tests/adapters/data/opencode/, recorded with the
command line `build_argv` makes against the scripted server: `success` writes three files,
`conn_error` has nothing listening, `not_found` a base URL the server does not serve, `crash` an
unknown option); the `realcli` tests drive the real CLI (ci/install/opencode.sh) end to end.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentbench.adapters.cli_base import json_events
from agentbench.adapters.opencode import (
    NPMRC,
    OpenCodeAdapter,
    model_ref,
    problem_line,
    render_config,
)
from agentbench.adapters.registry import ADAPTERS
from agentbench.errors import ConfigError
from agentbench.models import AgentConfig
from agentbench.modelserver import RunningServer, ScriptedFile
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

DATA = Path(__file__).parent / "data" / "opencode"
URL = "http://127.0.0.1:8765/v1"


def recorded(name: str) -> tuple[str, str]:
    """(stdout, stderr) of a recorded run."""
    return recorded_run(DATA, name)


trial = trial_setup


@pytest.fixture
def no_user_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """No OpenAI variables from the developer's environment leak into a test."""
    for name in OpenCodeAdapter.passthrough_env:
        monkeypatch.delenv(name, raising=False)


# --- command line and per-trial configuration ---------------------------------------------------


def test_registered_under_its_name() -> None:
    assert ADAPTERS["opencode"] is OpenCodeAdapter
    assert OpenCodeAdapter().name == "opencode" and OpenCodeAdapter.executable == "opencode"


def test_build_argv_runs_headless_json_and_keeps_the_prompt_off_the_command_line(
        tmp_path: Path, no_user_endpoint: None) -> None:
    setup = trial(tmp_path)
    prompt = "--help; rm -rf / $(echo hi)\nsecond line"
    argv = OpenCodeAdapter().build_argv(prompt, setup)
    assert argv == ["run", "--format", "json", "--title", "agentbench trial",
                    "--print-logs", "--log-level", "ERROR"]
    assert OpenCodeAdapter().stdin_file(setup) == setup.prompt_file


def test_build_argv_model_goes_under_the_agentbench_provider_with_a_base_url(
        tmp_path: Path, no_user_endpoint: None) -> None:
    plain = OpenCodeAdapter().build_argv("p", trial(tmp_path, "anthropic/claude-sonnet-4-5"))
    assert plain[-2:] == ["--model", "anthropic/claude-sonnet-4-5"]
    custom = OpenCodeAdapter(AgentConfig(name="opencode", env=(("OPENAI_BASE_URL", URL),)))
    assert custom.build_argv("p", trial(tmp_path, "scripted"))[-2:] == ["--model", "agentbench/scripted"]
    assert model_ref("agentbench/scripted", URL) == "agentbench/scripted"


def test_with_an_endpoint_and_no_model_openai_model_names_it(tmp_path: Path,
                                                              no_user_endpoint: None) -> None:
    env = (("OPENAI_BASE_URL", URL), ("OPENAI_MODEL", "scripted"))
    adapter = OpenCodeAdapter(AgentConfig(name="opencode", env=env))
    assert adapter.build_argv("p", trial(tmp_path))[-2:] == ["--model", "agentbench/scripted"]
    assert OpenCodeAdapter(AgentConfig(name="opencode", env=env[1:])).model(trial(tmp_path)) is None
    no_model = OpenCodeAdapter(AgentConfig(name="opencode", env=env[:1]))
    with pytest.raises(ConfigError):
        no_model.prepare(trial(tmp_path))


def test_render_config_declares_an_openai_compatible_provider() -> None:
    config = render_config(URL, "scripted")
    provider = config["provider"]["agentbench"]
    assert provider["npm"] == "@ai-sdk/openai-compatible"
    assert provider["options"] == {"baseURL": URL, "apiKey": "{env:OPENAI_API_KEY}"}
    assert provider["models"] == {"scripted": {"name": "scripted"}}
    assert config["model"] == "agentbench/scripted"
    assert config["autoupdate"] is False and config["share"] == "disabled"
    assert config["permission"] == {"edit": "allow", "bash": "allow", "webfetch": "allow"}
    assert "provider" not in render_config(None, "openai/gpt-4o")
    with pytest.raises(ConfigError):
        render_config(URL, None)


def test_prepare_writes_an_isolated_config_folder(tmp_path: Path, no_user_endpoint: None) -> None:
    setup = trial(tmp_path, "scripted")
    adapter = OpenCodeAdapter(AgentConfig(name="opencode", env=(("OPENAI_BASE_URL", URL),)))
    env = adapter.environment(setup)
    folder = setup.home / ".config" / "opencode"
    config = json.loads((folder / "opencode.json").read_text())
    assert config["provider"]["agentbench"]["options"]["baseURL"] == URL
    assert (folder / ".npmrc").read_text() == NPMRC and "offline=true" in NPMRC
    assert json.loads((folder / "package.json").read_text()) == {}
    assert env["XDG_CONFIG_HOME"] == str(setup.home / ".config") and env["HOME"] == str(setup.home)
    assert env["OPENCODE_DISABLE_AUTOUPDATE"] == env["OPENCODE_DISABLE_MODELS_FETCH"] == "1"
    assert env["OPENAI_BASE_URL"] == URL
    assert not list(setup.workspace.iterdir())


# --- parsing recorded output ----------------------------------------------------------------------


def test_parse_success_sums_step_finish_events() -> None:
    usage = OpenCodeAdapter().parse_output(*recorded("success"))
    assert (usage.input_tokens, usage.output_tokens) == (4 * 321, 4 * 54)
    assert usage.turns == 4 and usage.cost_usd == 0.0 and usage.error is None
    assert usage.final_message == "Done: all three files written."


@pytest.mark.parametrize(("name", "start"), [
    ("conn_error", "connection: Cannot connect to API"),
    ("not_found", "model_not_found: no scripted route"),
    ("crash", "opencode rejected its command line"),
])
def test_parse_failures(name: str, start: str) -> None:
    usage = OpenCodeAdapter().parse_output(*recorded(name))
    assert usage.error is not None and usage.error.startswith(start), usage.error
    assert usage.input_tokens is None and usage.turns is None


def test_cache_and_reasoning_tokens_count_as_input_and_output() -> None:
    step = {"type": "step_finish", "part": {"tokens": {"input": 10, "output": 4, "reasoning": 3,
                                                       "cache": {"read": 100, "write": 7}},
                                            "cost": 0.25}}
    text = {"type": "text", "part": {"text": "all done"}}
    usage = OpenCodeAdapter().parse_output("\n".join(json.dumps(e) for e in (step, text, step)), "")
    assert (usage.input_tokens, usage.output_tokens, usage.cost_usd) == (234, 14, 0.5)
    assert usage.final_message == "all done" and usage.turns == 2


@pytest.mark.parametrize("stdout", [
    "", "not json at all\n\x00\xff", "{broken", "[1, 2, 3]\n", '{"type": 5}\n',
    '{"type": "step_finish", "part": "nope"}\n', '{"type": "step_finish", "part": {"tokens": []}}\n',
    '{"type": "error", "error": "plain"}\n',
])
def test_parse_garbage_never_raises(stdout: str) -> None:
    usage = OpenCodeAdapter().parse_output(stdout, "Segmentation fault (core dumped)\n")
    assert usage.error is not None or usage.turns == 1


def test_events_skip_non_json_lines_and_problem_line_prefers_errors() -> None:
    assert [e["type"] for e in json_events('noise\n{"type": "text"}\n{"x": 1}\n')] == ["text"]
    assert problem_line("usage\nTypeError: boom\nlast\n") == "TypeError: boom"
    assert problem_line("just\nlines\n") == "lines" and problem_line("") == ""


@pytest.mark.parametrize(("name", "success"), [("success", True), ("conn_error", False),
                                               ("not_found", False), ("crash", False)])
def test_run_challenge_on_replayed_runs(tmp_path: Path, name: str, success: bool,
                                        no_user_endpoint: None) -> None:
    config = AgentConfig(name="opencode", executable="/bin/true", model="scripted",
                         env=(("OPENAI_BASE_URL", URL),))
    replay = replaying(recorded(name), recorded_returncode(DATA, name))
    result = OpenCodeAdapter(config, run=replay).run_challenge("the prompt", tmp_path, 1)
    assert result.success is success and result.timed_out is False
    assert (result.error is None) is success
    if success:
        assert result.prompts_used == 4 and result.input_tokens == 1284


# --- the scripted server's Chat Completions API (tool-calling clients) -----------------------------

WRITE_TOOL = {"type": "function", "function": {"name": "write", "parameters": {
    "type": "object", "properties": {"content": {"type": "string"}, "filePath": {"type": "string"}}}}}
OTHER_TOOL = {"type": "function", "function": {"name": "bash", "parameters": {"properties": {}}}}
SYSTEM = {"role": "system", "content": "You are opencode.\n<env>\n  Working directory: /w/proj\n</env>"}


def _post(url: str, body: Any) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _chunks(raw: bytes) -> list[Any]:
    lines = [line[6:] for line in raw.decode().splitlines() if line.startswith("data: ")]
    assert lines[-1] == "[DONE]"
    return [json.loads(line) for line in lines[:-1]]


def test_stream_calls_the_write_tool_with_an_absolute_path(server: RunningServer) -> None:
    body = {"model": "scripted", "stream": True, "stream_options": {"include_usage": True},
            "tools": [OTHER_TOOL, WRITE_TOOL], "messages": [SYSTEM, {"role": "user", "content": "go"}]}
    status, raw = _post(f"{server.url}/v1/chat/completions", body)
    chunks = _chunks(raw)
    calls = [c["choices"][0]["delta"]["tool_calls"][0] for c in chunks
             if c["choices"] and "tool_calls" in c["choices"][0]["delta"]]
    assert status == 200 and calls[0]["function"]["name"] == "write"
    arguments = json.loads("".join(c["function"]["arguments"] for c in calls))
    assert arguments == {"filePath": "/w/proj/a.py", "content": "A = 1\n"}
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls"
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["prompt_tokens"] == 11
    assert server.ledger.calls == 1


def test_after_the_tool_result_the_answer_is_the_final_text(server: RunningServer) -> None:
    messages = [SYSTEM, {"role": "user", "content": "go"},
                {"role": "assistant", "content": None, "tool_calls": []},
                {"role": "tool", "tool_call_id": "call_scripted_0", "content": "Wrote file."}]
    status, raw = _post(f"{server.url}/chat/completions",
                        {"model": "m", "stream": True, "tools": [WRITE_TOOL], "messages": messages})
    chunks = _chunks(raw)
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)
    assert status == 200 and text == "Finished."
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
    assert chunks[-1]["usage"] == {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14}
    assert (server.ledger.input_tokens, server.ledger.output_tokens) == (11, 3)


def test_title_requests_models_and_bad_requests(server: RunningServer) -> None:
    title = {"model": "m", "messages": [{"role": "system", "content": "You are a title generator."},
                                        {"role": "user", "content": "go"}]}
    status, raw = _post(f"{server.url}/v1/chat/completions", title)
    answer = json.loads(raw)
    assert status == 200 and answer["choices"][0]["message"]["content"] == "Scripted task"
    assert answer["usage"]["completion_tokens"] == 3
    with urllib.request.urlopen(f"{server.url}/v1/models", timeout=10) as response:
        assert "scripted" in [m["id"] for m in json.loads(response.read())["data"]]
    with urllib.request.urlopen(f"{server.url}/v1/models/any-model", timeout=10) as response:
        assert json.loads(response.read())["id"] == "any-model"
    status, raw = _post(f"{server.url}/v1/chat/completions", {"model": "m"})
    assert status == 400 and json.loads(raw)["error"]["type"] == "invalid_request_error"
    assert server.ledger.calls == 1


def test_write_tool_choice_and_arguments_follow_the_schema() -> None:
    custom = {"type": "function", "function": {"name": "save_write", "parameters": {
        "properties": {"path": {}, "text": {}}}}}
    chosen = wire.write_tool({"tools": [OTHER_TOOL, custom]})
    assert chosen is not None and chosen["name"] == "save_write"
    assert wire.write_tool({"tools": [OTHER_TOOL]}) is None
    file = ScriptedFile(path="pkg/b.py", content="B = 2\n")
    assert wire.write_arguments(chosen, file, None) == {"path": "pkg/b.py", "text": "B = 2\n"}
    assert wire.workspace_hint({"messages": [SYSTEM]}) == "/w/proj"


# --- the real CLI ---------------------------------------------------------------------------------



@pytest.mark.realcli
def test_real_cli_writes_the_scripted_files(real_cli: Callable[[str], str], tmp_path: Path,
                                            no_user_endpoint: None) -> None:
    executable = real_cli("opencode")
    script = CALC_SCRIPT
    workspace = tmp_path / "ws"
    workspace.mkdir()
    with RunningServer(script) as server:
        env = (("OPENAI_BASE_URL", server.url + "/v1"), ("OPENAI_API_KEY", "sk-scripted"))
        config = AgentConfig(name="opencode", executable=executable, model="scripted", env=env)
        result = OpenCodeAdapter(config).run_challenge("Write the calculator package.", workspace, 3)
        ledger = server.ledger
    assert_files_written(workspace, CALC_FILES)
    assert sorted(p.name for p in workspace.iterdir()) == ["calc", "tests"]
    assert result.success, result.error
    assert result.final_message == "All three files written."
    # --title: no title-generation call, so every model call is a step of the session
    assert ledger.calls == 4 and result.prompts_used == 4
    assert (result.input_tokens, result.output_tokens) == (ledger.input_tokens, ledger.output_tokens)
    assert {r["path"] for r in ledger.requests} == {"/v1/chat/completions"}


@pytest.mark.realcli
def test_real_cli_is_killed_at_its_time_limit(real_cli: Callable[[str], str], tmp_path: Path,
                                              no_user_endpoint: None) -> None:
    executable = real_cli("opencode")
    with silent_endpoint() as silent_url:  # accepts connections, never answers
        url = f"{silent_url}/v1"
        config = AgentConfig(name="opencode", executable=executable, model="scripted",
                             env=(("OPENAI_BASE_URL", url), ("OPENAI_API_KEY", "sk-scripted")))
        result = OpenCodeAdapter(config).run_challenge("Write a file.", tmp_path, 0.05)  # type: ignore[arg-type]
    assert result.timed_out is True and result.success is False
    assert result.error is not None
    assert 3 <= result.time_taken_seconds < 30
