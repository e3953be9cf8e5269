"""The OpenAI Responses API, as the Codex CLI uses it: `POST /v1/responses` (streamed or not).

The model's step comes from the number of tool outputs (`function_call_output`,
`custom_tool_call_output`) in the request's `input`. To write a scripted file it calls the file tool
the client offers, which depends on the model Codex runs (its tools are in `tools` or, since Codex
0.147, in an `additional_tools` input item, grouped in namespaces):
- a direct `apply_patch` tool (freeform or function), e.g. for gpt-5.5;
- a shell tool (`exec_command`, `shell_command`, `shell`) running an `apply_patch` heredoc, which
  Codex intercepts and applies with its own patch engine (models without an `apply_patch` tool);
- "code mode" (the default model of Codex 0.171): a freeform `exec` tool in the `functions`
  namespace taking JavaScript, which calls the nested `tools.apply_patch(...)`;
- a plain `write_file`-style function (other Responses clients).
`apply_patch` ends every file it adds with a newline, so content without one goes through the shell
(`printf`). Then the model answers with the final message. Every model call is charged to the ledger
with the script's fixed usage and reports exactly that usage.

Codex makes no side requests to a custom model provider (no `/v1/models`, no title or summary
calls); the model list other OpenAI clients ask for is served by the `openai_chat` module.
"""

from __future__ import annotations

import json
import shlex
import time
import uuid
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any, NamedTuple

from agentbench.modelserver.script import ScriptedFile, WriteFile, next_action
from agentbench.modelserver.server import Exchange, Reply, Route, json_reply, sse_reply

MODEL_ID = "agentbench-scripted"
"""The model name reported when a request names none (requests may name any model)."""

_TOOL_OUTPUTS = ("function_call_output", "custom_tool_call_output")
_SHELL_TOOLS = ("exec_command", "shell_command", "shell")
_WRITE_TOOLS = ("write_file", "write", "Write", "create_file")

Event = tuple[str | None, Any]


def tool_results_seen(body: dict[str, Any]) -> int:
    """How many tool outputs the conversation (`input`) already holds."""
    items = body.get("input")
    if not isinstance(items, list):
        return 0
    return sum(1 for item in items if isinstance(item, dict) and item.get("type") in _TOOL_OUTPUTS)


class Tool(NamedTuple):
    """A tool the client offers: its definition and the namespace it sits in (None: top level)."""

    namespace: str | None
    spec: dict[str, Any]


def _walk(items: Any, namespace: str | None = None) -> Iterator[Tool]:
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "namespace":
            yield from _walk(item.get("tools"), str(item.get("name") or "") or namespace)
        elif item.get("type") in ("function", "custom") and isinstance(item.get("name"), str):
            yield Tool(namespace, item)


def offered_tools(body: dict[str, Any]) -> dict[str, Tool]:
    """Tools by name: the request's `tools` and Codex's `additional_tools` input items, unnested."""
    lists = [body.get("tools")]
    items = body.get("input")
    if isinstance(items, list):
        lists += [i.get("tools") for i in items if isinstance(i, dict) and i.get("type") == "additional_tools"]
    found: dict[str, Tool] = {}
    for tools in lists:
        for tool in _walk(tools):
            found.setdefault(tool.spec["name"], tool)
    return found


def add_file_patch(file: ScriptedFile) -> str:
    """An `apply_patch` envelope that creates `file` (every content line prefixed with '+')."""
    lines = file.content.split("\n")
    if file.content.endswith("\n"):
        lines.pop()
    body = "".join(f"+{line}\n" for line in lines)
    return f"*** Begin Patch\n*** Add File: {file.path}\n{body}*** End Patch\n"


def _exact_by_patch(file: ScriptedFile) -> bool:
    """Whether `apply_patch` writes exactly this content (it ends every added file with a newline)."""
    return file.content.endswith("\n")


def apply_patch_command(file: ScriptedFile) -> str:
    """A shell command running `apply_patch` on a quoted heredoc (Codex applies it itself).

    `apply_patch` ends every file it adds with a newline; empty content or content without a final
    newline is written with `printf` instead, so the file gets exactly the scripted bytes.
    """
    if not _exact_by_patch(file):
        folder = PurePosixPath(file.path).parent
        mkdir = f"mkdir -p {shlex.quote(str(folder))} && " if str(folder) != "." else ""
        return f"{mkdir}printf %s {shlex.quote(file.content)} > {shlex.quote(file.path)}"
    # Every patch line starts with "***" or "+", so no line of it can end the heredoc early.
    return f"apply_patch <<'PATCH'\n{add_file_patch(file)}PATCH"


def code_mode_source(description: str, file: ScriptedFile) -> str:
    """JavaScript for Codex's code-mode `exec` tool: call its nested `apply_patch` (or shell)."""
    if "apply_patch(" in description and _exact_by_patch(file):
        return f"await tools.apply_patch({json.dumps(add_file_patch(file))});\ntext(\"written\");\n"
    command = json.dumps({"cmd": apply_patch_command(file)})
    return f"const result = await tools.exec_command({command});\ntext(result.output);\n"


def _param_names(tool: Tool) -> set[str]:
    params = tool.spec.get("parameters")
    props = params.get("properties") if isinstance(params, dict) else None
    return set(props) if isinstance(props, dict) else set()


def _write_file_arguments(tool: Tool, file: ScriptedFile) -> dict[str, str] | None:
    names = _param_names(tool)
    path_key = next((k for k in ("file_path", "filePath", "path") if k in names), None)
    content_key = next((k for k in ("content", "contents", "text") if k in names), None)
    if path_key is None or content_key is None:
        return None
    return {path_key: file.path, content_key: file.content}


def _shell_arguments(tool: Tool, file: ScriptedFile) -> dict[str, Any]:
    name = tool.spec["name"]
    if name == "shell":
        return {"command": ["bash", "-lc", apply_patch_command(file)]}
    return {"cmd" if name == "exec_command" else "command": apply_patch_command(file)}


def call_item(tool: Tool, payload: str | dict[str, Any]) -> dict[str, Any]:
    """A tool-call output item: freeform input for a custom tool, JSON arguments for a function."""
    call_id = f"call_{uuid.uuid4().hex[:24]}"
    item: dict[str, Any]
    if tool.spec["type"] == "custom":
        text = payload if isinstance(payload, str) else json.dumps(payload)
        item = {"type": "custom_tool_call", "id": f"ctc_{call_id[5:]}", "input": text}
    else:
        arguments = payload if isinstance(payload, dict) else {"input": payload}
        item = {"type": "function_call", "id": f"fc_{call_id[5:]}", "arguments": json.dumps(arguments)}
    item.update(call_id=call_id, name=tool.spec["name"], status="completed")
    if tool.namespace:
        item["namespace"] = tool.namespace
    return item


def write_call(tools: dict[str, Tool], file: ScriptedFile) -> dict[str, Any] | None:
    """The output item (a tool call) that makes the client write `file`, or None if it can't.

    Preference: a direct `apply_patch` tool, a shell tool running `apply_patch`, Codex's code-mode
    `exec` (JavaScript calling the nested `apply_patch`), then a `write_file`-style function.
    """
    patch_tool = tools.get("apply_patch")
    if patch_tool is not None and _exact_by_patch(file):
        return call_item(patch_tool, add_file_patch(file))
    for name in _SHELL_TOOLS:
        if name in tools:
            return call_item(tools[name], _shell_arguments(tools[name], file))
    code = tools.get("exec")
    description = str(code.spec.get("description") or "") if code else ""
    if code is not None and code.spec["type"] == "custom" and "tools." in description:
        return call_item(code, code_mode_source(description, file))
    for name in _WRITE_TOOLS:
        arguments = _write_file_arguments(tools[name], file) if name in tools else None
        if arguments is not None:
            return call_item(tools[name], arguments)
    return None


def message_item(text: str) -> dict[str, Any]:
    """An assistant message output item."""
    return {"type": "message", "id": f"msg_{uuid.uuid4().hex[:24]}", "role": "assistant",
            "status": "completed", "content": [{"type": "output_text", "text": text, "annotations": []}]}


def usage_of(input_tokens: int, output_tokens: int) -> dict[str, Any]:
    """A Responses API `usage` object."""
    return {"input_tokens": input_tokens, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": output_tokens, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + output_tokens}


def response_object(body: dict[str, Any], output: list[dict[str, Any]], usage: dict[str, Any] | None,
                    status: str = "completed") -> dict[str, Any]:
    """A Responses API `response` object."""
    return {"id": f"resp_{uuid.uuid4().hex[:24]}", "object": "response", "created_at": int(time.time()),
            "status": status, "model": str(body.get("model") or MODEL_ID), "output": output,
            "parallel_tool_calls": bool(body.get("parallel_tool_calls", False)),
            "tool_choice": body.get("tool_choice", "auto"), "tools": body.get("tools") or [],
            "usage": usage}


def _item_events(index: int, item: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The events streaming one output item (before its `response.output_item.done`)."""
    kind, item_id = item["type"], item["id"]
    ids = {"item_id": item_id, "output_index": index}
    if kind == "message":
        text = item["content"][0]["text"]
        part = {"type": "output_text", "text": "", "annotations": []}
        yield "response.content_part.added", {**ids, "content_index": 0, "part": part}
        yield "response.output_text.delta", {**ids, "content_index": 0, "delta": text}
        yield "response.output_text.done", {**ids, "content_index": 0, "text": text}
        yield "response.content_part.done", {**ids, "content_index": 0, "part": {**part, "text": text}}
    elif kind == "function_call":
        yield "response.function_call_arguments.delta", {**ids, "delta": item["arguments"]}
        yield "response.function_call_arguments.done", {**ids, "arguments": item["arguments"]}
    elif kind == "custom_tool_call":
        yield "response.custom_tool_call_input.delta", {**ids, "delta": item["input"]}
        yield "response.custom_tool_call_input.done", {**ids, "input": item["input"]}


def _skeleton(item: dict[str, Any]) -> dict[str, Any]:
    empty: dict[str, dict[str, Any]] = {"message": {"content": []}, "function_call": {"arguments": ""},
                                        "custom_tool_call": {"input": ""}}
    return {**item, **empty.get(item["type"], {}), "status": "in_progress"}


def stream_events(body: dict[str, Any], output: list[dict[str, Any]],
                  usage: dict[str, Any]) -> list[Event]:
    """The whole server-sent-event stream of one response, with sequence numbers."""
    started = response_object(body, [], None, status="in_progress")
    raw: list[tuple[str, dict[str, Any]]] = [("response.created", {"response": started}),
                                             ("response.in_progress", {"response": started})]
    for index, item in enumerate(output):
        raw.append(("response.output_item.added", {"output_index": index, "item": _skeleton(item)}))
        raw.extend(_item_events(index, item))
        raw.append(("response.output_item.done", {"output_index": index, "item": item}))
    done = {**response_object(body, output, usage), "id": started["id"]}
    raw.append(("response.completed", {"response": done}))
    return [(name, {"type": name, "sequence_number": n, **data}) for n, (name, data) in enumerate(raw)]


def _error(status: int, message: str) -> Reply:
    return json_reply(status, {"error": {"message": message, "type": "invalid_request_error",
                                         "param": None, "code": None}})


def _responses(exchange: Exchange) -> Reply:
    """`POST /v1/responses`: the scripted model's next step."""
    body = exchange.body
    if not isinstance(body, dict):
        return _error(400, "expected a JSON object")
    action = next_action(exchange.script, tool_results_seen(body))
    if isinstance(action, WriteFile):
        item = write_call(offered_tools(body), action.file)
        if item is None:
            names = sorted(offered_tools(body))
            return _error(400, f"no file-writing tool offered (apply_patch, a shell, write_file): {names}")
        output = [item]
    else:
        output = [message_item(action.text)]
    script = exchange.script
    exchange.ledger.charge(script.input_tokens, script.output_tokens)
    usage = usage_of(script.input_tokens, script.output_tokens)
    if body.get("stream"):
        return sse_reply(stream_events(body, output, usage))
    return json_reply(200, response_object(body, output, usage))


ROUTES = (
    Route("POST", r"(?:/v1)?/responses", _responses),
)
"""The Responses API routes."""
