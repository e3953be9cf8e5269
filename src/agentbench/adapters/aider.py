"""The `aider` agent: Aider (PyPI `aider-chat`) run once on the prompt, non-interactively.

The prompt goes through `--message-file`; `--yes-always` answers aider's questions (create the file?
fix the lint errors?). Aider never touches git (`--no-git`, `--no-auto-commits`), uses the "whole"
edit format (the model replies with full file listings, no tool calls), does not stream (so the
usage it reports is the API's, not its own estimate), and keeps its chat and input history in the
trial's HOME rather than the workspace. Analytics, the version check, release notes, URL scraping and
model warnings are off.

Aider downloads LiteLLM's model price list when `~/.aider/caches/model_prices_and_context_window.json`
is missing or empty: `prepare()` seeds that cache, and `LITELLM_LOCAL_MODEL_COST_MAP=True` keeps
LiteLLM on its bundled copy. Known models keep their prices; for any other model (e.g. `openai/<name>`
on an OpenAI-compatible endpoint set with `OPENAI_API_BASE`) prices come from a model metadata file,
given with `AIDER_MODEL_METADATA_FILE` in the agents config's `env`.

Aider retries a failed model request for about a minute (0.125 s doubling up to 60 s, a constant
with no option), printing `Retrying in N seconds...` on stdout before each attempt: the harness
watches for those lines (`retry_watch`). It reads no instruction file on its own (`CONVENTIONS.md` only
with `--read`), and with `--no-git` its only config files are in the trial HOME and the workspace.

Aider reports usage only as text, once per model call: `Tokens: 1.2k sent, 45 received. Cost: $0.01
message, $0.02 session.` `parse_output` sums the `Tokens:` lines (counts of 1000 and more are rounded
by aider, e.g. `1.2k`) and takes the last `session` cost.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from agentbench.adapters.cli_base import CommandAdapter, ErrorPattern, TrialSetup, Usage
from agentbench.adapters.endpoint import ANTHROPIC, GEMINI, OPENAI, Endpoint
from agentbench.adapters.failures import AUTH, CONNECTION, RATE_LIMIT, SERVER_ERROR, RetryWatch
from agentbench.adapters.trajectory import money, number, read_text_capped
from agentbench.adapters.versions import PythonDistribution
from agentbench.pricing import CallTokens

ANALYTICS_LOG = ".aider.analytics.jsonl"
"""Aider's analytics log (relative to HOME; kept locally, nothing is sent): one `message_send`
event per model call with its exact `prompt_tokens`, `completion_tokens` and `cost`."""

LLM_HISTORY = ".aider.llm.history"
"""Aider's log of what it sent the model and what the model answered, verbatim (relative to HOME)."""

PRICE_CACHE = ".aider/caches/model_prices_and_context_window.json"
"""Aider's model price cache, relative to HOME (downloaded at start when missing or empty)."""

CACHE_SEED = {"agentbench-offline-seed": {"max_input_tokens": 1, "mode": "chat"}}
"""A non-empty cache: enough to stop the download; real prices come from LiteLLM's bundled list."""

_TOKENS = re.compile(
    r"^Tokens: (?P<sent>[\d.]+k?) sent(?:, (?P<write>[\d.]+k?) cache write)?"
    r"(?:, (?P<hit>[\d.]+k?) cache hit)?, (?P<received>[\d.]+k?) received\.",
    re.MULTILINE)
_SESSION_COST = re.compile(r"Cost: \$(?P<message>[\d.]+) message, \$(?P<session>[\d.]+) session\.")
_PROBLEM = re.compile(r"^.*\b(error: .*|unrecognized arguments: .*|\w+Error: .*)$", re.MULTILINE)
_FENCE = re.compile(r"^\s*(```|<<<<<<<|>>>>>>>|=======)")
_HEADER = re.compile(r"^(Aider v|Model: |Git repo: |Repo-map: |Weak model: |Editor model: |"
                     r"Detected dumb terminal|Added .* to the chat|Main model: |Applied edit to )")


@dataclass(frozen=True, slots=True)
class MessageSend:
    """One model call as aider's analytics log records it."""

    input: int
    output: int
    cost: float | None


def message_sends(log: str) -> list[MessageSend]:
    """The `message_send` events of an analytics log (JSON lines; anything else skipped)."""
    found = []
    for line in log.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if not isinstance(event, dict) or event.get("event") != "message_send":
            continue
        props = event.get("properties")
        if not isinstance(props, dict):
            continue
        sent, received = number(props.get("prompt_tokens")), number(props.get("completion_tokens"))
        if sent is not None and received is not None:
            found.append(MessageSend(sent, received, money(props.get("cost"))))
    return found


def count(text: str) -> int:
    """Aider's token figure as an int (`1.2k` -> 1200, `12k` -> 12000)."""
    if text.endswith("k"):
        return round(float(text[:-1]) * 1000)
    return int(float(text))


def final_message(stdout: str) -> str:
    """The prose of the model's last reply (a heuristic: aider prints it as plain text).

    The reply is what precedes the last `Tokens:` line, minus file listings (the text after the
    last fence). After an earlier call, aider's own output (applied edits, lint errors) comes first:
    then only the text after the last blank-line gap is kept (with `--no-pretty` aider prints the
    reply double-spaced, its own messages single-spaced).
    """
    lines = stdout.splitlines()
    ends = [i for i, line in enumerate(lines) if line.startswith("Tokens: ")]
    if not ends:
        return ""
    reply = lines[ends[-2] + 1 if len(ends) > 1 else 0:ends[-1]]
    fences = [i for i, line in enumerate(reply) if _FENCE.match(line)]
    if fences:
        reply = reply[fences[-1] + 1:]
    elif len(ends) > 1:
        gaps = [i for i in range(1, len(reply) - 1)
                if not reply[i].strip() and not reply[i + 1].strip() and reply[i - 1].strip()]
        reply = reply[gaps[-1]:] if gaps else reply
    kept = [line.rstrip() for line in reply if line.strip() and not _HEADER.match(line)]
    return "\n".join(kept)


class AiderAdapter(CommandAdapter):
    """Runs `aider --message-file PROMPT --yes-always --no-git --edit-format whole --no-stream ...`."""

    adapter_name = "aider"
    executable = "aider"
    package = "aider-chat (pip install aider-chat in a venv of its own, or ci/install/aider.sh)"
    version_source = PythonDistribution("aider-chat")
    scripted_env = (("OPENAI_API_BASE", "{url}/v1"), ("OPENAI_API_KEY", "sk-scripted"),
                    ("AIDER_MODEL", "openai/scripted"))
    passthrough_env = ("OPENAI_API_KEY", "OPENAI_API_BASE", "ANTHROPIC_API_KEY", "GEMINI_API_KEY",
                       "DEEPSEEK_API_KEY", "OPENROUTER_API_KEY")
    error_patterns = (
        ErrorPattern(regex=r"AuthenticationError|Incorrect API key|api[_ ]key .*(missing|not set)"
                           r"|Missing these environment variables",
                     kind=AUTH, message="the API key was refused or is missing"),
        ErrorPattern(regex=r"RateLimitError|rate limit|quota", kind=RATE_LIMIT,
                     message="rate limited or out of quota"),
        ErrorPattern(regex=r"NotFoundError|model .* does not exist|LLM Provider NOT provided",
                     kind="model_not_found", message="the model (or endpoint) was not found"),
        ErrorPattern(regex=r"APIConnectionError|Connection (refused|error)|InternalServerError"
                           r"|ServiceUnavailableError",
                     kind=CONNECTION, message="could not reach the model endpoint"),
        ErrorPattern(regex=r"BadGatewayError|servers are down or overloaded",
                     kind=SERVER_ERROR, message="the model endpoint failed (HTTP 5xx)"),
    )
    retry_watch = RetryWatch(regex=r"^Retrying in [\d.]+ seconds")

    def endpoint(self, setup: TrialSetup) -> Endpoint | None:
        """The API of the model's provider: Anthropic and Gemini models by name, else OpenAI's
        (at `OPENAI_API_BASE` when set); None when no model is named and no base URL is set."""
        model = setup.model or self.variable("AIDER_MODEL") or ""
        if model.startswith(("anthropic/", "claude")):
            return Endpoint(protocol=ANTHROPIC, base_url=self.variable("ANTHROPIC_API_BASE"),
                            key=self.variable("ANTHROPIC_API_KEY"))
        if model.startswith("gemini"):
            return Endpoint(protocol=GEMINI, key=self.variable("GEMINI_API_KEY"))
        base = self.variable("OPENAI_API_BASE")
        if not (model or base):
            return None
        return Endpoint(protocol=OPENAI, base_url=base, key=self.variable("OPENAI_API_KEY"))

    def meter_variables(self, endpoint: Endpoint) -> tuple[str, ...]:
        """The base-URL variable LiteLLM reads for the endpoint's provider (none known for Gemini)."""
        return {OPENAI: ("OPENAI_API_BASE",), ANTHROPIC: ("ANTHROPIC_API_BASE",)}.get(endpoint.protocol, ())

    def build_argv(self, prompt: str, setup: TrialSetup) -> list[str]:
        """One message from the prompt file, every question answered yes, no git, files in whole."""
        home = setup.home
        model = ["--model", setup.model] if setup.model else []
        return [
            *model, "--message-file", str(setup.prompt_file), "--yes-always",
            "--edit-format", "whole", "--no-git", "--no-auto-commits", "--no-dirty-commits",
            "--no-stream", "--no-pretty", "--no-fancy-input", "--map-tokens", "0",
            "--no-check-update", "--no-show-release-notes", "--no-analytics",
            "--no-show-model-warnings", "--no-detect-urls",
            "--input-history-file", str(home / ".aider.input.history"),
            "--chat-history-file", str(home / ".aider.chat.history.md"),
            "--analytics-log", str(home / ANALYTICS_LOG), "--llm-history-file", str(home / LLM_HISTORY),
            "--no-restore-chat-history", "--encoding", "utf-8",
        ]

    def prepare(self, setup: TrialSetup) -> dict[str, str]:
        """Seed aider's price cache in the trial HOME; keep LiteLLM on its bundled price list."""
        cache = setup.home / PRICE_CACHE
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(CACHE_SEED) + "\n", encoding="utf-8")
        return {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "AIDER_ANALYTICS": "false",
                "PYTHONIOENCODING": "utf-8"}

    def parse_output(self, stdout: str, stderr: str) -> Usage:
        """Tokens summed over the `Tokens:` lines, the last session cost, the last reply's prose."""
        reports = list(_TOKENS.finditer(stdout))
        costs = list(_SESSION_COST.finditer(stdout))
        if not reports:
            return Usage(final_message=final_message(stdout),
                         error=self._failure(stderr + "\n" + stdout))
        return Usage(
            input_tokens=sum(count(m["sent"]) for m in reports),
            output_tokens=sum(count(m["received"]) for m in reports),
            cost_usd=float(costs[-1]["session"]) if costs else None,
            turns=len(reports),
            final_message=final_message(stdout),
        )

    def read_usage(self, stdout: str, stderr: str, setup: TrialSetup) -> Usage:
        """`parse_output`, with the exact tokens of aider's analytics log where it has them."""
        usage = self.parse_output(stdout, stderr)
        calls = message_sends(read_text_capped(setup.home / ANALYTICS_LOG) or "")
        if not calls:
            return usage
        costs = [c.cost for c in calls if c.cost is not None]
        return replace(usage, input_tokens=sum(c.input for c in calls),
                       output_tokens=sum(c.output for c in calls), turns=len(calls),
                       cost_usd=sum(costs) if len(costs) == len(calls) else usage.cost_usd,
                       calls=tuple(CallTokens(c.input, c.output) for c in calls))

    def _failure(self, transcript: str) -> str | None:
        """Why no model call completed (aider exits 0 even when every call failed)."""
        for pattern in self.error_patterns:
            if re.search(pattern.regex, transcript, re.IGNORECASE | re.MULTILINE):
                return f"{pattern.kind}: {pattern.message}"
        problem = _PROBLEM.search(transcript)
        return problem.group(0).strip()[:300] if problem else None
