"""The codex adapter and the OpenAI Responses protocol of the scripted model server.

Unit tests read outputs recorded from the real CLI (Codex CLI 0.171.0 against the scripted server,
under tests/adapters/data/codex/: `success` with the default model, which uses Codex's JavaScript
"code mode", `success_direct` with gpt-5.5 (a direct `apply_patch` tool), `success_fallback` with an
unknown model (fallback metadata, `exec_command` only), the failures `auth` (401), `nokey`,
`notfound` (404), `unreachable_timeout` (killed at its limit while Codex waited for the network),
`crash_bad_cwd` (a missing `--cd` folder); `garbage` is hand-made). The `realcli` tests drive the
installed CLI end to end.
"""

from __future__ import annotations

import json
import tomllib
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentbench.adapters.cli_base import TrialSetup
from agentbench.adapters.codex import (
    DEFAULT_BASE_URL,
    NETWORK_FEATURES,
    CodexAdapter,
    render_config,
)
from agentbench.adapters.registry import get_adapter
from agentbench.models import AgentConfig
from agentbench.modelserver import RunningServer, Script, ScriptedFile
from agentbench.modelserver.openai_responses import (
    Tool,
    add_file_patch,
    apply_patch_command,
    offered_tools,
    tool_results_seen,
    write_call,
)
from tests.adapters.helpers import (
    assert_files_written,
    healthy_endpoint,
    replaying,
    silent_endpoint,
    trial_setup,
)

DATA = Path(__file__).parent / "data" / "codex"
RECORDED_TOKENS = (4 * 1234, 4 * 56)  # 3 files + the final answer, 1234/56 tokens per model call


def recorded(name: str) -> tuple[str, str]:
    """(stdout, stderr) of a recorded run."""
    stdout = next(DATA.glob(f"{name}.stdout.*"))
    stderr = next(DATA.glob(f"{name}.stderr.*"), None)
    return (stdout.read_text(encoding="utf-8", errors="replace"),
            stderr.read_text(encoding="utf-8") if stderr else "")


def recorded_request(name: str) -> dict[str, Any]:
    """A request body Codex sent (long instruction texts trimmed when recording)."""
    body: dict[str, Any] = json.loads((DATA / f"{name}.request.json").read_text(encoding="utf-8"))
    return body


def make_setup(tmp_path: Path, model: str | None = None) -> TrialSetup:
    return trial_setup(tmp_path, model, prompt='--help: write hello.py')


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No OpenAI variables from the developer's environment leak into a test."""
    for name in CodexAdapter.passthrough_env:
        monkeypatch.delenv(name, raising=False)


# --- command line, configuration and environment -------------------------------------------------


def test_registry_name_and_declared_data() -> None:
    adapter = get_adapter("codex")
    assert isinstance(adapter, CodexAdapter)
    assert adapter.name == "codex" and adapter.executable == "codex"
    assert adapter.package.startswith("@openai/codex (npm install -g @openai/codex")
    assert set(adapter.passthrough_env) == {"OPENAI_API_KEY", "OPENAI_BASE_URL"}


def test_the_users_proxy_reaches_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"):  # passed to every agent by the base
        monkeypatch.setenv(name, f"value-of-{name}")
    env = CodexAdapter().environment(make_setup(tmp_path))
    assert {env[n] for n in ("HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY")} == {
        "value-of-HTTPS_PROXY", "value-of-HTTP_PROXY", "value-of-NO_PROXY"}


def test_build_argv_is_headless_json_and_reads_the_prompt_from_stdin(tmp_path: Path) -> None:
    setup = make_setup(tmp_path)
    adapter = CodexAdapter()
    argv = adapter.build_argv("--help: write hello.py", setup)
    assert argv == ["exec", "--json", "--color", "never", "--skip-git-repo-check",
                    "--sandbox", "workspace-write", "--cd", str(setup.workspace.resolve()), "-"]
    assert "--help: write hello.py" not in argv  # never an argv element that could parse as a flag
    assert adapter.stdin_file(setup) == setup.prompt_file


def test_build_argv_passes_the_model(tmp_path: Path) -> None:
    argv = CodexAdapter().build_argv("p", make_setup(tmp_path, model="gpt-5.5"))
    assert argv[-3:] == ["--model", "gpt-5.5", "-"]


def test_prepare_writes_a_per_trial_codex_home(tmp_path: Path, clean_env: None) -> None:
    setup = make_setup(tmp_path)
    config = AgentConfig(name="codex", env=(("OPENAI_BASE_URL", "http://127.0.0.1:8765/v1"),))
    extra = CodexAdapter(config).prepare(setup)
    assert extra == {"CODEX_HOME": str(setup.home / ".codex")}
    settings = tomllib.loads((setup.home / ".codex" / "config.toml").read_text(encoding="utf-8"))
    provider = settings["model_providers"][settings["model_provider"]]
    assert provider == {"name": "AgentBench (agentbench)", "base_url": "http://127.0.0.1:8765/v1",
                        "env_key": "OPENAI_API_KEY", "wire_api": "responses",
                        "request_max_retries": 2, "stream_max_retries": 2}
    assert settings["approval_policy"] == "never"
    # nothing beyond the model endpoint (plugin sync from GitHub and chatgpt.com, apps, browser...)
    assert settings["features"] == dict.fromkeys(NETWORK_FEATURES, False)
    assert {"plugins", "remote_plugin", "apps", "unbounded_connection_retries"} <= set(NETWORK_FEATURES)
    assert settings["web_search"] == "disabled"
    assert settings["project_root_markers"] == []  # AGENTS.md from the workspace only
    assert settings["check_for_update_on_startup"] is False
    assert settings["analytics"] == {"enabled": False} and settings["feedback"] == {"enabled": False}
    assert settings["otel"] == {"exporter": "none"}


def test_base_url_comes_from_the_config_then_the_user_then_openai(monkeypatch: pytest.MonkeyPatch,
                                                                   clean_env: None) -> None:
    assert CodexAdapter().base_url() == DEFAULT_BASE_URL
    monkeypatch.setenv("OPENAI_BASE_URL", "http://proxy.example/v1")
    assert CodexAdapter().base_url() == "http://proxy.example/v1"
    configured = AgentConfig(name="codex", env=(("OPENAI_BASE_URL", "http://127.0.0.1:1/v1"),))
    assert CodexAdapter(configured).base_url() == "http://127.0.0.1:1/v1"


def test_render_config_quotes_the_url() -> None:
    url = 'http://h/v1?a="b"\\c'
    provider = tomllib.loads(render_config(url))["model_providers"]["agentbench"]
    assert provider["base_url"] == url


def test_environment_is_explicit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_env: None) -> None:
    monkeypatch.setenv("UNRELATED_SECRET", "x")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-user")
    setup = make_setup(tmp_path)
    env = CodexAdapter(AgentConfig(name="codex", env=(("OPENAI_BASE_URL", "http://a/v1"),))).environment(setup)
    assert env["CODEX_HOME"] == str(setup.home / ".codex") and env["HOME"] == str(setup.home)
    assert env["OPENAI_API_KEY"] == "sk-user" and env["OPENAI_BASE_URL"] == "http://a/v1"
    assert "UNRELATED_SECRET" not in env


# --- parsing recorded output ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["success", "success_direct", "success_fallback"])
def test_parse_recorded_successes(name: str) -> None:
    usage = CodexAdapter().parse_output(*recorded(name))
    assert usage.error is None
    assert (usage.input_tokens, usage.output_tokens) == RECORDED_TOKENS
    assert usage.cost_usd is None and usage.turns == 1
    assert usage.final_message == "Created the calc package."


@pytest.mark.parametrize(("name", "start", "detail"), [
    ("auth", "auth: the API key was refused", "401 Unauthorized"),
    ("nokey", "auth: OPENAI_API_KEY is not set", "Missing environment variable"),
    ("notfound", "model_not_found: ", "404 Not Found"),
])
def test_parse_recorded_failures(name: str, start: str, detail: str) -> None:
    usage = CodexAdapter().parse_output(*recorded(name))
    assert usage.error is not None and usage.error.startswith(start) and detail in usage.error
    assert usage.error.count("Reconnecting") == 0  # the final message, not a retry notice
    assert usage.input_tokens is None and usage.turns is None


def test_parse_an_unfinished_run_leaves_the_reason_to_the_exit_status() -> None:
    usage = CodexAdapter().parse_output(*recorded("unreachable_timeout"))
    assert usage.error is None and usage.input_tokens is None and usage.final_message == ""


def test_parse_a_crash_and_garbage() -> None:
    crash = CodexAdapter().parse_output(*recorded("crash_bad_cwd"))
    assert crash.error is not None and "no Codex JSON events" in crash.error
    assert "No such file or directory" in crash.error
    garbage = CodexAdapter().parse_output(*recorded("garbage"))
    assert garbage.error is not None and "thread panicked" in garbage.error
    assert CodexAdapter().parse_output("", "").error == "no Codex JSON events in the output; nothing on stderr"


def test_parse_odd_values_and_a_truncated_stream() -> None:
    odd = "\n".join(json.dumps(e) for e in (
        {"type": "turn.completed", "usage": {"input_tokens": "many", "output_tokens": True}},
        {"type": "item.completed", "item": "not an object"},
        {"type": "item.completed", "item": {"type": "agent_message", "text": None}},
        {"type": "turn.failed", "error": "not an object"},
    ))
    usage = CodexAdapter().parse_output(odd, "")
    assert (usage.input_tokens, usage.output_tokens, usage.turns) == (0, 0, 1)
    assert usage.error == "turn failed" and usage.final_message == ""
    stdout, _ = recorded("success")
    cut = stdout[: stdout.index('"type":"turn.completed"') + 10]
    truncated = CodexAdapter().parse_output(cut, "")
    assert truncated.error is None and truncated.input_tokens is None


def test_retry_notices_before_a_completed_turn_are_not_errors() -> None:
    success, _ = recorded("success")
    auth, _ = recorded("auth")
    retries = [line for line in auth.splitlines() if "Reconnecting" in line]
    usage = CodexAdapter().parse_output("\n".join([*retries, success]), "")
    assert usage.error is None and (usage.input_tokens, usage.output_tokens) == RECORDED_TOKENS


@pytest.mark.parametrize(("name", "returncode", "timed_out", "error_start"), [
    ("success", 0, False, None),
    ("auth", 1, False, "auth: "),
    ("crash_bad_cwd", 1, False, "no Codex JSON events"),
    ("unreachable_timeout", None, True, "timed out after 2s"),
])
def test_run_challenge_on_replayed_runs(tmp_path: Path, name: str, returncode: int | None,
                                        timed_out: bool, error_start: str | None) -> None:
    with healthy_endpoint() as url:
        config = AgentConfig(name="codex", executable="/bin/true", env=(("OPENAI_BASE_URL", url + "/v1"),))
        adapter = CodexAdapter(config, run=replaying(recorded(name), returncode, timed_out, 1.5))
        result = adapter.run_challenge("the prompt", tmp_path, 1)
    assert result.timed_out is timed_out and not result.infra_error
    if error_start is None:
        assert result.success and result.error is None and result.prompts_used == 1
        assert (result.input_tokens, result.output_tokens) == RECORDED_TOKENS
        return
    assert not result.success and result.error is not None and result.error.startswith(error_start)
    if timed_out:
        assert "last Codex error: Reconnecting... waiting for network" in result.error


# --- the Responses protocol -----------------------------------------------------------------------

NL_FILE = ScriptedFile(path="pkg/a.py", content="x = 1\n")
BARE_FILE = ScriptedFile(path="pkg/VERSION", content="1.0 'q' $HOME")


def test_tools_are_found_in_code_mode_and_direct_requests() -> None:
    code_mode = offered_tools(recorded_request("success"))
    assert code_mode["exec"].namespace == "functions" and code_mode["exec"].spec["type"] == "custom"
    assert "apply_patch" not in code_mode and "exec_command" not in code_mode
    direct = offered_tools(recorded_request("success_direct"))
    assert direct["apply_patch"] == Tool(None, direct["apply_patch"].spec)
    assert direct["apply_patch"].spec["type"] == "custom" and "exec_command" in direct
    assert offered_tools({"tools": "nope", "input": "text"}) == {}


def test_tool_results_are_counted() -> None:
    body = {"input": [{"type": "message"}, {"type": "function_call_output"},
                      {"type": "custom_tool_call_output"}, "junk"]}
    assert tool_results_seen(body) == 2
    assert tool_results_seen({"input": "just text"}) == 0


def test_code_mode_calls_the_nested_apply_patch() -> None:
    tools = offered_tools(recorded_request("success"))
    item = write_call(tools, NL_FILE)
    assert item is not None and item["type"] == "custom_tool_call"
    assert (item["name"], item["namespace"]) == ("exec", "functions")
    assert f"tools.apply_patch({json.dumps(add_file_patch(NL_FILE))})" in item["input"]
    bare = write_call(tools, BARE_FILE)
    assert bare is not None and "tools.exec_command(" in bare["input"]
    assert json.dumps(apply_patch_command(BARE_FILE)) in bare["input"]


def test_direct_tools_are_preferred_in_order() -> None:
    tools = offered_tools(recorded_request("success_direct"))
    patch = write_call(tools, NL_FILE)
    assert patch is not None and patch["type"] == "custom_tool_call" and "namespace" not in patch
    assert patch["input"] == "*** Begin Patch\n*** Add File: pkg/a.py\n+x = 1\n*** End Patch\n"
    bare = write_call(tools, BARE_FILE)
    assert bare is not None and bare["name"] == "exec_command"
    assert json.loads(bare["arguments"]) == {"cmd": "mkdir -p pkg && printf %s '1.0 '\"'\"'q'\"'\"' $HOME' > pkg/VERSION"}


def _function(name: str, *params: str) -> dict[str, Any]:
    props = {p: {"type": "string"} for p in params}
    return {"type": "function", "name": name, "parameters": {"type": "object", "properties": props}}


def test_other_tool_shapes() -> None:
    shell = write_call(offered_tools({"tools": [_function("shell", "command")]}), NL_FILE)
    assert shell is not None and json.loads(shell["arguments"])["command"][:2] == ["bash", "-lc"]
    patch_fn = write_call(offered_tools({"tools": [_function("apply_patch", "input")]}), NL_FILE)
    assert patch_fn is not None and json.loads(patch_fn["arguments"]) == {"input": add_file_patch(NL_FILE)}
    writer = write_call(offered_tools({"tools": [_function("write_file", "path", "content")]}), BARE_FILE)
    assert writer is not None and json.loads(writer["arguments"]) == {"path": "pkg/VERSION",
                                                                       "content": BARE_FILE.content}
    assert write_call(offered_tools({"tools": [_function("write_file", "name")]}), NL_FILE) is None
    assert write_call({}, NL_FILE) is None


def test_heredoc_cannot_be_ended_by_the_content() -> None:
    tricky = ScriptedFile(path="t.txt", content="PATCH\n\n")
    assert apply_patch_command(tricky) == ("apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: t.txt\n"
                                           "+PATCH\n+\n*** End Patch\nPATCH")
    assert apply_patch_command(ScriptedFile(path="e", content="")) == "printf %s '' > e"


def _post(url: str, body: Any) -> tuple[int, str]:
    data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _sse(text: str) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_server_streams_and_answers_plain_requests() -> None:
    script = Script(files=(NL_FILE,), final_message="Done.", input_tokens=7, output_tokens=3)
    tools = [_function("exec_command", "cmd")]
    with RunningServer(script) as server:
        status, raw = _post(server.url + "/v1/responses", {"model": "m", "stream": True, "tools": tools,
                                                           "input": [{"type": "message", "role": "user"}]})
        plain_status, plain = _post(server.url + "/v1/responses", {
            "model": "m", "tools": tools, "input": [{"type": "function_call_output", "output": ""}]})
        bad = [_post(server.url + "/v1/responses", "[1]")[0], _post(server.url + "/v1/responses", {})[0]]
        ledger = server.ledger
    events = _sse(raw)
    names = [name for name, _ in events]
    assert status == 200 and names[0] == "response.created" and names[-1] == "response.completed"
    assert [data["sequence_number"] for _, data in events] == list(range(len(events)))
    assert "response.function_call_arguments.delta" in names
    done = events[-1][1]["response"]
    assert done["usage"]["input_tokens"] == 7 and done["usage"]["output_tokens"] == 3
    assert done["output"][0]["name"] == "exec_command" and done["status"] == "completed"
    answer = json.loads(plain)
    assert plain_status == 200 and answer["output"][0]["content"][0]["text"] == "Done."
    assert bad == [400, 400]
    assert (ledger.calls, ledger.input_tokens, ledger.output_tokens) == (2, 14, 6)


# --- the real CLI ---------------------------------------------------------------------------------

THREE_FILES = Script(
    files=(ScriptedFile(path="calc/__init__.py", content='"""Calc."""\n'),
           ScriptedFile(path="calc/ops.py", content="def add(a, b):\n    return a + b\n"),
           ScriptedFile(path="VERSION", content="1.0")),
    final_message="Created the calc package.", input_tokens=1234, output_tokens=56)
PROMPT = "- Create the calc package.\n- Use 'quotes' and $VARS freely."


@pytest.mark.realcli
@pytest.mark.parametrize("model", [None, "gpt-5.5", "scripted-model"])
def test_real_codex_writes_the_scripted_files(real_cli: Callable[[str], str], clean_env: None,
                                              tmp_path: Path, model: str | None) -> None:
    codex = real_cli("codex")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    with RunningServer(THREE_FILES) as server:
        env = (("OPENAI_BASE_URL", server.url + "/v1"), ("OPENAI_API_KEY", "sk-scripted"))
        # --strict-config (appended after `-`): the pinned Codex knows every key the adapter writes
        adapter = CodexAdapter(AgentConfig(name="codex", executable=codex, env=env, model=model,
                                           args=("--strict-config",)))
        result = adapter.run_challenge(PROMPT, workspace, time_limit_minutes=3)
        ledger = server.ledger
    assert_files_written(workspace, THREE_FILES.files)
    assert result.success and not result.timed_out and result.error is None, result
    assert result.final_message == THREE_FILES.final_message and result.prompts_used == 1
    assert ledger.calls == 4
    assert (result.input_tokens, result.output_tokens) == (ledger.input_tokens, ledger.output_tokens)
    assert (ledger.input_tokens, ledger.output_tokens) == RECORDED_TOKENS
    assert result.cost_usd is None
    assert {(r["method"], r["path"]) for r in ledger.requests} == {("POST", "/v1/responses")}
    first = ledger.requests[0]["body"]
    users = [i for i in first["input"] if isinstance(i, dict) and i.get("role") == "user"]
    assert users[-1]["content"][0]["text"] == PROMPT  # read from stdin, unchanged
    if model:
        assert {r["body"]["model"] for r in ledger.requests} == {model}
    assert adapter.version() == "0.171.0"  # from its package.json


@pytest.mark.realcli
def test_real_codex_is_killed_at_its_time_limit(real_cli: Callable[[str], str], clean_env: None,
                                                tmp_path: Path) -> None:
    codex = real_cli("codex")
    with silent_endpoint() as silent_url:  # accepts connections, never answers
        env = (("OPENAI_BASE_URL", f"{silent_url}/v1"),
               ("OPENAI_API_KEY", "sk-scripted"))
        adapter = CodexAdapter(AgentConfig(name="codex", executable=codex, env=env))
        result = adapter.run_challenge("Write a file.", tmp_path, 0.05)  # type: ignore[arg-type]
    assert result.timed_out is True and result.success is False
    # a silent endpoint fails the harness's own request too (no answer in 5 s): not the agent's
    assert result.infra_error and result.error is not None
    assert result.error.startswith("connection: ") and "timed out after" in result.error
    assert 2 <= result.time_taken_seconds < 30
