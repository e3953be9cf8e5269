"""The `gemini` agent: Google's Gemini CLI (`@google/gemini-cli`) run headless with `--output-format json`.

Each trial's HOME gets a `.gemini/settings.json` that selects API-key authentication (Vertex AI when
`GOOGLE_GENAI_USE_VERTEXAI=true`) and switches off auto-update, update notifications, usage
statistics and telemetry. A failed model request is tried `MAX_ATTEMPTS` times in all (not ten, 5 to
30 s apart) and a refused connection is not retried (`general.retryFetchErrors`). GEMINI.md files are
read from the workspace only: `context.memoryBoundaryMarkers = []` stops the upward search that by
default reads every GEMINI.md up to the nearest `.git`. The command line trusts the workspace for this run only (`--skip-trust`;
headless Gemini CLI refuses to run in an untrusted folder) and auto-approves every tool call
(`--approval-mode yolo`). The prompt is one argv element (`--prompt=<text>`, so a prompt starting
with `-` is never read as an option). `GOOGLE_GEMINI_BASE_URL` points the CLI at another endpoint,
e.g. AgentBench's scripted model server.

Usage comes from the JSON result's `stats.models` (tokens per model, summed; no cost is reported).
On failure the CLI writes its JSON error document to standard error, not standard output.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from agentbench.adapters.cli_base import CommandAdapter, ErrorPattern, TrialSetup, Usage
from agentbench.adapters.endpoint import GEMINI, Endpoint
from agentbench.adapters.failures import AUTH, CONNECTION, RATE_LIMIT, SERVER_ERROR, RetryWatch
from agentbench.adapters.versions import NpmPackage

API_KEY_AUTH = "gemini-api-key"
"""`security.auth.selectedType` for a Gemini API key (`GEMINI_API_KEY`)."""

VERTEX_AUTH = "vertex-ai"
"""`security.auth.selectedType` for Vertex AI (`GOOGLE_GENAI_USE_VERTEXAI=true`)."""

MAX_ATTEMPTS = 2
"""Attempts at one model request (`general.maxAttempts`; Gemini CLI waits 5 s before the second)."""


def render_settings(auth_type: str) -> str:
    """The trial's `~/.gemini/settings.json`."""
    settings = {
        "security": {"auth": {"selectedType": auth_type}},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False,
                    "maxAttempts": MAX_ATTEMPTS, "retryFetchErrors": False},
        "context": {"memoryBoundaryMarkers": []},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
    }
    return json.dumps(settings, indent=2) + "\n"


def _documents(text: str) -> list[dict[str, Any]]:
    """JSON objects that start at the beginning of a line in `text` (pretty-printed or not)."""
    decoder = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    for match in re.finditer(r"^\{", text, re.MULTILINE):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(value, dict) and ("response" in value or "error" in value or "stats" in value):
            found.append(value)
    return found


def result_document(stdout: str, stderr: str) -> dict[str, Any] | None:
    """Gemini CLI's JSON result: the last one on stdout, else (errors) the last one on stderr."""
    for text in (stdout, stderr):
        documents = _documents(text)
        if documents:
            return documents[-1]
    return None


def _count(section: Any, key: str) -> int:
    value = section.get(key) if isinstance(section, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def token_totals(stats: Any) -> tuple[int, int, int] | None:
    """(input, output, model requests) summed over `stats.models`, or None when there are none.

    Input is every prompt token (`prompt`, cached ones included, plus `tool`: tool-use prompt
    tokens); output is `candidates` plus `thoughts` (thinking tokens, billed as output).
    """
    models = stats.get("models") if isinstance(stats, dict) else None
    if not isinstance(models, dict) or not models:
        return None
    input_tokens = output_tokens = requests = 0
    for metrics in models.values():
        if not isinstance(metrics, dict):
            continue
        tokens, api = metrics.get("tokens"), metrics.get("api")
        input_tokens += _count(tokens, "prompt") + _count(tokens, "tool")
        output_tokens += _count(tokens, "candidates") + _count(tokens, "thoughts")
        requests += _count(api, "totalRequests")
    return input_tokens, output_tokens, requests


def cached_tokens(stats: Any) -> int | None:
    """Prompt tokens served from the cache (`tokens.cached`), summed over `stats.models`."""
    models = stats.get("models") if isinstance(stats, dict) else None
    if not isinstance(models, dict) or not models:
        return None
    return sum(_count(m.get("tokens"), "cached") for m in models.values() if isinstance(m, dict))


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        return str(error.get("message") or error.get("type") or "error")
    return str(error)


class GeminiAdapter(CommandAdapter):
    """Runs `gemini --prompt=... --output-format json --approval-mode yolo --skip-trust`."""

    adapter_name = "gemini"
    executable = "gemini"
    package = "@google/gemini-cli (npm install -g @google/gemini-cli on Node >= 22, or ci/install/gemini.sh)"
    version_source = NpmPackage("@google/gemini-cli")
    scripted_env = (("GOOGLE_GEMINI_BASE_URL", "{url}"), ("GEMINI_API_KEY", "scripted-key"))
    passthrough_env = ("GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL",
                       "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION",
                       "GOOGLE_APPLICATION_CREDENTIALS")
    error_patterns = (
        ErrorPattern(regex=r"API key not valid|API_KEY_INVALID|UNAUTHENTICATED|PERMISSION_DENIED"
                           r"|must specify the GEMINI_API_KEY|Invalid auth method",
                     kind=AUTH, message="the API key was refused or is missing (GEMINI_API_KEY)"),
        ErrorPattern(regex=r"RESOURCE_EXHAUSTED|\b429\b|Quota exceeded|rate limit",
                     kind=RATE_LIMIT, message="rate limited or out of quota"),
        ErrorPattern(regex=r"ModelNotFoundError|models/\S+ is not found|\bNOT_FOUND\b",
                     kind="model_not_found", message="the model (or endpoint) was not found"),
        ErrorPattern(regex=r"not running in a trusted directory",
                     kind="config", message="the workspace folder is not trusted"),
        ErrorPattern(regex=r"fetch failed|ECONNREFUSED|ENOTFOUND",
                     kind=CONNECTION, message="could not reach the model endpoint"),
        ErrorPattern(regex=r"failed with status 5\d\d|\bstatus: 5\d\d|\b(?:UNAVAILABLE|INTERNAL)\b",
                     kind=SERVER_ERROR, message="the model endpoint failed (HTTP 5xx)"),
    )
    retry_watch = RetryWatch(regex=r"^Attempt \d+ failed with status \d+\. Retrying")

    def endpoint(self, setup: TrialSetup) -> Endpoint | None:
        """The Gemini API at `GOOGLE_GEMINI_BASE_URL` with `GEMINI_API_KEY` (None for Vertex AI)."""
        if self.auth_type() == VERTEX_AUTH:
            return None
        key = self.variable("GEMINI_API_KEY") or self.variable("GOOGLE_API_KEY")
        return Endpoint(protocol=GEMINI, base_url=self.variable("GOOGLE_GEMINI_BASE_URL"), key=key)

    def build_argv(self, prompt: str, setup: TrialSetup) -> list[str]:
        """Headless (`--prompt=`), JSON result, every tool auto-approved, workspace trusted."""
        model = ["--model", setup.model] if setup.model else []
        return [f"--prompt={prompt}", "--output-format", "json", "--approval-mode", "yolo",
                "--skip-trust", *model]

    def auth_type(self) -> str:
        """Vertex AI when `GOOGLE_GENAI_USE_VERTEXAI=true` (agents config env, else user env)."""
        configured = dict(self.config.env).get("GOOGLE_GENAI_USE_VERTEXAI")
        vertex = configured if configured is not None else os.environ.get("GOOGLE_GENAI_USE_VERTEXAI")
        return VERTEX_AUTH if (vertex or "").lower() == "true" else API_KEY_AUTH

    def prepare(self, setup: TrialSetup) -> dict[str, str]:
        """Write `<home>/.gemini/settings.json` (auth type; updates, statistics, telemetry off)."""
        folder = setup.home / ".gemini"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "settings.json").write_text(render_settings(self.auth_type()), encoding="utf-8")
        return {}

    def _classified(self, message: str, transcript: str) -> str:
        """`kind: message`, the kind found in the message, else in the rest of the transcript."""
        for text in (message, transcript):
            for pattern in self.error_patterns:
                if re.search(pattern.regex, text, re.IGNORECASE | re.MULTILINE):
                    return f"{pattern.kind}: {message}"
        return message

    def parse_output(self, stdout: str, stderr: str) -> Usage:
        """Tokens and model requests from `stats.models`; `response` is the final message."""
        document = result_document(stdout, stderr)
        if document is None:
            tail = next((line.strip() for line in reversed(stderr.splitlines()) if line.strip()), "")
            detail = f" (last line of stderr: {tail[:300]})" if tail else ""
            return Usage(error=self._classified(f"no Gemini CLI JSON result in the output{detail}",
                                                stdout + stderr))
        totals = token_totals(document.get("stats"))
        error = document.get("error")
        return Usage(
            input_tokens=totals[0] if totals else None,
            output_tokens=totals[1] if totals else None,
            cache_read_tokens=cached_tokens(document.get("stats")),
            turns=(totals[2] or None) if totals else None,
            final_message=str(document.get("response") or ""),
            error=self._classified(_error_text(error), stderr) if error else None,
        )
