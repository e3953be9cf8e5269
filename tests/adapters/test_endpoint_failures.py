"""A failing model endpoint is the infrastructure's failure, found within seconds, never the agent's.

Each real CLI runs against the scripted model server told to fail (5xx, 429, 401/403) and against a
port where nothing listens: the run must end within seconds (not the minute or more of retries the
CLIs do by default) with `infra_error=True`. Fake CLIs show that what a CLI prints is not enough: a
failure counts as the infrastructure's only when the endpoint fails the harness's own request too.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentbench.adapters.command import CommandTemplateAdapter
from agentbench.adapters.endpoint import ANTHROPIC, Endpoint, EndpointFailure, endpoint_failure
from agentbench.adapters.failures import LogTail, RetryStop, RetryWatch
from agentbench.models import AgentConfig
from agentbench.modelserver import RunningServer, Script, ScriptedFile
from agentbench.records import loads_run
from tests.adapters.helpers import REAL_CLIS, scripted_adapter, trial_context
from tests.cli.helpers import invoke

ONE_FILE = (ScriptedFile(path="a.py", content="A = 1\n"),)

REFUSED = "refused"
KINDS = {REFUSED: "connection", 500: "server_error", 502: "server_error", 503: "server_error",
         429: "rate_limit",
         401: "auth", 403: "auth"}


def _modes(index: int) -> tuple[object, ...]:
    """Every way to fail, alternating 500/503 and 401/403 between CLIs (keeps the run short)."""
    return (REFUSED, (500, 503)[index % 2], 429, (401, 403)[index % 2])


CASES = [(agent, mode) for i, agent in enumerate(sorted(REAL_CLIS)) for mode in _modes(i)]


def free_port() -> int:
    """A loopback port where nothing listens (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def failing_endpoint(mode: object) -> Iterator[tuple[str, RunningServer | None]]:
    """(URL, server) of an endpoint failing in `mode`: an HTTP status, or `refused`."""
    if mode == REFUSED:
        yield f"http://127.0.0.1:{free_port()}", None
        return
    assert isinstance(mode, int)
    with RunningServer(Script(files=ONE_FILE, fail_status=mode)) as server:
        yield server.url, server


@pytest.mark.realcli
@pytest.mark.parametrize(("agent", "mode"), CASES, ids=[f"{a}-{m}" for a, m in CASES])
def test_a_failing_endpoint_ends_the_real_cli_within_seconds_as_infra_error(
        agent: str, mode: object, real_cli, tmp_path: Path) -> None:
    executable = real_cli(REAL_CLIS[agent])
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    with failing_endpoint(mode) as (url, server):
        adapter = scripted_adapter(agent, url, executable)
        started = time.monotonic()
        result = adapter.run_challenge("Write a.py.", workspace, 2, context=trial_context(tmp_path))
        elapsed = time.monotonic() - started
        requests = len(server.ledger.requests) if server else None
    assert result.infra_error and not result.success, result
    assert result.error is not None and result.error.startswith(KINDS[mode] + ":"), result.error
    assert elapsed < 25, f"{agent} took {elapsed:.0f}s on {mode}: {result.error}"  # not 60-100 s
    assert not result.timed_out
    if server is not None:
        assert requests, "the CLI never reached the failing server"


# --- what a CLI prints is not enough --------------------------------------------------------------

FORGER = """
    import sys
    print("API Error: 429 Too Many Requests (rate_limit_error); retrying", file=sys.stderr)
    print("Error: connect ECONNREFUSED 127.0.0.1:443", file=sys.stderr)
    sys.exit(1)
"""


def fake_cli(tmp_path: Path, name: str, script: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(script), encoding="utf-8")
    return path


def command_agent(script: Path, url: str, adapter: type[CommandTemplateAdapter] = CommandTemplateAdapter,
                  ) -> CommandTemplateAdapter:
    config = AgentConfig(name="fake", adapter="command", command=(sys.executable, str(script)),
                         env=(("ANTHROPIC_BASE_URL", url), ("ANTHROPIC_API_KEY", "sk-ant-test")))
    return adapter(config)


def test_an_endpoint_error_the_cli_prints_is_the_agents_when_the_endpoint_works(tmp_path: Path) -> None:
    script = fake_cli(tmp_path, "forger", FORGER)
    (tmp_path / "ws").mkdir()
    with RunningServer(Script(files=ONE_FILE)) as server:
        result = command_agent(script, server.url).run_challenge(
            "p", tmp_path / "ws", 1, context=trial_context(tmp_path))
    assert not result.success and not result.infra_error
    assert result.error == "exited with status 1"


@pytest.mark.parametrize("mode", [REFUSED, 502, 429, 401])
def test_the_same_output_is_infra_error_when_the_endpoint_fails_the_harness_too(
        tmp_path: Path, mode: object) -> None:
    script = fake_cli(tmp_path, "forger", FORGER)
    (tmp_path / "ws").mkdir()
    with failing_endpoint(mode) as (url, _):
        result = command_agent(script, url).run_challenge(
            "p", tmp_path / "ws", 1, context=trial_context(tmp_path))
    assert result.infra_error and result.error is not None
    assert result.error.startswith(KINDS[mode] + ": the model endpoint fails the harness's own request")


# --- the retry watch ------------------------------------------------------------------------------

RETRIER = """
    import sys, time
    for attempt in range(1, 6):
        print(f"request failed; retrying attempt {attempt}", file=sys.stderr, flush=True)
        time.sleep(0.3)
    print("gave up after 5 attempts")
"""


class RetryingCLI(CommandTemplateAdapter):
    """The generic command adapter with a retry watch, as a real CLI adapter declares one."""

    retry_watch = RetryWatch(regex=r"^request failed; retrying")


def test_a_retrying_cli_is_stopped_once_the_endpoint_fails_the_harness_too(tmp_path: Path) -> None:
    script = fake_cli(tmp_path, "retrier", RETRIER.replace("range(1, 6)", "range(1, 1000)"))
    (tmp_path / "ws").mkdir()
    with failing_endpoint(503) as (url, _):
        started = time.monotonic()
        result = command_agent(script, url, RetryingCLI).run_challenge(
            "p", tmp_path / "ws", 1, context=trial_context(tmp_path))
    assert time.monotonic() - started < 10  # 1000 attempts would take 300 s
    assert result.infra_error and result.error is not None
    assert result.error.startswith("server_error: stopped by the harness after 2 failed model requests")
    assert "HTTP 503" in result.error


def test_a_retrying_cli_is_left_alone_while_the_endpoint_answers_the_harness(tmp_path: Path) -> None:
    script = fake_cli(tmp_path, "retrier", RETRIER)
    (tmp_path / "ws").mkdir()
    with RunningServer(Script(files=ONE_FILE)) as server:
        result = command_agent(script, server.url, RetryingCLI).run_challenge(
            "p", tmp_path / "ws", 1, context=trial_context(tmp_path))
    assert result.success and not result.infra_error
    assert result.final_message == "gave up after 5 attempts"


def test_retry_stop_asks_the_endpoint_from_the_limit_on_and_not_too_often() -> None:
    asked: list[Endpoint] = []

    def probe(endpoint: Endpoint) -> EndpointFailure | None:
        asked.append(endpoint)
        return None if len(asked) == 1 else EndpointFailure("rate_limit", "HTTP 429")

    endpoint = Endpoint(protocol=ANTHROPIC, base_url="http://127.0.0.1:9")
    stop = RetryStop(RetryWatch(regex="^retry", limit=2), endpoint, probe)
    assert stop("unrelated line") is None and stop("retry 1") is None and asked == []
    assert stop("retry 2") is None and len(asked) == 1  # the endpoint answered: keep going
    assert stop("retry 3") is None and len(asked) == 1  # not asked again within the interval
    assert RetryStop(RetryWatch(regex="^retry"), None, probe)("retry") is None  # no endpoint: never


def test_endpoint_failure_names_each_way_an_endpoint_fails() -> None:
    for status, kind in ((500, "server_error"), (429, "rate_limit"), (401, "auth"), (403, "auth")):
        with RunningServer(Script(files=ONE_FILE, fail_status=status)) as server:
            failure = endpoint_failure(Endpoint(protocol=ANTHROPIC, base_url=server.url, key="k"))
        assert failure == EndpointFailure(kind, f"HTTP {status}")
    refused = endpoint_failure(Endpoint(protocol=ANTHROPIC, base_url=f"http://127.0.0.1:{free_port()}"))
    assert refused is not None and refused.kind == "connection"
    with RunningServer(Script(files=ONE_FILE)) as server:  # 404 for /v1/models: it answers
        assert endpoint_failure(Endpoint(protocol=ANTHROPIC, base_url=server.url)) is None


# --- following a CLI's log (Qwen Code says nothing on stdout or stderr while it retries) ----------


def test_log_tail_follows_appended_lines_and_never_a_link_or_a_fifo(tmp_path: Path) -> None:
    home, seen = tmp_path / "home", []
    logs = home / ".cli" / "debug"
    logs.mkdir(parents=True)
    tail = LogTail(logs, home, lambda line: seen.append(line) or None, lambda reason: None)
    (logs / "a.txt").write_text("one\ntw")
    tail.poll()
    with (logs / "a.txt").open("a") as log:
        log.write("o\nthree\n")
    os.mkfifo(logs / "fifo.txt")  # opened without blocking, never read
    (logs / "link.txt").symlink_to(tmp_path / "elsewhere.txt")
    (tmp_path / "elsewhere.txt").write_text("secret\n")
    tail.poll()
    assert seen == ["one", "two", "three"]
    moved = tmp_path / "moved"
    (home / ".cli").rename(moved)
    (home / ".cli").symlink_to(moved)  # the folder itself is a link now: not followed
    (moved / "debug" / "a.txt").write_text("one\ntwo\nthree\nfour\n")
    tail.poll()
    assert seen == ["one", "two", "three"]


# --- end to end: the trial is infra_error, retried, and left out of the scores --------------------


@pytest.mark.realcli
def test_agentbench_run_records_an_endpoint_failure_as_infra_error(real_cli, capsys,
                                                                   tmp_path: Path) -> None:
    real_cli("claude")
    with RunningServer(Script(files=ONE_FILE, fail_status=429)) as server:
        config = tmp_path / "agentbench.toml"
        config.write_text(f'[agents.claude-code]\nenv = {{ ANTHROPIC_BASE_URL = "{server.url}", '
                          'ANTHROPIC_API_KEY = "sk-ant-scripted" }\n')
        started = time.monotonic()
        r = invoke(capsys, "run", "--agent", "claude-code", "--challenge", "easy/password-gen",
                   "--agents-config", str(config), "--results", str(tmp_path / "r"), "--retries", "1")
        elapsed = time.monotonic() - started
        requests = len(server.ledger.requests)
    results = loads_run((tmp_path / "r" / "claude-code.json").read_text())
    (trial,) = results.trials
    assert trial.status == "infra_error", (r.out, r.err, trial.error)
    assert not trial.scored and trial.adapter is not None and trial.adapter.infra_error
    assert requests >= 2 * 3  # tried twice (--retries 1), each time 1 request + 2 retries
    assert elapsed < 90
