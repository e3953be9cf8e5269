"""The Anthropic Messages API, as Claude Code uses it: `POST /v1/messages` (streamed or not).

The model's step comes from the number of `tool_result` blocks in the conversation: it asks the CLI
to write the next scripted file with its own `Write` tool (an absolute path under the working
directory the CLI announces in its prompt), then answers with the final message. Every model call is
charged to the ledger with the script's fixed usage, and reports exactly that usage.

Side requests answered too: `POST /v1/messages/count_tokens` (no model call, not charged) and
requests that offer no tools (titles, topic detection, summaries), which get a short text answer.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterable, Iterator
from pathlib import PurePosixPath
from typing import Any

from agentbench.modelserver.script import Final, WriteFile, next_action
from agentbench.modelserver.server import Exchange, Reply, Route, json_reply, sse_reply

WRITE_TOOL = "Write"
"""Claude Code's file-writing tool: input {"file_path": absolute path, "content": text}."""

_CWD_PATTERNS = (
    re.compile(r"Primary working directory:\s*(\S[^\n]*)"),
    re.compile(r"Working directory:\s*(\S[^\n]*)"),
    re.compile(r"<cwd>\s*([^<\n]+?)\s*</cwd>"),
)


def _text_of(value: Any) -> str:
    """All text in a system prompt or message content (a string or a list of blocks)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text_of(item) for item in value)
    if isinstance(value, dict):
        return _text_of(value.get("text", "")) + "\n" + _text_of(value.get("content", ""))
    return ""


def tool_results_seen(body: dict[str, Any]) -> int:
    """How many `tool_result` blocks the conversation already holds."""
    count = 0
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            count += sum(1 for b in content if isinstance(b, dict) and b.get("type") == "tool_result")
    return count


def working_directory(body: dict[str, Any]) -> str | None:
    """The working directory Claude Code announces (in the system prompt or first user message)."""
    texts = [_text_of(body.get("system"))]
    texts += [_text_of(m.get("content")) for m in body.get("messages") or [] if isinstance(m, dict)]
    for text in texts:
        for pattern in _CWD_PATTERNS:
            found = pattern.search(text)
            if found:
                return found.group(1).strip()
    return None


def offers_write_tool(body: dict[str, Any]) -> bool:
    """Whether the request is an agent-loop call that can write files (not a side request)."""
    tools = body.get("tools") or []
    return any(isinstance(t, dict) and t.get("name") == WRITE_TOOL for t in tools)


def _content_blocks(exchange: Exchange, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    """The assistant's content blocks and stop reason for this request."""
    if not offers_write_tool(body):
        return [{"type": "text", "text": _side_answer(body)}], "end_turn"
    action = next_action(exchange.script, tool_results_seen(body))
    if isinstance(action, Final):
        return [{"type": "text", "text": action.text}], "end_turn"
    return [_write_call(action, working_directory(body))], "tool_use"


def _write_call(action: WriteFile, cwd: str | None) -> dict[str, Any]:
    path = PurePosixPath(action.file.path)
    if not path.is_absolute() and cwd:
        path = PurePosixPath(cwd) / path
    return {"type": "tool_use", "id": f"toolu_{action.index:02d}_{uuid.uuid4().hex[:16]}",
            "name": WRITE_TOOL, "input": {"file_path": str(path), "content": action.file.content}}


def _side_answer(body: dict[str, Any]) -> str:
    """A short answer to a side request; JSON when the CLI asks for JSON (e.g. topic detection)."""
    system = _text_of(body.get("system"))
    if "isNewTopic" in system:
        return json.dumps({"isNewTopic": False, "title": None})
    if "JSON" in system or "json" in system:
        return json.dumps({"title": "Scripted task"})
    return "Scripted task"


def _usage(exchange: Exchange) -> dict[str, int]:
    return {"input_tokens": exchange.script.input_tokens, "output_tokens": exchange.script.output_tokens,
            "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


def _message(exchange: Exchange, body: dict[str, Any]) -> dict[str, Any]:
    blocks, stop = _content_blocks(exchange, body)
    return {"id": f"msg_{uuid.uuid4().hex[:24]}", "type": "message", "role": "assistant",
            "model": str(body.get("model") or "scripted"), "content": blocks, "stop_reason": stop,
            "stop_sequence": None, "usage": _usage(exchange)}


def messages(exchange: Exchange) -> Reply:
    """`POST /v1/messages`: one model call, charged to the ledger, streamed when asked."""
    body = exchange.body if isinstance(exchange.body, dict) else {}
    if not body.get("messages"):
        return _error(400, "invalid_request_error", "messages: field required")
    message = _message(exchange, body)
    exchange.ledger.charge(exchange.script.input_tokens, exchange.script.output_tokens)
    if body.get("stream"):
        return sse_reply(_stream_events(message))
    return json_reply(200, message)


def _stream_events(message: dict[str, Any]) -> Iterator[tuple[str | None, Any]]:
    """The server-sent events of a streamed message (usage: input at start, output at the end)."""
    usage = message["usage"]
    start_usage = {**usage, "output_tokens": 0}
    yield "message_start", {"type": "message_start",
                            "message": {**message, "content": [], "stop_reason": None,
                                        "usage": start_usage}}
    for index, block in enumerate(message["content"]):
        yield from _block_events(index, block)
    yield "message_delta", {"type": "message_delta",
                            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                            "usage": {"output_tokens": usage["output_tokens"]}}
    yield "message_stop", {"type": "message_stop"}


def _block_events(index: int, block: dict[str, Any]) -> Iterable[tuple[str | None, Any]]:
    if block["type"] == "text":
        start: dict[str, Any] = {"type": "text", "text": ""}
        delta: dict[str, Any] = {"type": "text_delta", "text": block["text"]}
    else:
        start = {**block, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
    yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
    yield "content_block_stop", {"type": "content_block_stop", "index": index}


def count_tokens(exchange: Exchange) -> Reply:
    """`POST /v1/messages/count_tokens`: a rough estimate (not a model call: not charged)."""
    size = len(json.dumps(exchange.body)) if exchange.body is not None else 0
    return json_reply(200, {"input_tokens": max(1, size // 4)})


def _error(status: int, kind: str, message: str) -> Reply:
    return json_reply(status, {"type": "error", "error": {"type": kind, "message": message}})


ROUTES = (
    Route("POST", r"/v1/messages", messages),
    Route("POST", r"/v1/messages/count_tokens", count_tokens),
)
"""Routes served for Anthropic clients."""
