"""OpenCode's JSON events (`opencode run --format json`).

A model call runs from `step_start` to `step_finish` (its tokens and cost); between them come `text`
and `reasoning` parts and `tool_use` parts, each tool part complete with its input, output (or
error) and status. Timestamps are milliseconds since the epoch.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from agentbench.adapters.cli_base import json_events
from agentbench.adapters.trajectory import (
    StepList,
    Transcript,
    mapping,
    money,
    number,
    target_of,
    text_of,
)


def parse(transcript: Transcript) -> StepList:
    """Steps from OpenCode's JSON events."""
    steps = StepList()
    open_turn = False
    for event in json_events(transcript.stdout):
        kind, part, time = event["type"], event.get("part"), iso(event.get("timestamp"))
        part = mapping(part)
        if kind == "step_start":
            steps.model(time=time)
            open_turn = True
        elif kind in ("text", "reasoning"):
            if not open_turn:
                steps.model(time=time)
                open_turn = True
            text = text_of(part.get("text"))
            if kind == "text":
                steps.extend_model(text=text)
            else:
                steps.extend_model(reasoning=text)
        elif kind == "tool_use":
            _tool(part, steps, time, transcript)
        elif kind == "step_finish":
            tokens = mapping(part.get("tokens"))
            cache = mapping(tokens.get("cache"))
            tokens_in = sum((number(v) or 0 for v in (tokens.get("input"), cache.get("read"),
                                                      cache.get("write"))), 0)
            tokens_out = (number(tokens.get("output")) or 0) + (number(tokens.get("reasoning")) or 0)
            steps.add_usage(tokens_in, tokens_out, money(part.get("cost")))
            open_turn = False
        elif kind == "error":
            steps.note(f"error: {text_of(event.get('error'))}"[:2000])
    return steps


def _tool(part: dict[str, Any], steps: StepList, time: str | None, transcript: Transcript) -> None:
    state = mapping(part.get("state"))
    args, call_id = state.get("input"), str(part.get("callID") or part.get("id") or "")
    steps.call(str(part.get("tool") or "?"), args, call_id=call_id or "?", time=time,
               target=target_of(args, transcript.workspace))
    status = state.get("status")
    if status in ("completed", "error"):
        output = state.get("output") if status == "completed" else state.get("error")
        steps.result(call_id or "?", text_of(output), is_error=status == "error")


def iso(millis: Any) -> str | None:
    """ISO-8601 UTC time from milliseconds since the epoch (None for anything else)."""
    value = number(millis)
    if value is None:
        return None
    try:
        return datetime.fromtimestamp(value / 1000, tz=UTC).isoformat(timespec="milliseconds")
    except (OverflowError, OSError, ValueError):
        return None
