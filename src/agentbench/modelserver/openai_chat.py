"""The OpenAI Chat Completions API (`/v1/chat/completions`) as the scripted model speaks it.

Routes: `POST /v1/chat/completions` (one JSON object, or server-sent events ending in `data: [DONE]`
when `"stream": true`) and `GET /v1/models[/{model}]`; the `/v1` prefix is optional, since clients
differ on whether the base URL carries it.

Two kinds of client are served:

- **Tool-using CLIs** (OpenCode, Qwen Code...) send `tools`. A request whose conversation holds N
  `role: "tool"` messages gets the script's step N: a call of the CLI's own file-writing tool (picked
  from the offered tools by name, its path and content arguments by the tool's JSON schema) or the
  final text.
- **Text-edit CLIs** (aider) send no tools. The answer carries every file not yet written, in aider's
  "whole" edit format (a path line, then a fenced block with the full content) or as SEARCH/REPLACE
  blocks when the system prompt asks for those, followed by the final message. A file counts as
  written once an earlier assistant message in the conversation holds its listing.

Side requests (title generation, JSON-schema checks) are answered with short text or JSON. Every
answered call is charged to the ledger and reports exactly the script's usage.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

from agentbench.modelserver.script import Final, Script, ScriptedFile, WriteFile, next_action
from agentbench.modelserver.server import Exchange, Reply, Route, json_reply

WRITE_TOOL_NAMES = ("write", "write_file", "Write", "create_file", "writeFile")
"""Names of CLIs' file-writing tools, in order of preference."""

PATH_KEYS = ("filePath", "file_path", "absolute_path", "path", "filename", "file")
"""Argument names a write tool may use for the file's path."""

CONTENT_KEYS = ("content", "contents", "file_text", "text", "data")
"""Argument names a write tool may use for the file's content."""

MODELS = ("scripted", "gpt-4o", "gpt-4o-mini", "qwen3-coder-plus")
"""Model ids listed by `GET /v1/models` (any other id is accepted too)."""

_WORKDIR_PATTERNS = (
    r"<cwd>\s*(/[^<\n]*?)\s*</cwd>",
    r"Working directory:\s*(/\S+)",
    r"working in the directory:?\s*(/\S+?)\.?\s*$",
    r"current working directory(?: is)?:?\s*(/\S+?)\.?\s*$",
)


def _messages(body: Any) -> list[dict[str, Any]]:
    messages = body.get("messages") if isinstance(body, dict) else None
    return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []


def _text(content: Any) -> str:
    """The text of a message's content (a string or a list of parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def tool_results_seen(body: Any) -> int:
    """How many `role: "tool"` messages the request's conversation holds."""
    return sum(1 for m in _messages(body) if m.get("role") == "tool")


def _tools(body: Any) -> list[dict[str, Any]]:
    tools = body.get("tools") if isinstance(body, dict) else None
    found = []
    for tool in tools if isinstance(tools, list) else ():
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            found.append(function)
    return found


def write_tool(body: Any) -> dict[str, Any] | None:
    """The offered function that writes a file (by name, else any `*write*` with a content argument)."""
    tools = _tools(body)
    by_name = {t["name"]: t for t in tools}
    for name in WRITE_TOOL_NAMES:
        if name in by_name:
            return by_name[name]
    for tool in tools:
        props = (tool.get("parameters") or {}).get("properties") or {}
        if "write" in tool["name"].lower() and any(k in props for k in CONTENT_KEYS):
            return tool
    return None


def workspace_hint(body: Any) -> str | None:
    """The agent's working directory, as its prompts state it (None when they do not)."""
    for message in _messages(body):
        text = _text(message.get("content"))
        for pattern in _WORKDIR_PATTERNS:
            found = re.search(pattern, text, re.IGNORECASE | re.MULTILINE)
            if found:
                return found.group(1).rstrip("/") or "/"
    return None


def write_arguments(tool: dict[str, Any], file: ScriptedFile, workdir: str | None) -> dict[str, str]:
    """Arguments for `tool` that write `file` (an absolute path when the working directory is known)."""
    props = (tool.get("parameters") or {}).get("properties") or {}
    path_key = next((k for k in PATH_KEYS if k in props), "file_path")
    content_key = next((k for k in CONTENT_KEYS if k in props), "content")
    path = f"{workdir}/{file.path}" if workdir and not file.path.startswith("/") else file.path
    return {path_key: path, content_key: file.content}


def _system_text(body: Any) -> str:
    return "\n".join(_text(m.get("content")) for m in _messages(body) if m.get("role") == "system")


def files_listed(script: Script, body: Any) -> int:
    """Text-edit clients: how many leading script files earlier assistant replies already hold."""
    replies = "\n".join(_text(m.get("content")) for m in _messages(body) if m.get("role") == "assistant")
    lines = {line.strip() for line in replies.splitlines()}
    count = 0
    for file in script.files:
        if file.path not in lines:
            break
        count += 1
    return count


def edit_text(files: tuple[ScriptedFile, ...], final: str, search_replace: bool) -> str:
    """Files in aider's whole-file format (or SEARCH/REPLACE blocks creating them), then `final`."""
    blocks = []
    for file in files:
        body = file.content if file.content.endswith("\n") or not file.content else file.content + "\n"
        if search_replace:
            body = f"<<<<<<< SEARCH\n=======\n{body}>>>>>>> REPLACE\n"
        blocks.append(f"{file.path}\n```\n{body}```\n")
    return "\n".join([*blocks, final])


def _is_side_request(body: Any) -> bool:
    """Title generation and similar helper calls of tool-using CLIs (no tools, a short system task)."""
    system = _system_text(body).lower()
    return "title" in system and ("generate" in system or "generator" in system)


def _side_answer(body: Any) -> str:
    response_format = body.get("response_format") if isinstance(body, dict) else None
    if isinstance(response_format, dict) and response_format.get("type") in {"json_object",
                                                                             "json_schema"}:
        return json.dumps(_json_answer(response_format))
    return "Scripted task"


def _json_answer(response_format: dict[str, Any]) -> dict[str, Any]:
    schema = (response_format.get("json_schema") or {}).get("schema") or {}
    props = schema.get("properties") or {} if isinstance(schema, dict) else {}
    answer: dict[str, Any] = {}
    for key, spec in props.items():
        kind = spec.get("type") if isinstance(spec, dict) else None
        if key.lower() == "next_speaker":
            answer[key] = "user"
        elif kind == "boolean":
            answer[key] = False
        elif kind in {"number", "integer"}:
            answer[key] = 0
        else:
            answer[key] = "scripted"
    return answer


def assistant_message(script: Script, body: Any) -> dict[str, Any]:
    """The assistant message answering `body`: a write-tool call, edit text, or final text."""
    tool = write_tool(body)
    if tool is None:
        if _tools(body) or _is_side_request(body) or _wants_json(body):
            return {"role": "assistant", "content": _side_answer(body)}
        done = files_listed(script, body)
        if done >= len(script.files) and done:
            return {"role": "assistant", "content": script.final_message}
        search_replace = "<<<<<<< SEARCH" in _system_text(body)
        return {"role": "assistant",
                "content": edit_text(script.files[done:], script.final_message, search_replace)}
    step = next_action(script, tool_results_seen(body))
    if isinstance(step, Final):
        return {"role": "assistant", "content": step.text}
    assert isinstance(step, WriteFile)
    arguments = write_arguments(tool, step.file, workspace_hint(body))
    call = {"id": f"call_scripted_{step.index}", "type": "function",
            "function": {"name": tool["name"], "arguments": json.dumps(arguments)}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def _wants_json(body: Any) -> bool:
    response_format = body.get("response_format") if isinstance(body, dict) else None
    return isinstance(response_format, dict) and response_format.get("type") != "text"


def _usage(script: Script) -> dict[str, int]:
    return {"prompt_tokens": script.input_tokens, "completion_tokens": script.output_tokens,
            "total_tokens": script.input_tokens + script.output_tokens}


def _finish_reason(message: dict[str, Any]) -> str:
    return "tool_calls" if message.get("tool_calls") else "stop"


def _model(body: Any) -> str:
    model = body.get("model") if isinstance(body, dict) else None
    return model if isinstance(model, str) and model else "scripted"


def completion(script: Script, body: Any) -> dict[str, Any]:
    """A complete (non-streaming) `chat.completion` object."""
    message = assistant_message(script, body)
    return {"id": "chatcmpl-scripted", "object": "chat.completion", "created": int(time.time()),
            "model": _model(body), "system_fingerprint": "scripted",
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": _finish_reason(message)}],
            "usage": _usage(script)}


def _chunk(body: Any, delta: dict[str, Any] | None, finish: str | None,
           usage: dict[str, int] | None = None) -> dict[str, Any]:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "logprobs": None,
                                         "finish_reason": finish}]
    chunk: dict[str, Any] = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk",
                             "created": int(time.time()), "model": _model(body),
                             "system_fingerprint": "scripted", "choices": choices}
    if usage is not None:
        chunk["usage"] = usage
    return chunk


def _deltas(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The message as streamed: role first, text in two halves, or a tool call in two pieces."""
    yield {"role": "assistant", "content": ""}
    text = message.get("content") or ""
    if text:
        half = len(text) // 2
        yield {"content": text[:half]}
        yield {"content": text[half:]}
    for index, call in enumerate(message.get("tool_calls") or ()):
        head = {"index": index, "id": call["id"], "type": "function",
                "function": {"name": call["function"]["name"], "arguments": ""}}
        yield {"tool_calls": [head]}
        yield {"tool_calls": [{"index": index, "function": {"arguments": call["function"]["arguments"]}}]}


def stream_chunks(script: Script, body: Any) -> list[dict[str, Any]]:
    """The `chat.completion.chunk` objects of a streamed answer (usage as the API sends it)."""
    message = assistant_message(script, body)
    options = body.get("stream_options") if isinstance(body, dict) else None
    separate_usage = isinstance(options, dict) and bool(options.get("include_usage"))
    chunks = [_chunk(body, delta, None) for delta in _deltas(message)]
    finish = _finish_reason(message)
    if separate_usage:
        chunks.append(_chunk(body, {}, finish))
        chunks.append(_chunk(body, None, None, _usage(script)))
    else:
        chunks.append(_chunk(body, {}, finish, _usage(script)))
    return chunks


def _sse(chunks: list[dict[str, Any]]) -> Reply:
    def lines() -> Iterator[bytes]:
        for chunk in chunks:
            yield f"data: {json.dumps(chunk)}\n\n".encode()
        yield b"data: [DONE]\n\n"

    return Reply(200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}, lines())


def chat_completions(exchange: Exchange) -> Reply:
    """`POST /v1/chat/completions`: charge the script's usage, then answer (streamed or not)."""
    body = exchange.body
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return json_reply(400, {"error": {"message": "expected a JSON body with `messages`",
                                          "type": "invalid_request_error"}})
    script = exchange.script
    exchange.ledger.charge(script.input_tokens, script.output_tokens)
    if body.get("stream"):
        return _sse(stream_chunks(script, body))
    return json_reply(200, completion(script, body))


def _model_entry(name: str) -> dict[str, Any]:
    return {"id": name, "object": "model", "created": 0, "owned_by": "agentbench"}


def list_models(exchange: Exchange) -> Reply:
    """`GET /v1/models`."""
    return json_reply(200, {"object": "list", "data": [_model_entry(m) for m in MODELS]})


def get_model(exchange: Exchange) -> Reply:
    """`GET /v1/models/{model}`: any id exists."""
    return json_reply(200, _model_entry(exchange.match["model"]))


ROUTES = (
    Route("POST", r"(?:/v1)?/chat/completions", chat_completions),
    Route("GET", r"(?:/v1)?/models", list_models),
    Route("GET", r"(?:/v1)?/models/(?P<model>[^:]+)", get_model),
)
"""What this module serves."""
