"""The `qwen` agent: Qwen Code (npm `@qwen-code/qwen-code`) run headless with `--output-format json`.

The prompt arrives on standard input, verbatim (with stdin piped and no prompt argument Qwen Code runs
one non-interactive turn on it); `--approval-mode yolo` approves every tool call (the default
approval mode, `auto`, would ask the model to classify each one). The model endpoint comes from the
environment: `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL` (or `--model`).

Each trial's HOME gets `~/.qwen/settings.json`: OpenAI-compatible authentication, folder trust off,
auto-update, usage statistics and telemetry off, and no retries inside one attempt at a model
request (`model.generationConfig.maxRetries`; by default rate limits alone are retried ten times, a
minute apart).
Qwen Code keeps its chat recordings there too.

Qwen Code reads `QWEN.md` and `AGENTS.md` in every folder from the working directory up to the git
root (or the parent of HOME) and has no setting to stop at the workspace; the settings name a context
file that exists nowhere (`context.fileName`, random per trial), so it reads none.

Qwen Code retries a failed request seven times (1.5 s doubling) and prints nothing while it does;
its debug log (`QWEN_DEBUG_LOG_FILE`, in the trial HOME's `.qwen/debug/`) says `[RETRY] Attempt N
failed`, and the harness follows that log (`retry_log_folder`).

Usage comes from the final `result` element of the JSON array: `usage.input_tokens` /
`usage.output_tokens` (summed over every model call) and `num_turns`; `result` is the final message.
Qwen Code reports no cost.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

from agentbench.adapters.cli_base import CommandAdapter, ErrorPattern, TrialSetup, Usage
from agentbench.adapters.endpoint import OPENAI, Endpoint
from agentbench.adapters.failures import AUTH, CONNECTION, RATE_LIMIT, SERVER_ERROR, RetryWatch
from agentbench.adapters.versions import NpmPackage

MAX_RETRIES = 0
"""Retries inside one attempt (`model.generationConfig.maxRetries`: the OpenAI client's own and the
rate-limit loop's); Qwen Code's outer loop still tries seven times, watched by the harness."""

_PROBLEM = re.compile(r"(?i)(^|\s)(error:|unknown arguments?:|unrecognized arguments?:|\w+Error\b)")


def problem_line(stderr: str) -> str:
    """The first line of `stderr` that names an error, else its last non-empty line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return next((line for line in lines if _PROBLEM.search(line)), lines[-1] if lines else "")[:300]


def render_settings(context_file: str = "QWEN.md") -> str:
    """The trial's `~/.qwen/settings.json` (`context_file`: the only instruction file name read)."""
    settings = {
        "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}},
        "general": {"enableAutoUpdate": False},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "tools": {"approvalMode": "yolo"},
        "model": {"generationConfig": {"maxRetries": MAX_RETRIES}},
        "context": {"fileName": [context_file]},
    }
    return json.dumps(settings, indent=2) + "\n"


def _elements(stdout: str) -> list[dict[str, Any]]:
    """The output's JSON objects: one array (`json`) or one object a line (`stream-json`)."""
    decoder = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith(("[", "{")):
            continue
        try:
            value, _ = decoder.raw_decode(line)
        except ValueError:
            continue
        items = value if isinstance(value, list) else [value]
        found.extend(item for item in items if isinstance(item, dict))
    return found


def result_element(stdout: str) -> dict[str, Any] | None:
    """The last `{"type": "result", ...}` element, or None."""
    results = [e for e in _elements(stdout) if e.get("type") == "result"]
    return results[-1] if results else None


def _int(mapping: Any, key: str) -> int | None:
    value = mapping.get(key) if isinstance(mapping, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _error_text(result: dict[str, Any]) -> str:
    error = result.get("error")
    if isinstance(error, dict):
        return str(error.get("message") or error.get("type") or "error")
    return str(error or result.get("result") or result.get("subtype") or "error")


class QwenCodeAdapter(CommandAdapter):
    """Runs `qwen --output-format json --approval-mode yolo [--model M] < prompt`."""

    adapter_name = "qwen"
    executable = "qwen"
    package = "@qwen-code/qwen-code (npm install -g @qwen-code/qwen-code on Node >= 22, or ci/install/qwen.sh)"
    version_source = NpmPackage("@qwen-code/qwen-code")
    scripted_env = (("OPENAI_BASE_URL", "{url}/v1"), ("OPENAI_API_KEY", "sk-scripted"),
                    ("OPENAI_MODEL", "scripted"))
    passthrough_env = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "DASHSCOPE_API_KEY")
    error_patterns = (
        ErrorPattern(regex=r"\b401\b|Incorrect API key|invalid api[_ ]key|OPENAI_API_KEY"
                           r"|No auth type is selected|authentication",
                     kind=AUTH, message="the API key was refused or is missing (OPENAI_API_KEY)"),
        ErrorPattern(regex=r"\b429\b|rate limit|quota", kind=RATE_LIMIT,
                     message="rate limited or out of quota"),
        ErrorPattern(regex=r"\b404\b|model .*not (found|exist)", kind="model_not_found",
                     message="the model (or endpoint) was not found"),
        ErrorPattern(regex=r"ECONNREFUSED|Connection error|fetch failed|ENOTFOUND",
                     kind=CONNECTION, message="could not reach the model endpoint"),
        ErrorPattern(regex=r"API Error: 5\d\d|\bstatus(?: code)?:? 5\d\d",
                     kind=SERVER_ERROR, message="the model endpoint failed (HTTP 5xx)"),
    )

    retry_watch = RetryWatch(regex=r"\[RETRY\] Attempt \d+ failed|Waiting for API capacity")
    retry_log_folder = ".qwen/debug"

    def endpoint(self, setup: TrialSetup) -> Endpoint | None:
        """The OpenAI-compatible API at `OPENAI_BASE_URL` with `OPENAI_API_KEY`."""
        return Endpoint(protocol=OPENAI, base_url=self.variable("OPENAI_BASE_URL"),
                        key=self.variable("OPENAI_API_KEY"))

    def build_argv(self, prompt: str, setup: TrialSetup) -> list[str]:
        """JSON output, every tool approved, the model; the prompt comes on stdin."""
        model = ["--model", setup.model] if setup.model else []
        return ["--output-format", "json", "--approval-mode", "yolo", *model]

    def stdin_file(self, setup: TrialSetup) -> Path | None:
        """The prompt file (the one non-interactive prompt)."""
        return setup.prompt_file

    def prepare(self, setup: TrialSetup) -> dict[str, str]:
        """Write `<home>/.qwen/settings.json`; silence the headless-yolo notice."""
        folder = setup.home / ".qwen"
        folder.mkdir(parents=True, exist_ok=True)
        context_file = f"AGENTBENCH-NO-CONTEXT-{uuid.uuid4().hex}.md"
        (folder / "settings.json").write_text(render_settings(context_file), encoding="utf-8")
        return {"QWEN_CODE_SUPPRESS_YOLO_WARNING": "1", "QWEN_DEBUG_LOG_FILE": "1"}

    def classified(self, message: str) -> str:
        """`kind: message` when an error pattern matches the message, else the message."""
        for pattern in self.error_patterns:
            if re.search(pattern.regex, message, re.IGNORECASE | re.MULTILINE):
                return f"{pattern.kind}: {message}"
        return message

    def parse_output(self, stdout: str, stderr: str) -> Usage:
        """Tokens and turns from the `result` element; its `result` is the final message."""
        result = result_element(stdout)
        if result is None:
            line = problem_line(stderr)
            detail = f" (stderr: {line})" if line else ""
            return Usage(error=self.classified(f"no Qwen Code JSON result in the output{detail}"))
        usage = result.get("usage")
        failed = bool(result.get("is_error")) or result.get("subtype") not in (None, "success")
        return Usage(
            input_tokens=_int(usage, "input_tokens"),
            output_tokens=_int(usage, "output_tokens"),
            cache_read_tokens=_int(usage, "cache_read_input_tokens"),
            turns=_int(result, "num_turns") or None,
            final_message=str(result.get("result") or "") if not failed else "",
            error=self.classified(_error_text(result)) if failed else None,
        )
