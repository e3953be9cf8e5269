"""The Gemini API (`generativelanguage.googleapis.com/v1beta`) as the scripted model speaks it.

Routes: `POST /v1beta/models/{model}:generateContent`, `:streamGenerateContent` (server-sent events
when `?alt=sse`, else one JSON array), `:countTokens`, and `GET /v1beta/models[/{model}]`. A request
whose `contents` hold N `functionResponse` parts gets the script's step N: a `write_file` function
call (Gemini CLI's own file-writing tool: `file_path` + `content`) or the final text. Requests that
ask for JSON (`generationConfig.responseMimeType == "application/json"`: Gemini CLI's model router,
next-speaker and loop checks) get a small JSON answer that lets the agent carry on. Every answered
model call is charged to the ledger and reports the script's usage in `usageMetadata`.
"""

from __future__ import annotations

import base64
import json
import shlex
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any

from agentbench.modelserver.script import Script, WriteFile, next_action
from agentbench.modelserver.server import Exchange, Reply, Route, json_reply, sse_reply

WRITE_TOOL = "write_file"
"""Gemini CLI's file-writing tool."""

SHELL_TOOL = "run_shell_command"
"""Gemini CLI's shell tool: used for build files, which its headless policy refuses to `write_file`."""

BUILD_FILES = frozenset({
    "BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", ".bazelrc", ".blazerc",
    "Makefile", "makefile", "GNUmakefile", "CMakeLists.txt", "package.json", "package-lock.json",
    "pnpm-lock.yaml", "yarn.lock", "bun.lockb", "setup.py", "setup.cfg", "pyproject.toml", "go.mod",
    "go.sum", "Cargo.toml", "Cargo.lock", "pom.xml", "build.gradle", "build.gradle.kts",
    "settings.gradle", "settings.gradle.kts", "Dockerfile", "Containerfile"})
"""Gemini CLI 0.61's "Build File Protection": in non-interactive mode, even with --approval-mode
yolo, an edit tool writing one of these is denied ("Modifying build configuration files requires
explicit user confirmation"); a shell command is not."""

_MODEL = r"/v1(?:beta|alpha)?/models/(?P<model>[^/:]+)"


def tool_results_seen(body: Any) -> int:
    """How many `functionResponse` parts the request's conversation holds."""
    contents = body.get("contents") if isinstance(body, dict) else None
    if not isinstance(contents, list):
        return 0
    return sum(1 for content in contents if isinstance(content, dict)
               for part in content.get("parts") or () if isinstance(part, dict)
               and "functionResponse" in part)


def _wants_json(body: Any) -> bool:
    config = body.get("generationConfig") if isinstance(body, dict) else None
    return isinstance(config, dict) and config.get("responseMimeType") == "application/json"


def _json_value(key: str, schema: dict[str, Any]) -> Any:
    """A plausible value for one property of a structured answer (types may be upper case)."""
    if schema.get("enum"):
        return schema["enum"][0]
    kind = str(schema.get("type", "string")).lower()
    if key == "next_speaker":
        return "user"
    values: dict[str, Any] = {"integer": 1, "number": 0.0, "boolean": False, "array": [], "object": {}}
    return values.get(kind, "scripted")


def _json_answer(body: dict[str, Any]) -> dict[str, Any]:
    """An answer to a structured side request, shaped by the JSON schema it sends.

    Gemini CLI's router asks for `complexity_score` (an integer 1-100: 1 = trivial, so the cheap
    model), its next-speaker check for `next_speaker` ("user": the turn is over) and its loop
    detector for `unproductive_state_confidence` (a number 0-1: 0.0 = no loop).
    """
    config = body.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema") or {}
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict):
        return {}
    return {key: _json_value(key, value if isinstance(value, dict) else {})
            for key, value in props.items()}


def _parts(script: Script, body: Any) -> list[dict[str, Any]]:
    if _wants_json(body):
        return [{"text": json.dumps(_json_answer(body))}]
    step = next_action(script, tool_results_seen(body))
    if isinstance(step, WriteFile):
        return [{"functionCall": _write_call(step)}]
    return [{"text": step.text}]


def _write_call(step: WriteFile) -> dict[str, Any]:
    """`write_file`, or for a build file a shell command that writes the exact bytes."""
    path = PurePosixPath(step.file.path)
    if path.name not in BUILD_FILES and not path.name.startswith(("Dockerfile.", "Containerfile.")):
        return {"name": WRITE_TOOL, "args": {"file_path": step.file.path, "content": step.file.content}}
    encoded = base64.b64encode(step.file.content.encode()).decode()
    command = (f"mkdir -p {shlex.quote(str(path.parent))} && printf %s {encoded} | base64 -d > "
               f"{shlex.quote(str(path))}")
    return {"name": SHELL_TOOL, "args": {"command": command, "description": f"write {path}"}}


def _usage(script: Script) -> dict[str, int]:
    return {"promptTokenCount": script.input_tokens, "candidatesTokenCount": script.output_tokens,
            "totalTokenCount": script.input_tokens + script.output_tokens}


def _response(parts: list[dict[str, Any]], model: str, usage: dict[str, int] | None,
              finish: bool) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish:
        candidate["finishReason"] = "STOP"
    response: dict[str, Any] = {"candidates": [candidate], "modelVersion": model,
                                "responseId": "scripted"}
    if usage is not None:
        response["usageMetadata"] = usage
    return response


def _answer(exchange: Exchange) -> tuple[list[dict[str, Any]], str, dict[str, int]]:
    """The parts to answer with, the model name, and the usage charged for this call."""
    script = exchange.script
    exchange.ledger.charge(script.input_tokens, script.output_tokens)
    return _parts(script, exchange.body), exchange.match["model"], _usage(script)


def generate(exchange: Exchange) -> Reply:
    """`:generateContent`: one complete response."""
    parts, model, usage = _answer(exchange)
    return json_reply(200, _response(parts, model, usage, finish=True))


def _stream_events(parts: list[dict[str, Any]], model: str,
                   usage: dict[str, int]) -> Iterator[dict[str, Any]]:
    """Text arrives in two chunks (as the real API streams it); usage comes with the last one."""
    text = parts[0].get("text") if len(parts) == 1 else None
    if isinstance(text, str) and len(text) > 1:
        half = len(text) // 2
        yield _response([{"text": text[:half]}], model, None, finish=False)
        yield _response([{"text": text[half:]}], model, usage, finish=True)
        return
    yield _response(parts, model, usage, finish=True)


def stream(exchange: Exchange) -> Reply:
    """`:streamGenerateContent`: SSE with `?alt=sse`, else a JSON array of the chunks."""
    parts, model, usage = _answer(exchange)
    events = list(_stream_events(parts, model, usage))
    if exchange.query.get("alt") == ["sse"]:
        return sse_reply((None, event) for event in events)
    return json_reply(200, events)


def count_tokens(exchange: Exchange) -> Reply:
    """`:countTokens`: a rough count (about four characters a token); not a model call."""
    size = len(json.dumps(exchange.body or {}))
    return json_reply(200, {"totalTokens": max(1, size // 4)})


def _model_info(name: str) -> dict[str, Any]:
    return {"name": f"models/{name}", "displayName": name, "inputTokenLimit": 1_048_576,
            "outputTokenLimit": 65_536,
            "supportedGenerationMethods": ["generateContent", "countTokens"]}


def list_models(exchange: Exchange) -> Reply:
    """`GET /v1beta/models`: the models the CLI may ask for."""
    names = ("gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite")
    return json_reply(200, {"models": [_model_info(name) for name in names]})


def get_model(exchange: Exchange) -> Reply:
    """`GET /v1beta/models/{model}`."""
    return json_reply(200, _model_info(exchange.match["model"]))


ROUTES = (
    Route("POST", _MODEL + r":generateContent", generate),
    Route("POST", _MODEL + r":streamGenerateContent", stream),
    Route("POST", _MODEL + r":countTokens", count_tokens),
    Route("GET", r"/v1(?:beta|alpha)?/models", list_models),
    Route("GET", _MODEL, get_model),
)
"""What this module serves."""
