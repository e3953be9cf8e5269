"""The `aider` adapter (Aider, PyPI `aider-chat`) and the scripted server's text-edit answers.

Unit tests parse outputs recorded from the real CLI (tests/adapters/data/aider/, recorded with the
command line `build_argv` makes against the scripted server: `success` writes three files in one
reply, `lint` is a run where aider's lint check failed and it asked the model again (two calls),
`conn_error` has nothing listening, `not_found` a base URL the server does not serve, `crash` an
unknown option); the `realcli` tests drive the real CLI (ci/install/aider.sh) end to end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentbench import process
from agentbench.adapters.aider import CACHE_SEED, PRICE_CACHE, AiderAdapter, count, final_message
from agentbench.adapters.registry import ADAPTERS
from agentbench.models import AgentConfig
from agentbench.modelserver import RunningServer, Script, ScriptedFile
from agentbench.modelserver import openai_chat as wire
from tests.adapters.helpers import (
    CALC_FILES,
    CALC_SCRIPT,
    aider_env,
    assert_files_written,
    recorded_run,
    silent_endpoint,
    trial_setup,
)

DATA = Path(__file__).parent / "data" / "aider"


def recorded(name: str) -> tuple[str, str]:
    """(stdout, stderr) of a recorded run."""
    return recorded_run(DATA, name)


trial = trial_setup


@pytest.fixture
def no_user_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """No API variables from the developer's environment leak into a test."""
    for name in AiderAdapter.passthrough_env:
        monkeypatch.delenv(name, raising=False)


# --- command line and per-trial configuration ---------------------------------------------------


def test_registered_under_its_name() -> None:
    assert ADAPTERS["aider"] is AiderAdapter
    assert AiderAdapter().name == "aider" and AiderAdapter.executable == "aider"


def test_build_argv_is_one_non_interactive_message_without_git(tmp_path: Path) -> None:
    setup = trial(tmp_path, "openai/scripted")
    prompt = "--yes-always; rm -rf / $(echo hi)\nsecond line"
    argv = AiderAdapter().build_argv(prompt, setup)
    assert argv[:4] == ["--model", "openai/scripted", "--message-file", str(setup.prompt_file)]
    for flag in ("--yes-always", "--no-git", "--no-auto-commits", "--no-stream", "--no-analytics",
                 "--no-check-update", "--no-show-release-notes", "--no-detect-urls",
                 "--no-restore-chat-history"):
        assert flag in argv
    assert argv[argv.index("--edit-format") + 1] == "whole"
    assert not any(prompt in part for part in argv)
    histories = [argv[argv.index(flag) + 1] for flag in ("--input-history-file",
                                                         "--chat-history-file")]
    assert all(Path(h).parent == setup.home for h in histories)
    assert "--model" not in AiderAdapter().build_argv(prompt, trial(tmp_path))


def test_prepare_seeds_the_price_cache_in_the_trial_home(tmp_path: Path, no_user_keys: None) -> None:
    setup = trial(tmp_path)
    config = AgentConfig(name="aider", env=(("OPENAI_API_BASE", "http://127.0.0.1:1/v1"),))
    env = AiderAdapter(config).environment(setup)
    cache = json.loads((setup.home / PRICE_CACHE).read_text())
    assert cache == CACHE_SEED and cache  # non-empty: an empty cache is downloaded again
    assert env["LITELLM_LOCAL_MODEL_COST_MAP"] == "True" and env["AIDER_ANALYTICS"] == "false"
    assert env["OPENAI_API_BASE"] == "http://127.0.0.1:1/v1" and env["HOME"] == str(setup.home)
    assert not list(setup.workspace.iterdir())


# --- parsing recorded output ----------------------------------------------------------------------


def test_parse_success() -> None:
    usage = AiderAdapter().parse_output(*recorded("success"))
    assert (usage.input_tokens, usage.output_tokens, usage.turns) == (321, 54, 1)
    assert usage.cost_usd == 0.0018 and usage.error is None
    assert usage.final_message == "Done: all three files written."


def test_parse_two_calls_after_a_lint_error() -> None:
    usage = AiderAdapter().parse_output(*recorded("lint"))
    assert (usage.input_tokens, usage.output_tokens, usage.turns) == (642, 108, 2)
    assert usage.cost_usd == 0.0035  # the last "session" figure
    assert usage.final_message == "Done: all three files written."


@pytest.mark.parametrize(("name", "error"), [
    ("conn_error", "connection: could not reach the model endpoint"),
    ("not_found", "model_not_found: the model (or endpoint) was not found"),
    ("crash", "aider: error: unrecognized arguments: --definitely-not-an-option"),
])
def test_parse_failures(name: str, error: str) -> None:
    usage = AiderAdapter().parse_output(*recorded(name))
    assert usage.error == error
    assert usage.input_tokens is None and usage.turns is None


def test_counts_and_cache_columns() -> None:
    assert (count("999"), count("1.2k"), count("12k")) == (999, 1200, 12000)
    stdout = ("Tokens: 2.5k sent, 300 cache write, 1.1k cache hit, 40 received. "
              "Cost: $0.01 message, $0.01 session.\n")
    usage = AiderAdapter().parse_output(stdout, "")
    assert (usage.input_tokens, usage.output_tokens, usage.cost_usd) == (2500, 40, 0.01)
    assert AiderAdapter().parse_output("Tokens: 5 sent, 2 received.\n", "").cost_usd is None


def test_final_message_is_prose_when_there_is_no_listing() -> None:
    stdout = "Aider v0.86.2\nModel: x\n\nI could not do that.\n\nTokens: 5 sent, 2 received.\n"
    assert final_message(stdout) == "I could not do that."


@pytest.mark.parametrize("stdout", [
    "", "garbage \x00\xff\n", "Tokens: lots sent, none received.\n", "```\n```\nTokens:\n",
    "Cost: $x message, $y session.\n",
])
def test_parse_garbage_never_raises(stdout: str) -> None:
    usage = AiderAdapter().parse_output(stdout, "Traceback (most recent call last):\nKeyError: 'x'\n")
    assert usage.input_tokens is None
    assert usage.error == "KeyError: 'x'"


def _replay(name: str) -> Callable[..., process.ProcessResult]:
    """A runner that replays a recorded run (outputs and exit status) instead of starting the CLI."""

    def run(argv: list[str], **kwargs: Any) -> process.ProcessResult:
        stdout, stderr = recorded(name)
        kwargs["stdout_path"].write_text(stdout, encoding="utf-8")
        kwargs["stderr_path"].write_text(stderr, encoding="utf-8")
        assert Path(argv[argv.index("--message-file") + 1]).read_text() == "the prompt"
        code = int((DATA / f"{name}.rc").read_text())
        return process.ProcessResult(argv=tuple(argv), returncode=code, timed_out=False,
                                     duration_s=1.0, stdout_path=kwargs["stdout_path"],
                                     stderr_path=kwargs["stderr_path"])

    return run


@pytest.mark.parametrize(("name", "success"), [("success", True), ("lint", True),
                                               ("conn_error", False), ("not_found", False),
                                               ("crash", False)])
def test_run_challenge_on_replayed_runs(tmp_path: Path, name: str, success: bool) -> None:
    config = AgentConfig(name="aider", executable="/bin/true")
    result = AiderAdapter(config, run=_replay(name)).run_challenge("the prompt", tmp_path, 1)
    # aider exits 0 when every model call failed: the adapter still reports the failure
    assert result.success is success and result.timed_out is False
    assert (result.error is None) is success


# --- the scripted server's answers to a text-edit client (no tools) --------------------------------

SCRIPT = Script(files=(ScriptedFile(path="a.py", content="A = 1\n"),
                       ScriptedFile(path="pkg/b.py", content="B = 2")),
                final_message="Both written.", input_tokens=11, output_tokens=3)
AIDER_SYSTEM = {"role": "system", "content": "Act as an expert software developer.\n"
                                             "You MUST use this *file listing* format:"}
EXAMPLE = [{"role": "user", "content": "Change the greeting"},
           {"role": "assistant", "content": "show_greeting.py\n```\nprint('hey')\n```\n"}]


def test_whole_format_reply_lists_every_file_then_the_final_message() -> None:
    body = {"model": "scripted", "messages": [AIDER_SYSTEM, *EXAMPLE,
                                               {"role": "user", "content": "Write a.py and b.py"}]}
    reply = wire.completion(SCRIPT, body)["choices"][0]["message"]["content"]
    assert reply == "a.py\n```\nA = 1\n```\n\npkg/b.py\n```\nB = 2\n```\n\nBoth written."
    again = {"model": "scripted", "messages": [*body["messages"],
                                                {"role": "assistant", "content": reply},
                                                {"role": "user", "content": "Fix the lint errors"}]}
    assert wire.completion(SCRIPT, again)["choices"][0]["message"]["content"] == "Both written."


def test_search_replace_blocks_when_the_system_prompt_asks_for_them() -> None:
    system = {"role": "system", "content": "Use <<<<<<< SEARCH / ======= / >>>>>>> REPLACE blocks."}
    body = {"model": "m", "messages": [system, {"role": "user", "content": "go"}]}
    reply = wire.completion(SCRIPT, body)["choices"][0]["message"]["content"]
    assert reply.startswith("a.py\n```\n<<<<<<< SEARCH\n=======\nA = 1\n>>>>>>> REPLACE\n```\n")
    assert wire.files_listed(SCRIPT, {"messages": [{"role": "assistant", "content": reply}]}) == 2


def test_streamed_text_reply_reports_usage_in_its_last_chunk() -> None:
    body = {"model": "m", "stream": True, "messages": [AIDER_SYSTEM, {"role": "user", "content": "go"}]}
    chunks = wire.stream_chunks(SCRIPT, body)
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)
    assert text.endswith("Both written.") and "pkg/b.py\n```\nB = 2\n```" in text
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
    assert chunks[-1]["usage"]["completion_tokens"] == 3


# --- the real CLI ---------------------------------------------------------------------------------

@pytest.mark.realcli
def test_real_cli_writes_the_scripted_files(real_cli: Callable[[str], str], tmp_path: Path,
                                            no_user_keys: None) -> None:
    executable = real_cli("aider")
    script = CALC_SCRIPT
    workspace = tmp_path / "ws"
    workspace.mkdir()
    with RunningServer(script) as server:
        env = aider_env(tmp_path, server.url)
        config = AgentConfig(name="aider", executable=executable, model="openai/scripted", env=env)
        result = AiderAdapter(config).run_challenge("Write the calculator package.", workspace, 3)
        ledger = server.ledger
    assert_files_written(workspace, CALC_FILES)
    assert sorted(p.name for p in workspace.iterdir()) == ["calc", "tests"]  # no .aider* files
    assert result.success, result.error
    assert result.final_message == "All three files written."
    assert ledger.calls == 1 and result.prompts_used == 1  # every file in one reply
    assert (result.input_tokens, result.output_tokens) == (ledger.input_tokens, ledger.output_tokens)
    assert result.cost_usd == pytest.approx(321 * 0.000003 + 54 * 0.000015, rel=0.05)


@pytest.mark.realcli
def test_real_cli_is_killed_at_its_time_limit(real_cli: Callable[[str], str], tmp_path: Path,
                                              no_user_keys: None) -> None:
    executable = real_cli("aider")
    with silent_endpoint() as silent_url:  # accepts connections, never answers
        url = f"{silent_url}/v1"
        config = AgentConfig(name="aider", executable=executable, model="openai/scripted",
                             env=(("OPENAI_API_BASE", url), ("OPENAI_API_KEY", "sk-scripted")))
        result = AiderAdapter(config).run_challenge("Write a file.", tmp_path, 0.05)  # type: ignore[arg-type]
    assert result.timed_out is True and result.success is False
    assert result.error is not None and "timed out" in result.error
    assert 3 <= result.time_taken_seconds < 30
