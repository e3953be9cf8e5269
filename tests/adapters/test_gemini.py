"""The `gemini` adapter (Google Gemini CLI) and the scripted server's Gemini API.

Unit tests parse outputs recorded from the real CLI (tests/adapters/data/gemini/, recorded against
the scripted server with the command line `build_argv` makes); the `realcli` tests drive the real
CLI (installed by ci/install/gemini.sh) end to end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentbench import process
from agentbench.adapters.gemini import GeminiAdapter, render_settings, result_document, token_totals
from agentbench.adapters.registry import ADAPTERS
from agentbench.models import AgentConfig
from agentbench.modelserver import RunningServer, Script
from agentbench.modelserver import gemini as wire
from tests.adapters.helpers import (
    CALC_FILES,
    CALC_SCRIPT,
    assert_files_written,
    healthy_endpoint,
    recorded_run,
    silent_endpoint,
    trial_setup,
)

DATA = Path(__file__).parent / "data" / "gemini"


def recorded(name: str) -> tuple[str, str]:
    """(stdout, stderr) of a recorded run."""
    return recorded_run(DATA, name)


trial = trial_setup


# --- command line and per-trial configuration ---------------------------------------------------


def test_registered_under_its_name() -> None:
    assert ADAPTERS["gemini"] is GeminiAdapter
    assert GeminiAdapter().name == "gemini"
    assert GeminiAdapter.package.startswith("@google/gemini-cli (npm install -g @google/gemini-cli")


def test_build_argv_is_headless_json_yolo_and_trusted(tmp_path: Path) -> None:
    argv = GeminiAdapter().build_argv("Write the files.", trial(tmp_path))
    assert argv == ["--prompt=Write the files.", "--output-format", "json",
                    "--approval-mode", "yolo", "--skip-trust"]


def test_build_argv_passes_the_model(tmp_path: Path) -> None:
    argv = GeminiAdapter().build_argv("x", trial(tmp_path, model="gemini-2.5-pro"))
    assert argv[-2:] == ["--model", "gemini-2.5-pro"]


def test_prompt_is_one_element_even_when_it_looks_like_an_option(tmp_path: Path) -> None:
    prompt = "--yolo; rm -rf / $(echo hi)\nsecond line = 2"
    argv = GeminiAdapter().build_argv(prompt, trial(tmp_path))
    assert argv[0] == f"--prompt={prompt}"
    assert sum(prompt in part for part in argv) == 1


def test_prepare_writes_settings_into_the_trial_home(tmp_path: Path) -> None:
    setup = trial(tmp_path)
    assert GeminiAdapter().prepare(setup) == {}
    settings = json.loads((setup.home / ".gemini" / "settings.json").read_text())
    assert settings["security"]["auth"]["selectedType"] == "gemini-api-key"
    assert settings["general"] == {"enableAutoUpdate": False, "enableAutoUpdateNotification": False,
                                   "maxAttempts": 2, "retryFetchErrors": False}
    assert settings["context"] == {"memoryBoundaryMarkers": []}  # no GEMINI.md from above the workspace
    assert settings["privacy"]["usageStatisticsEnabled"] is False
    assert settings["telemetry"]["enabled"] is False


def test_vertex_auth_when_the_config_asks_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_GENAI_USE_VERTEXAI", raising=False)
    assert GeminiAdapter().auth_type() == "gemini-api-key"
    config = AgentConfig(name="gemini", env=(("GOOGLE_GENAI_USE_VERTEXAI", "true"),))
    assert GeminiAdapter(config).auth_type() == "vertex-ai"
    assert json.loads(render_settings("vertex-ai"))["security"]["auth"]["selectedType"] == "vertex-ai"


def test_environment_has_the_key_and_base_url_from_the_config(tmp_path: Path) -> None:
    config = AgentConfig(name="gemini", env=(("GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:1"),
                                             ("GEMINI_API_KEY", "k")))
    env = GeminiAdapter(config).environment(trial(tmp_path))
    assert env["GOOGLE_GEMINI_BASE_URL"] == "http://127.0.0.1:1"
    assert env["GEMINI_API_KEY"] == "k"
    assert env["HOME"] == str(tmp_path / "home")


# --- parsing recorded outputs ---------------------------------------------------------------------


def test_parse_success_with_the_model_router() -> None:
    """Default model ("auto"): one router call on flash-lite plus the main model's calls."""
    stdout, stderr = recorded("success_auto")
    assert len(json.loads(stdout)["stats"]["models"]) == 2
    usage = GeminiAdapter().parse_output(stdout, stderr)
    assert usage.error is None
    assert (usage.input_tokens, usage.output_tokens, usage.turns) == (4 * 123, 4 * 45, 4)
    assert usage.final_message == "Done: wrote the scripted files."
    assert usage.cost_usd is None


def test_parse_success_with_a_pinned_model() -> None:
    usage = GeminiAdapter().parse_output(*recorded("success_model"))
    assert usage.error is None
    assert (usage.input_tokens, usage.output_tokens, usage.turns) == (492, 180, 4)
    assert usage.final_message == "Done: wrote the scripted files."


def test_parse_missing_key_error_from_stderr() -> None:
    stdout, stderr = recorded("error_no_key")
    assert stdout == ""
    usage = GeminiAdapter().parse_output(stdout, stderr)
    assert usage.error is not None and usage.error.startswith("auth: When using Gemini API")
    assert usage.input_tokens is None and usage.turns is None


def test_parse_model_not_found() -> None:
    usage = GeminiAdapter().parse_output(*recorded("error_not_found"))
    assert usage.error is not None and usage.error.startswith("model_not_found: ")
    assert "no scripted route" in usage.error


def test_parse_crash_without_json() -> None:
    usage = GeminiAdapter().parse_output(*recorded("crash_bad_settings"))
    assert usage.error is not None
    assert usage.error.startswith("no Gemini CLI JSON result")
    assert "Please fix the configuration file(s)" in usage.error


@pytest.mark.parametrize("stdout", [
    "", "garbage\x00\xff not json", "{broken", "[1, 2, 3]", "{}\n", '{"stats": 7}',
    '{"response": 5, "stats": {"models": {"m": "x", "n": {"tokens": {"prompt": "many"}}}}}',
    '{"error": null, "response": null}', '{"error": ["odd"]}',
])
def test_parse_garbage_never_raises(stdout: str) -> None:
    usage = GeminiAdapter().parse_output(stdout, "noise\n{ not json either")
    assert isinstance(usage.final_message, str)
    assert usage.input_tokens in (None, 0)


def test_token_totals_count_thoughts_as_output_and_cached_as_input() -> None:
    stats = {"models": {
        "pro": {"api": {"totalRequests": 2},
                "tokens": {"prompt": 1000, "input": 400, "cached": 600, "candidates": 50,
                           "thoughts": 200, "tool": 7}},
        "flash-lite": {"api": {"totalRequests": 1}, "tokens": {"prompt": 90, "candidates": 10}},
    }}
    assert token_totals(stats) == (1000 + 7 + 90, 50 + 200 + 10, 3)
    assert token_totals({"models": {}}) is None
    assert token_totals(None) is None


def test_result_document_prefers_stdout() -> None:
    out = '{"response": "from stdout", "stats": {}}'
    err = '{"session_id": "s", "error": {"message": "from stderr"}}'
    assert result_document(out, err) == {"response": "from stdout", "stats": {}}
    assert result_document("", "Warning: x\n" + err) == json.loads(err)


def _fake_run(name: str, returncode: int | None, timed_out: bool = False) -> Callable[..., Any]:
    """A runner that replays a recorded run instead of starting the CLI."""

    def run(argv: list[str], **kwargs: Any) -> process.ProcessResult:
        stdout, stderr = recorded(name)
        kwargs["stdout_path"].write_text(stdout, encoding="utf-8")
        kwargs["stderr_path"].write_text(stderr, encoding="utf-8")
        return process.ProcessResult(argv=tuple(argv), returncode=returncode, timed_out=timed_out,
                                     duration_s=1.5, stdout_path=kwargs["stdout_path"],
                                     stderr_path=kwargs["stderr_path"])

    return run


@pytest.mark.parametrize(("name", "returncode", "success", "error_start"), [
    ("success_auto", 0, True, None),
    ("error_no_key", 41, False, "auth: "),
    ("crash_bad_settings", 52, False, "no Gemini CLI JSON result"),
])
def test_run_challenge_on_replayed_runs(tmp_path: Path, name: str, returncode: int, success: bool,
                                        error_start: str | None) -> None:
    with healthy_endpoint() as url:
        config = AgentConfig(name="gemini", executable="/bin/true", env=(("GOOGLE_GEMINI_BASE_URL", url),))
        result = GeminiAdapter(config, run=_fake_run(name, returncode)).run_challenge("p", tmp_path, 1)
    assert result.success is success and not result.infra_error
    assert result.timed_out is False
    if error_start is None:
        assert result.error is None and result.input_tokens == 492 and result.prompts_used == 4
    else:
        assert result.error is not None and result.error.startswith(error_start)


# --- the scripted server's Gemini API -------------------------------------------------------------


def test_tool_results_are_counted_from_function_responses() -> None:
    body = {"contents": [
        {"role": "user", "parts": [{"text": "go"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "write_file", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "write_file", "response": {}}}]},
    ]}
    assert wire.tool_results_seen(body) == 1
    assert wire.tool_results_seen({"contents": "odd"}) == 0
    assert wire.tool_results_seen(None) == 0


def test_router_and_next_speaker_requests_get_schema_shaped_json() -> None:
    router = {"generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": {
        "type": "OBJECT", "properties": {"complexity_reasoning": {"type": "STRING"},
                                         "complexity_score": {"type": "INTEGER"}}}}}
    answer = json.loads(wire._parts(Script(files=()), router)[0]["text"])
    assert answer == {"complexity_reasoning": "scripted", "complexity_score": 1}
    speaker = {"generationConfig": {"responseMimeType": "application/json", "responseSchema": {
        "type": "object", "properties": {"reasoning": {"type": "string"},
                                         "next_speaker": {"type": "string",
                                                          "enum": ["user", "model"]}}}}}
    assert json.loads(wire._parts(Script(files=()), speaker)[0]["text"])["next_speaker"] == "user"
    loop = {"generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": {
        "type": "object", "properties": {"unproductive_state_analysis": {"type": "string"},
                                         "unproductive_state_confidence": {"type": "number"}}}}}
    assert json.loads(wire._parts(Script(files=()), loop)[0]["text"])[
        "unproductive_state_confidence"] == 0.0


def _post(url: str, body: dict[str, Any]) -> bytes:
    import urllib.request

    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        data: bytes = response.read()
        return data


def test_stream_sends_a_write_file_call_then_final_text_over_sse(server: RunningServer) -> None:
    base = f"{server.url}/v1beta/models/gemini-2.5-pro"
    first = _post(f"{base}:streamGenerateContent?alt=sse", {"contents": []}).decode()
    events = [json.loads(line[6:]) for line in first.splitlines() if line.startswith("data: ")]
    call = events[-1]["candidates"][0]["content"]["parts"][0]["functionCall"]
    assert call == {"name": "write_file", "args": {"file_path": "a.py", "content": "A = 1\n"}}
    assert events[-1]["usageMetadata"]["promptTokenCount"] == 11
    done = {"contents": [{"role": "user", "parts": [{"functionResponse": {"name": "write_file"}}]}]}
    final = json.loads(_post(f"{base}:generateContent", done))
    assert final["candidates"][0]["content"]["parts"] == [{"text": "Finished."}]
    assert final["usageMetadata"]["candidatesTokenCount"] == 3
    assert (server.ledger.input_tokens, server.ledger.output_tokens, server.ledger.calls) == (22, 6, 2)


def test_count_tokens_is_not_charged(server: RunningServer) -> None:
    reply = json.loads(_post(f"{server.url}/v1beta/models/m:countTokens", {"contents": []}))
    assert reply["totalTokens"] >= 1
    assert server.ledger.calls == 0


# --- the real CLI ---------------------------------------------------------------------------------



@pytest.mark.realcli
@pytest.mark.parametrize("model", [None, "gemini-2.5-flash"])
def test_real_cli_writes_the_scripted_files(real_cli: Callable[[str], str], tmp_path: Path,
                                            model: str | None) -> None:
    executable = real_cli("gemini")
    script = CALC_SCRIPT
    workspace = tmp_path / "ws"
    workspace.mkdir()
    with RunningServer(script) as server:
        config = AgentConfig(name="gemini", executable=executable, model=model,
                             env=(("GOOGLE_GEMINI_BASE_URL", server.url), ("GEMINI_API_KEY", "test")))
        result = GeminiAdapter(config).run_challenge("Write the calculator package.", workspace, 3)
        ledger = server.ledger
    assert_files_written(workspace, CALC_FILES)
    assert result.success, result.error
    assert result.final_message == "All three files written."
    assert (result.input_tokens, result.output_tokens) == (ledger.input_tokens, ledger.output_tokens)
    assert result.prompts_used == ledger.calls
    # 3 write_file calls + the final answer, plus the router's call when no model is pinned
    assert ledger.calls == (4 if model else 5)


@pytest.mark.realcli
def test_real_cli_is_killed_at_its_time_limit(real_cli: Callable[[str], str], tmp_path: Path) -> None:
    executable = real_cli("gemini")
    with silent_endpoint() as silent_url:  # accepts connections, never answers
        url = silent_url
        config = AgentConfig(name="gemini", executable=executable, model="gemini-2.5-pro",
                             env=(("GOOGLE_GEMINI_BASE_URL", url), ("GEMINI_API_KEY", "test")))
        result = GeminiAdapter(config).run_challenge("Write a file.", tmp_path, 0.05)  # type: ignore[arg-type]
    assert result.timed_out is True
    assert result.success is False
    # a silent endpoint fails the harness's own request too (no answer in 5 s): not the agent's
    assert result.infra_error and result.error is not None
    assert result.error.startswith("connection: ") and "timed out after" in result.error
    assert 3 <= result.time_taken_seconds < 30
