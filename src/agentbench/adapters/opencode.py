"""The `opencode` agent: OpenCode (npm `opencode-ai`) run headless with `opencode run --format json`.

The prompt arrives on standard input, verbatim (`opencode run` quotes message arguments that contain
spaces before the model sees them, and reads a piped stdin as the message). `--title` names the
session, which also skips the extra model call OpenCode makes to generate a title.

Each trial's HOME gets `~/.config/opencode/opencode.json` (`XDG_CONFIG_HOME` points there): edits,
shell commands and web fetches allowed (anything that would still ask, e.g. a path outside the
workspace, is auto-rejected by `opencode run`), auto-update and sharing off. When `OPENAI_BASE_URL`
is set (agents config `env`, else the user's environment) the file also declares an OpenAI-compatible
provider `agentbench` at that URL (key: `OPENAI_API_KEY`) serving the requested model (else
`OPENAI_MODEL`), e.g.
AgentBench's scripted model server. At start OpenCode installs `@opencode-ai/plugin` into its config
folder with its bundled npm: an `.npmrc` there with `offline=true` keeps that install (which is only
needed by user-written plugins) off the network; it fails quietly. `OPENCODE_DISABLE_MODELS_FETCH`
keeps it on its bundled models.dev snapshot.

OpenCode reads `AGENTS.md` (and `CLAUDE.md`) and `opencode.json` in every folder from the working
directory up to the project root (`/` outside a git repository): `OPENCODE_DISABLE_PROJECT_CONFIG`
switches that search off (the trial's own config folder is the only config), and
`OPENCODE_DISABLE_CLAUDE_CODE` its reading of Claude Code's files. External and default plugins and
skills, sharing and the models.dev download are off too, so it contacts nothing but the endpoint.

OpenCode retries a failed model request five times, 2 to 30 s apart, and says nothing about it in its
JSON events; with `--print-logs --log-level ERROR` each failed attempt is a `stream error` line on
stderr, which the harness watches (`retry_watch`).

Usage is the sum of the `step_finish` events (one per model call): input counts cache reads and
writes too; cost is what OpenCode computed from its model prices (0 for a model without prices).
"""

from __future__ import annotations

import json
import os
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
from agentbench.adapters.endpoint import ANTHROPIC, GEMINI, OPENAI, Endpoint
from agentbench.adapters.failures import AUTH, CONNECTION, RATE_LIMIT, SERVER_ERROR, RetryWatch
from agentbench.adapters.versions import NpmPackage
from agentbench.errors import ConfigError
from agentbench.pricing import CallTokens

PROVIDER_ID = "agentbench"
"""The provider declared for an OpenAI-compatible endpoint (`OPENAI_BASE_URL`)."""

BASE_URL_VARIABLE = "OPENAI_BASE_URL"
"""The variable that points OpenCode at an OpenAI-compatible endpoint."""

MODEL_VARIABLE = "OPENAI_MODEL"
"""The endpoint's model when none is configured (as Qwen Code and other OpenAI-compatible CLIs read it)."""

SESSION_TITLE = "agentbench trial"
"""Session title given on the command line (saves the title-generation model call)."""

NPMRC = "offline=true\naudit=false\nfund=false\nupdate-notifier=false\n"
"""npm settings for OpenCode's own dependency install in its config folder."""

QUIET_ENV = {
    "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1", "OPENCODE_DISABLE_PROJECT_CONFIG": "1",
    "OPENCODE_DISABLE_CLAUDE_CODE": "1", "OPENCODE_DISABLE_EXTERNAL_SKILLS": "1",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1", "OPENCODE_PURE": "1", "OPENCODE_DISABLE_SHARE": "1",
}
"""Set for every trial: no update, download, share or plugin traffic, and no instruction or config
file from the folders above the workspace."""


_PROBLEM = re.compile(r"(?i)(^|\s)(error:|unknown arguments?:|unrecognized arguments?:|\w+Error\b)")


def problem_line(stderr: str) -> str:
    """The first line of `stderr` that names an error, else its last non-empty line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return next((line for line in lines if _PROBLEM.search(line)), lines[-1] if lines else "")[:300]


def model_ref(model: str, base_url: str | None) -> str:
    """`provider/model` for `--model`: under `agentbench/` when a custom endpoint is configured."""
    if base_url:
        return f"{PROVIDER_ID}/{model.removeprefix(PROVIDER_ID + '/')}"
    return model


def render_config(base_url: str | None, model: str | None) -> dict[str, Any]:
    """The trial's `opencode.json`."""
    config: dict[str, Any] = {
        "$schema": "https://opencode.ai/config.json",
        "autoupdate": False,
        "share": "disabled",
        "permission": {"edit": "allow", "bash": "allow", "webfetch": "allow"},
    }
    if base_url:
        if not model:
            raise ConfigError(f"opencode: {BASE_URL_VARIABLE} is set but no model is",
                              f"give --model (or `model` in the agents config, or {MODEL_VARIABLE})")
        model_id = model.removeprefix(PROVIDER_ID + "/")
        config["provider"] = {PROVIDER_ID: {
            "npm": "@ai-sdk/openai-compatible", "name": "AgentBench endpoint",
            "options": {"baseURL": base_url, "apiKey": "{env:OPENAI_API_KEY}"},
            "models": {model_id: {"name": model_id}},
        }}
    if model:
        config["model"] = model_ref(model, base_url)
    return config


def _number(mapping: Any, key: str) -> float:
    value = mapping.get(key) if isinstance(mapping, dict) else None
    return value if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _error_text(event: dict[str, Any]) -> str:
    error = event.get("error")
    if isinstance(error, dict):
        data = error.get("data")
        message = data.get("message") if isinstance(data, dict) else None
        status = data.get("statusCode") if isinstance(data, dict) else None
        text = str(message or error.get("message") or error.get("name") or "error")
        return f"{text} (HTTP {status})" if isinstance(status, int) else text
    return str(error or "error")


class OpenCodeAdapter(CommandAdapter):
    """Runs `opencode run --format json --title ... [--model provider/model] < prompt`."""

    adapter_name = "opencode"
    executable = "opencode"
    package = "opencode-ai (npm install -g opencode-ai, or ci/install/opencode.sh)"
    version_source = NpmPackage("opencode-ai")
    scripted_env = ((BASE_URL_VARIABLE, "{url}/v1"), ("OPENAI_API_KEY", "sk-scripted"),
                    (MODEL_VARIABLE, "scripted"))
    passthrough_env = ("OPENAI_API_KEY", BASE_URL_VARIABLE, MODEL_VARIABLE, "ANTHROPIC_API_KEY",
                       "GOOGLE_GENERATIVE_AI_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY")
    error_patterns = (
        ErrorPattern(regex=r"AI_LoadAPIKeyError|API key is missing|Incorrect API key|\b401\b"
                           r"|Unauthorized|invalid x-api-key",
                     kind=AUTH, message="the API key was refused or is missing"),
        ErrorPattern(regex=r"\b429\b|rate limit|quota", kind=RATE_LIMIT,
                     message="rate limited or out of quota"),
        ErrorPattern(regex=r"ProviderModelNotFoundError|ModelNotFoundError|Model not found|\b404\b",
                     kind="model_not_found", message="the model (or endpoint) was not found"),
        ErrorPattern(regex=r"ECONNREFUSED|Unable to connect|fetch failed|ConnectionRefused",
                     kind=CONNECTION, message="could not reach the model endpoint"),
        ErrorPattern(regex=r'"statusCode":\s*5\d\d|\(HTTP 5\d\d\)',
                     kind=SERVER_ERROR, message="the model endpoint failed (HTTP 5xx)"),
    )
    retry_watch = RetryWatch(regex=r'level=ERROR .*message="stream error"')

    def endpoint(self, setup: TrialSetup) -> Endpoint | None:
        """The OpenAI-compatible endpoint when one is configured, else the model's provider."""
        if self.base_url():
            return Endpoint(protocol=OPENAI, base_url=self.base_url(), key=self._variable("OPENAI_API_KEY"))
        provider = (self.model(setup) or "").partition("/")[0]
        if provider == "anthropic":
            return Endpoint(protocol=ANTHROPIC, key=self._variable("ANTHROPIC_API_KEY"))
        if provider == "google":
            return Endpoint(protocol=GEMINI, key=self._variable("GOOGLE_GENERATIVE_AI_API_KEY"))
        if provider == "openai":
            return Endpoint(protocol=OPENAI, key=self._variable("OPENAI_API_KEY"))
        return None

    def _variable(self, name: str) -> str | None:
        """`name` from the agents config's env, else from the user's environment."""
        return dict(self.config.env).get(name) or os.environ.get(name)

    def base_url(self) -> str | None:
        """The OpenAI-compatible endpoint (`OPENAI_BASE_URL`), if any."""
        return self._variable(BASE_URL_VARIABLE)

    def model(self, setup: TrialSetup) -> str | None:
        """The configured model; with an endpoint and no model, `OPENAI_MODEL`."""
        if setup.model or not self.base_url():
            return setup.model
        return self._variable(MODEL_VARIABLE)

    def build_argv(self, prompt: str, setup: TrialSetup) -> list[str]:
        """`run`, JSON events, a fixed title, the model; the prompt comes on stdin."""
        model = self.model(setup)
        chosen = ["--model", model_ref(model, self.base_url())] if model else []
        return ["run", "--format", "json", "--title", SESSION_TITLE, "--print-logs", "--log-level", "ERROR",
                *chosen]

    def stdin_file(self, setup: TrialSetup) -> Path | None:
        """The prompt file (read verbatim as the message)."""
        return setup.prompt_file

    def prepare(self, setup: TrialSetup) -> dict[str, str]:
        """Write the trial's config folder (config, offline `.npmrc`); environment to use it."""
        folder = setup.home / ".config" / "opencode"
        folder.mkdir(parents=True, exist_ok=True)
        config = render_config(self.base_url(), self.model(setup))
        (folder / "opencode.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
        (folder / ".npmrc").write_text(NPMRC, encoding="utf-8")
        package = folder / "package.json"
        if not package.exists():
            package.write_text("{}\n", encoding="utf-8")
        return {"XDG_CONFIG_HOME": str(setup.home / ".config"), **QUIET_ENV}

    def classified(self, message: str) -> str:
        """`kind: message` when an error pattern matches the message, else the message."""
        for pattern in self.error_patterns:
            if re.search(pattern.regex, message, re.IGNORECASE | re.MULTILINE):
                return f"{pattern.kind}: {message}"
        return message

    def _silent(self, stderr: str) -> str:
        if stderr.lstrip().startswith("opencode "):
            return "opencode rejected its command line (it printed its usage)"
        line = problem_line(stderr)
        detail = f" (stderr: {line})" if line else ""
        return self.classified(f"no OpenCode step_finish event in the output{detail}")

    def parse_output(self, stdout: str, stderr: str) -> Usage:
        """Sum `step_finish` tokens and cost; the last `text` part is the final message."""
        found = json_events(stdout)
        steps = [e.get("part") for e in found if e["type"] == "step_finish"]
        texts = [e["part"].get("text") for e in found
                 if e["type"] == "text" and isinstance(e.get("part"), dict)]
        errors = [self.classified(_error_text(e)) for e in found if e["type"] == "error"]
        final = next((t for t in reversed(texts) if isinstance(t, str) and t.strip()), "")
        if not steps:
            return Usage(final_message=final, error=errors[-1] if errors else self._silent(stderr))
        tokens = [s.get("tokens") if isinstance(s, dict) else None for s in steps]
        caches = [t.get("cache") if isinstance(t, dict) else None for t in tokens]
        return Usage(
            input_tokens=int(sum(_number(t, "input") for t in tokens)
                             + sum(_number(c, "read") + _number(c, "write") for c in caches)),
            output_tokens=int(sum(_number(t, "output") + _number(t, "reasoning") for t in tokens)),
            cache_read_tokens=int(sum(_number(c, "read") for c in caches)),
            cache_write_tokens=int(sum(_number(c, "write") for c in caches)),
            calls=tuple(CallTokens(int(_number(t, "input") + _number(c, "read") + _number(c, "write")),
                                   int(_number(t, "output") + _number(t, "reasoning")),
                                   int(_number(c, "read")), int(_number(c, "write")))
                        for t, c in zip(tokens, caches, strict=True)),
            cost_usd=round(float(sum(_number(s, "cost") for s in steps)), 6),
            turns=len(steps),
            final_message=final,
            error=errors[-1] if errors else None,
        )
