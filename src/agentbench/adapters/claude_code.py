"""The `claude-code` agent: Anthropic's Claude Code (`@anthropic-ai/claude-code`) run headless.

Command line: `claude -p --output-format stream-json --verbose --permission-mode bypassPermissions
[--model M]`, with the prompt on standard input (so a prompt starting with `-` is never read as an
option, and its length is not limited by the kernel's per-argument cap). Permission prompts are
bypassed so edits and shell commands in the workspace run unattended; Claude Code refuses that mode
as root unless `IS_SANDBOX=1`, which the adapter sets (each trial runs in its own workspace, HOME
and TMPDIR). Update checks, telemetry, error reporting and other non-essential traffic are turned
off with Claude Code's own environment variables, and a failing request is retried twice at most
(`CLAUDE_CODE_MAX_RETRIES`; its default, 10, spends minutes on a dead endpoint). The endpoint and key
come from `ANTHROPIC_BASE_URL` and `ANTHROPIC_API_KEY` (or `ANTHROPIC_AUTH_TOKEN`).

Claude Code reads `CLAUDE.md`, `CLAUDE.local.md` and `.claude/CLAUDE.md` (and `.claude/rules/`) in
every folder from the working directory up to `/`: the trial HOME's `~/.claude/settings.json`
excludes every one outside the workspace (`claudeMdExcludes: ["!<workspace>/**"]`), so a file left
above the trial folder never reaches the model.

Usage comes from the `result` line that ends the stream: its `modelUsage` (per model: main loop,
subagents and auxiliary calls) summed over models; input tokens count cache reads and cache writes
too. Cost is Claude Code's own `total_cost_usd` estimate and turns its `num_turns`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from agentbench.adapters.cli_base import (
    CommandAdapter,
    ErrorPattern,
    TrialSetup,
    Usage,
    json_events,
)
from agentbench.adapters.endpoint import ANTHROPIC, Endpoint
from agentbench.adapters.failures import AUTH, CONNECTION, RATE_LIMIT, SERVER_ERROR, RetryWatch
from agentbench.adapters.versions import NpmPackage

QUIET_ENV: dict[str, str] = {
    "IS_SANDBOX": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "CLAUDE_CODE_DISABLE_TERMINAL_TITLE": "1",
    "CLAUDE_CODE_MAX_RETRIES": "2",
}
"""Set for every trial: allow bypassed permissions as root, no traffic besides the model's, and
two retries of a failed model request at most."""

_GLOB_SPECIAL = re.compile(r"([*?\[\]{}()!+@\\])")


def render_settings(workspace: Path) -> str:
    """The trial HOME's `~/.claude/settings.json`: no CLAUDE.md from outside the workspace."""
    folder = _GLOB_SPECIAL.sub(r"\\\1", str(workspace))
    return json.dumps({"claudeMdExcludes": [f"!{folder}/**"]}, indent=2) + "\n"


_TAIL_LINES = 12
"""Lines at the end of stdout searched for error patterns (error events and the result line)."""

_INPUT_KEYS = ("inputTokens", "cacheReadInputTokens", "cacheCreationInputTokens")
_USAGE_INPUT_KEYS = ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


class ClaudeCodeAdapter(CommandAdapter):
    """Runs `claude -p` with stream-JSON output in the trial's workspace."""

    adapter_name = "claude-code"
    executable = "claude"
    package = "@anthropic-ai/claude-code (npm install -g @anthropic-ai/claude-code, or ci/install/claude-code.sh)"
    version_source = NpmPackage("@anthropic-ai/claude-code")
    scripted_env = (("ANTHROPIC_BASE_URL", "{url}"), ("ANTHROPIC_API_KEY", "sk-ant-scripted"))
    passthrough_env = (
        "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL",
        "ANTHROPIC_CUSTOM_HEADERS", "ANTHROPIC_SMALL_FAST_MODEL", "ANTHROPIC_DEFAULT_HAIKU_MODEL",
    )
    error_patterns = (
        ErrorPattern(regex=r'"error":\s*"authentication_failed"|authentication_error|invalid x-api-key'
                           r"|Invalid API key|Not logged in",
                     kind=AUTH, message="the API key was refused or is missing (ANTHROPIC_API_KEY)"),
        ErrorPattern(regex=r'"error":\s*"(?:rate_limit|billing_error|overloaded)"|rate_limit_error'
                           r"|Request rejected \(429\)",
                     kind=RATE_LIMIT, message="rate limited, overloaded or out of credit"),
        ErrorPattern(regex=r'"api_error_status":\s*5\d\d|API Error: 5\d\d|"error":\s*"server_error"',
                     kind=SERVER_ERROR, message="the model endpoint failed (HTTP 5xx)"),
        ErrorPattern(regex=r'"error":\s*"model_not_found"|issue with the selected model',
                     kind="model-not-found", message="the model does not exist at this endpoint"),
        ErrorPattern(regex=r"cannot be used with root/sudo privileges",
                     kind="config", message="bypassed permissions refused as root (IS_SANDBOX unset)"),
        ErrorPattern(regex=r'"subtype":\s*"api_retry"|Connection error|ECONNREFUSED|Unable to connect',
                     kind=CONNECTION, message="could not reach the model endpoint (ANTHROPIC_BASE_URL)"),
    )
    retry_watch = RetryWatch(regex=r'^\{"type":\s*"system",\s*"subtype":\s*"api_retry"')

    def endpoint(self, setup: TrialSetup) -> Endpoint | None:
        """The Anthropic API at `ANTHROPIC_BASE_URL` with `ANTHROPIC_API_KEY` (or the auth token)."""
        key = self.variable("ANTHROPIC_API_KEY") or self.variable("ANTHROPIC_AUTH_TOKEN")
        return Endpoint(protocol=ANTHROPIC, base_url=self.variable("ANTHROPIC_BASE_URL"), key=key)

    def build_argv(self, prompt: str, setup: TrialSetup) -> list[str]:
        """Headless, stream-JSON output, no permission prompts; the prompt goes on stdin."""
        argv = ["-p", "--output-format", "stream-json", "--verbose",
                "--permission-mode", "bypassPermissions"]
        if setup.model:
            argv += ["--model", setup.model]
        return argv

    def stdin_file(self, setup: TrialSetup) -> Path | None:
        """The prompt file: `claude -p` reads the prompt from standard input."""
        return setup.prompt_file

    def prepare(self, setup: TrialSetup) -> dict[str, str]:
        """`~/.claude/settings.json` in the trial HOME; quiet, sandbox-mode environment."""
        folder = setup.home / ".claude"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "settings.json").write_text(render_settings(setup.workspace.resolve()), encoding="utf-8")
        return dict(QUIET_ENV)

    def parse_output(self, stdout: str, stderr: str) -> Usage:
        """Usage, cost, turns and final message from the stream's last `result` line."""
        result = _last_result(stdout)
        if result is None:
            detail = f"no result line (cut short, killed or crashed); {_how_it_ended(stdout, stderr)}"
            return Usage(error=self._failure(stdout, stderr, detail))
        input_tokens, output_tokens = _tokens(result)
        cost, turns, message = result.get("total_cost_usd"), result.get("num_turns"), result.get("result")
        error = None
        if result.get("is_error") or result.get("subtype") != "success":
            error = self._failure(stdout, stderr, _error_text(result))
        cache_read, cache_write = _cache_tokens(result)
        return Usage(input_tokens=input_tokens, output_tokens=output_tokens,
                     cache_read_tokens=cache_read, cache_write_tokens=cache_write,
                     cost_usd=float(cost) if isinstance(cost, (int, float)) else None,
                     turns=turns if isinstance(turns, int) else None,
                     final_message=message if isinstance(message, str) else "", error=error)

    def _failure(self, stdout: str, stderr: str, detail: str) -> str:
        """`kind: message (detail)` from the first error pattern matching the end of the output.

        Only the last lines are searched: earlier ones hold the agent's own work (tool inputs and
        results), which may mention `rate_limit_error` or `Invalid API key` without being an error.
        """
        transcript = "\n".join(stdout.splitlines()[-_TAIL_LINES:]) + "\n" + stderr
        for pattern in self.error_patterns:
            if re.search(pattern.regex, transcript, re.IGNORECASE | re.MULTILINE):
                return f"{pattern.kind}: {pattern.message} ({detail})"
        return f"Claude Code failed: {detail}"


def _last_result(stdout: str) -> dict[str, Any] | None:
    """The last `{"type": "result", ...}` line of a stream-JSON transcript (garbage lines skipped)."""
    results = [event for event in json_events(stdout) if event["type"] == "result"]
    return results[-1] if results else None


def _tokens(result: dict[str, Any]) -> tuple[int | None, int | None]:
    """(input, output) summed over `modelUsage`; the main-loop `usage` when that is absent."""
    per_model = result.get("modelUsage")
    if isinstance(per_model, dict) and per_model:
        models = [m for m in per_model.values() if isinstance(m, dict)]
        return (sum(_int(m, k) for m in models for k in _INPUT_KEYS),
                sum(_int(m, "outputTokens") for m in models))
    usage = result.get("usage")
    if isinstance(usage, dict):
        return sum(_int(usage, k) for k in _USAGE_INPUT_KEYS), _int(usage, "output_tokens")
    return None, None


def _cache_tokens(result: dict[str, Any]) -> tuple[int | None, int | None]:
    """(cache reads, cache writes) summed over `modelUsage`, else from the main-loop `usage`."""
    per_model = result.get("modelUsage")
    if isinstance(per_model, dict) and per_model:
        models = [m for m in per_model.values() if isinstance(m, dict)]
        return (sum(_int(m, "cacheReadInputTokens") for m in models),
                sum(_int(m, "cacheCreationInputTokens") for m in models))
    usage = result.get("usage")
    if isinstance(usage, dict):
        return _int(usage, "cache_read_input_tokens"), _int(usage, "cache_creation_input_tokens")
    return None, None


def _int(mapping: dict[str, Any], key: str) -> int:
    value = mapping.get(key)
    return value if isinstance(value, int) else 0


def _error_text(result: dict[str, Any]) -> str:
    errors = result.get("errors")
    if isinstance(errors, list) and errors:
        text = "; ".join(str(e) for e in errors)
    else:
        text = str(result.get("result") or "no detail")
    status = result.get("api_error_status")
    prefix = f"{result.get('subtype')}, HTTP {status}" if status else str(result.get("subtype"))
    return f"{prefix}: {text}"[:500]


def _how_it_ended(stdout: str, stderr: str) -> str:
    """The last stream event's type (or the last line of stderr or stdout) of an unfinished run."""
    stream = json_events(stdout)
    last_event = "/".join(str(stream[-1][k]) for k in ("type", "subtype") if k in stream[-1]) if stream else ""
    lines = [line.strip() for line in (stdout + "\n" + stderr).splitlines() if line.strip()]
    if last_event:
        return f"last event: {last_event}"
    return f"last line: {lines[-1][:300]}" if lines else "no output"
