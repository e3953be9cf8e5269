"""The `qwen` agent: Qwen Code (npm `@qwen-code/qwen-code`) run headless with `--output-format json`.

The prompt arrives on standard input, verbatim (with stdin piped and no prompt argument Qwen Code runs
one non-interactive turn on it); `--approval-mode yolo` approves every tool call (the default
approval mode, `auto`, would ask the model to classify each one). The model endpoint comes from the
environment: `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL` (or `--model`).

Each trial's HOME gets `~/.qwen/settings.json`: OpenAI-compatible authentication, folder trust off,
auto-update, usage statistics and telemetry off. Qwen Code keeps its chat recordings there too.

Usage comes from the final `result` element of the JSON array: `usage.input_tokens` /
`usage.output_tokens` (summed over every model call) and `num_turns`; `result` is the final message.
Qwen Code reports no cost.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from agentbench.adapters.cli_base import CommandAdapter, ErrorPattern, TrialSetup, Usage

_PROBLEM = re.compile(r"(?i)(^|\s)(error:|unknown arguments?:|unrecognized arguments?:|\w+Error\b)")


def problem_line(stderr: str) -> str:
    """The first line of `stderr` that names an error, else its last non-empty line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return next((line for line in lines if _PROBLEM.search(line)), lines[-1] if lines else "")[:300]


def render_settings() -> str:
    """The trial's `~/.qwen/settings.json`."""
    settings = {
        "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}},
        "general": {"enableAutoUpdate": False},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "tools": {"approvalMode": "yolo"},
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
    package = "@qwen-code/qwen-code"
    scripted_env = (("OPENAI_BASE_URL", "{url}/v1"), ("OPENAI_API_KEY", "sk-scripted"),
                    ("OPENAI_MODEL", "scripted"))
    passthrough_env = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "DASHSCOPE_API_KEY")
    error_patterns = (
        ErrorPattern(regex=r"\b401\b|Incorrect API key|invalid api[_ ]key|OPENAI_API_KEY"
                           r"|No auth type is selected|authentication",
                     kind="auth", message="the API key was refused or is missing (OPENAI_API_KEY)"),
        ErrorPattern(regex=r"\b429\b|rate limit|quota", kind="rate_limit",
                     message="rate limited or out of quota"),
        ErrorPattern(regex=r"\b404\b|model .*not (found|exist)", kind="model_not_found",
                     message="the model (or endpoint) was not found"),
        ErrorPattern(regex=r"ECONNREFUSED|Connection error|fetch failed|ENOTFOUND",
                     kind="connection", message="could not reach the model endpoint"),
    )

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
        (folder / "settings.json").write_text(render_settings(), encoding="utf-8")
        return {"QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"}

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
            turns=_int(result, "num_turns") or None,
            final_message=str(result.get("result") or "") if not failed else "",
            error=self.classified(_error_text(result)) if failed else None,
        )
