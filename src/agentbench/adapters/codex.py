"""The `codex` agent: OpenAI's Codex CLI (`@openai/codex`) run headless with `codex exec --json`.

Each trial gets its own `CODEX_HOME` (under the trial's HOME) holding a `config.toml` that selects
a Responses-API model provider: `base_url` from `OPENAI_BASE_URL` (the agents config's `env`, else
the user's environment, else https://api.openai.com/v1) and the key from `OPENAI_API_KEY`; update
checks, analytics, feedback and OpenTelemetry export are off, and approvals are never asked for.
Every feature that reaches beyond the model endpoint is switched off (`NETWORK_FEATURES`: plugins
and their startup sync from GitHub and chatgpt.com, apps and connectors, browser and computer use,
the background daemon, web search...), so the CLI contacts nothing but the configured base URL; a
failed request is retried twice (`request_max_retries`, `stream_max_retries`) and a refused
connection is not retried without end (`unbounded_connection_retries` off).
`project_root_markers = []` makes the workspace its own project root: Codex then reads `AGENTS.md`
from the workspace only, never from a folder above it (by default it walks up to a `.git`).
The prompt goes on standard input (`codex exec ... -`), so a prompt starting with `-` is never read
as an option. Edits and commands run in Codex's own `workspace-write` sandbox.

Usage comes from the `turn.completed` events of the JSONL output (tokens only: Codex reports no cost).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from agentbench import process
from agentbench.adapters.cli_base import (
    CommandAdapter,
    ErrorPattern,
    TrialSetup,
    Usage,
    json_events,
)
from agentbench.adapters.endpoint import OPENAI, Endpoint
from agentbench.adapters.failures import AUTH, CONNECTION, RATE_LIMIT, SERVER_ERROR, RetryWatch
from agentbench.adapters.versions import NpmPackage

DEFAULT_BASE_URL = "https://api.openai.com/v1"
"""Where the model provider points when `OPENAI_BASE_URL` is not set."""

PROVIDER_ID = "agentbench"
"""The model provider's id in the trial's config.toml."""

KEY_VARIABLE = "OPENAI_API_KEY"
"""The environment variable Codex reads the API key from (the provider's `env_key`)."""

BASE_URL_VARIABLE = "OPENAI_BASE_URL"
"""The environment variable naming the Responses API base URL (ending in /v1)."""

NETWORK_FEATURES = (
    "apps", "browser_use", "browser_use_external", "browser_use_full_cdp_access", "computer_use",
    "daemon_auto_start", "in_app_browser", "in_app_chat", "in_app_dictation",
    "in_app_local_automation", "in_app_updates", "in_app_voice", "plugin_sharing", "plugins",
    "remote_plugin", "skill_mcp_dependency_install", "system_proxy_fallback", "tool_suggest",
    "unbounded_connection_retries",
)
"""Codex features (`codex features list`) switched off per trial: each reaches beyond the model
endpoint (GitHub, chatgpt.com, a browser, a daemon) or retries a dead endpoint without end."""

MAX_RETRIES = 2
"""Retries of a failed model request (Codex's `request_max_retries` and `stream_max_retries`)."""

_CONFIG = """\
# Written by AgentBench for one trial.
model_provider = "{provider}"
approval_policy = "never"
check_for_update_on_startup = false
project_root_markers = []
web_search = "disabled"

[features]
{features}

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"

[model_providers.{provider}]
name = "AgentBench ({provider})"
base_url = {base_url}
env_key = "{key_variable}"
wire_api = "responses"
request_max_retries = {retries}
stream_max_retries = {retries}
"""


def render_config(base_url: str) -> str:
    """The trial's `$CODEX_HOME/config.toml` (the URL as a TOML basic string)."""
    features = "\n".join(f"{name} = false" for name in NETWORK_FEATURES)
    return _CONFIG.format(provider=PROVIDER_ID, base_url=json.dumps(base_url), key_variable=KEY_VARIABLE,
                          features=features, retries=MAX_RETRIES)


def _count(usage: Any, key: str) -> int:
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _fatal_message(event: dict[str, Any]) -> str | None:
    """The message of a `turn.failed` event, else None."""
    if event["type"] != "turn.failed":
        return None
    error = event.get("error")
    message = error.get("message") if isinstance(error, dict) else None
    return str(message or "turn failed")


def _last_error(events: list[dict[str, Any]]) -> str | None:
    """The last top-level `error` event's message (e.g. `Reconnecting... 3/5 (...)`), if any."""
    messages = [str(e.get("message") or "error") for e in events if e["type"] == "error"]
    return messages[-1] if messages else None


def _stderr_tail(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return lines[-1][:500] if lines else "nothing on stderr"


class CodexAdapter(CommandAdapter):
    """Runs `codex exec --json` against the configured Responses API endpoint."""

    adapter_name = "codex"
    executable = "codex"
    package = "@openai/codex (npm install -g @openai/codex, or ci/install/codex.sh)"
    version_source = NpmPackage("@openai/codex")
    scripted_env = (("OPENAI_BASE_URL", "{url}/v1"), ("OPENAI_API_KEY", "sk-scripted"))
    passthrough_env = (KEY_VARIABLE, BASE_URL_VARIABLE)
    error_patterns = (
        ErrorPattern(regex=r"\b401 Unauthorized\b|\b403 Forbidden\b|invalid_api_key|Incorrect API key",
                     kind=AUTH, message="the API key was refused"),
        ErrorPattern(regex=r"Missing environment variable: `?OPENAI_API_KEY",
                     kind=AUTH, message="OPENAI_API_KEY is not set"),
        ErrorPattern(regex=r"\b429 Too Many Requests\b|rate limit|usage_limit_reached|quota",
                     kind=RATE_LIMIT, message="rate limited or out of quota"),
        ErrorPattern(regex=r"(?:unexpected|last) status:? 5\d\d\b",
                     kind=SERVER_ERROR, message="the model endpoint failed (HTTP 5xx)"),
        ErrorPattern(regex=r"model_not_found|model .* does not exist|\b404 Not Found\b",
                     kind="model_not_found", message="the model (or endpoint) was not found"),
        ErrorPattern(regex=r"error sending request|waiting for network|Connection refused|"
                           r"stream disconnected",
                     kind=CONNECTION, message="could not reach the model endpoint"),
    )
    retry_watch = RetryWatch(regex=r'^\{"type":"error","message":"Reconnecting\.\.\.')

    def endpoint(self, setup: TrialSetup) -> Endpoint | None:
        """The Responses API at `base_url()` with `OPENAI_API_KEY`."""
        return Endpoint(protocol=OPENAI, base_url=self.base_url(), key=self.variable(KEY_VARIABLE))

    def build_argv(self, prompt: str, setup: TrialSetup) -> list[str]:
        """`exec --json ... -`: headless, JSONL events, prompt on stdin, sandboxed to the workspace."""
        model = ["--model", setup.model] if setup.model else []
        return ["exec", "--json", "--color", "never", "--skip-git-repo-check",
                "--sandbox", "workspace-write", "--cd", str(setup.workspace.resolve()), *model, "-"]

    def stdin_file(self, setup: TrialSetup) -> Path | None:
        """The prompt file (`codex exec -` reads the prompt from standard input)."""
        return setup.prompt_file

    def base_url(self) -> str:
        """The Responses API base URL: the agents config's env, the user's env, else OpenAI's."""
        configured = dict(self.config.env).get(BASE_URL_VARIABLE)
        return configured or os.environ.get(BASE_URL_VARIABLE) or DEFAULT_BASE_URL

    def prepare(self, setup: TrialSetup) -> dict[str, str]:
        """Write `<home>/.codex/config.toml` and point `CODEX_HOME` at it."""
        codex_home = setup.home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        (codex_home / "config.toml").write_text(render_config(self.base_url()), encoding="utf-8")
        return {"CODEX_HOME": str(codex_home)}

    def parse_output(self, stdout: str, stderr: str) -> Usage:
        """Tokens summed over `turn.completed` events; the last `agent_message` is the final message.

        A `turn.failed` event is an error. `error` events are not: Codex also emits them for retries
        (`Reconnecting... 2/5 (...)`) that may succeed. A run with neither a completed nor a failed
        turn was killed or crashed: the exit status tells (see `classify`).
        """
        events = json_events(stdout)
        if not events:
            return Usage(error=self.explain(f"no Codex JSON events in the output; {_stderr_tail(stderr)}"))
        input_tokens = output_tokens = cached = turns = 0
        final, fatal = "", None
        for event in events:
            if event["type"] == "turn.completed":
                turns += 1
                input_tokens += _count(event.get("usage"), "input_tokens")
                output_tokens += _count(event.get("usage"), "output_tokens")
                cached += _count(event.get("usage"), "cached_input_tokens")
            item = event.get("item")
            if event["type"] == "item.completed" and isinstance(item, dict) \
                    and item.get("type") == "agent_message":
                final = str(item.get("text") or "")
            fatal = _fatal_message(event) or fatal
        return Usage(input_tokens=input_tokens if turns else None,
                     output_tokens=output_tokens if turns else None, turns=turns or None,
                     cache_read_tokens=cached if turns else None,
                     final_message=final, error=self.explain(fatal) if fatal else None)

    def classify(self, transcript: str, result: process.ProcessResult) -> str:
        """The base's reason (time limit, error pattern, exit status) plus Codex's last error event."""
        reason = super().classify(transcript, result)
        last = _last_error(json_events(transcript))
        return f"{reason}; last Codex error: {last[:500]}" if last else reason

    def explain(self, detail: str) -> str:
        """`kind: message (detail)` when an error pattern matches `detail`, else `detail`."""
        for pattern in self.error_patterns:
            if re.search(pattern.regex, detail, re.IGNORECASE):
                return f"{pattern.kind}: {pattern.message} ({detail[:1000]})"
        return detail[:1000]
