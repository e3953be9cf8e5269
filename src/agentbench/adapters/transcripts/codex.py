"""Codex's JSONL events (`codex exec --json`).

Items come as `item.started` / `item.completed` pairs sharing an `id`: `agent_message` and
`reasoning` are the model's text, `command_execution` a shell command (its `aggregated_output` and
`exit_code`), `file_change` the files an edit touched (Codex shows no content), `mcp_tool_call`,
`web_search` and `todo_list` other tools. Codex reports usage per turn (`turn.completed`), not per
model call (on the turn's last model step); it records no timestamps. A response holding only
tool calls has no item of its own: a call that follows a finished call opens a new model turn, so
turns come in the order they happened.
"""

from __future__ import annotations

from typing import Any

from agentbench.adapters.cli_base import json_events
from agentbench.adapters.trajectory import (
    StepList,
    Transcript,
    listing,
    mapping,
    number,
    relative,
    text_of,
)

_CALLS = ("command_execution", "file_change", "mcp_tool_call", "web_search", "todo_list")


def parse(transcript: Transcript) -> StepList:
    """Steps from Codex's JSONL events."""
    steps = StepList()
    seen: set[str] = set()
    for event in json_events(transcript.stdout):
        kind, item = event["type"], event.get("item")
        if kind in ("item.started", "item.updated", "item.completed") and isinstance(item, dict):
            _item(item, kind == "item.completed", steps, seen, transcript)
        elif kind == "turn.completed":
            usage = mapping(event.get("usage"))
            steps.add_usage(number(usage.get("input_tokens")), number(usage.get("output_tokens")))
        elif kind in ("turn.failed", "error"):
            error = event.get("error")
            steps.note(f"{kind}: {text_of(error.get('message') if isinstance(error, dict) else event.get('message'))}")
    return steps


def _item(item: dict[str, Any], completed: bool, steps: StepList, seen: set[str],
          transcript: Transcript) -> None:
    item_id, kind = str(item.get("id") or ""), str(item.get("type") or "")
    if kind in _CALLS:
        if item_id not in seen:
            seen.add(item_id)
            _open_turn(steps)
            name, args, target = _call(item, transcript)
            steps.call(name, args, call_id=item_id, target=target,
                       kind="write" if kind == "file_change" else None)
        if completed:
            _result(item, steps)
    elif completed:
        _message(kind, item, steps)


def _open_turn(steps: StepList) -> None:
    """A call that follows another call's result (or nothing) came from a new model request:
    Codex shows no item for a response holding only a call, so its turn is opened here (calls
    of one response, started before the first one's result, stay in one turn)."""
    last = steps.steps[-1] if steps.steps else None
    if last is None or (last.type == "tool" and last.result_chars is not None) or last.type == "note":
        steps.model()


def _message(kind: str, item: dict[str, Any], steps: StepList) -> None:
    """A finished `agent_message` (onto a reasoning-only turn just before it), `reasoning` or
    `error` item."""
    text = text_of(item.get("text") if kind != "error" else item.get("message"))
    last = steps.steps[-1] if steps.steps else None
    if kind == "agent_message" and last is not None and last.type == "model" and not last.text:
        steps.extend_model(text=text)
    elif kind == "agent_message":
        steps.model(text=text)
    elif kind == "reasoning":
        steps.model(reasoning=text)
    elif kind == "error":
        steps.note(f"error: {text}")


def _call(item: dict[str, Any], transcript: Transcript) -> tuple[str, Any, str]:
    kind = str(item.get("type"))
    if kind == "command_execution":
        command = text_of(item.get("command"))
        return kind, {"command": command}, command
    if kind == "file_change":
        changes = listing(item.get("changes"))
        paths = [relative(str(c.get("path") or ""), transcript.workspace) for c in changes
                 if isinstance(c, dict)]
        return kind, {"changes": changes}, ", ".join(paths)
    if kind == "mcp_tool_call":
        name = f"{item.get('server') or 'mcp'}.{item.get('tool') or '?'}"
        return name, item.get("arguments"), ""
    if kind == "web_search":
        return kind, {"query": item.get("query")}, text_of(item.get("query"))
    return kind, {"items": item.get("items")}, ""


def _result(item: dict[str, Any], steps: StepList) -> None:
    status = str(item.get("status") or "")
    failed = status in ("failed", "declined", "error")
    if item.get("type") == "command_execution":
        code = number(item.get("exit_code"))
        steps.result(str(item.get("id") or ""), text_of(item.get("aggregated_output")),
                     is_error=failed or bool(code), exit_code=code)
        return
    output = item.get("result") or item.get("error") or status
    steps.result(str(item.get("id") or ""), text_of(output), is_error=failed)
