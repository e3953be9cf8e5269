"""Claude Code's stream-JSON transcript (`claude -p --output-format stream-json --verbose`).

Each `assistant` line holds content blocks of one model response (`text`, `thinking`, `tool_use`);
a response split over several lines shares its `message.id` and is one model turn. `user` lines
carry the `tool_result` blocks, matched to their call by `tool_use_id`. Usage is per response
(`message.usage`, as of the response's start: its output tokens, 0 or 1 there, are left unknown
unless the response is final, `stop_reason` set);
cost is only reported for the whole run (on the `result` line). Qwen Code's
JSON output has the same shape and is read by the same functions.
"""

from __future__ import annotations

from typing import Any

from agentbench.adapters.cli_base import json_events
from agentbench.adapters.trajectory import (
    StepList,
    Transcript,
    mapping,
    number,
    target_of,
    text_of,
)

_INPUT_KEYS = ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def parse(transcript: Transcript) -> StepList:
    """Steps from a stream-JSON transcript."""
    steps = StepList()
    read_events(json_events(transcript.stdout), steps, transcript)
    return steps


def read_events(events: list[dict[str, Any]], steps: StepList, transcript: Transcript, *,
                final_usage: bool = False) -> None:
    """Fold Anthropic-style events (assistant / user / system / result) into `steps`
    (`final_usage`: every message's usage is its final one, as in Qwen Code's JSON array)."""
    last_id: object = None
    for event in events:
        kind, time = event.get("type"), _time(event)
        message = event.get("message")
        if kind == "assistant" and isinstance(message, dict):
            same = message.get("id") is not None and message.get("id") == last_id
            _assistant(message, steps, transcript, time, (same, final_usage))
            last_id = message.get("id")
        elif kind == "user" and isinstance(message, dict):
            _tool_results(message.get("content"), steps)
        elif kind == "system" and event.get("subtype") not in (None, "init"):
            steps.note(f"{event.get('subtype')}: {text_of(event.get('error') or event.get('message'))}"[:500])
        elif kind == "result" and (event.get("is_error") or event.get("subtype") not in (None, "success")):
            steps.note(f"the run ended with an error ({event.get('subtype')}): "
                       f"{text_of(event.get('result') or event.get('errors'))}"[:2000])


def _time(event: dict[str, Any]) -> str | None:
    value = event.get("timestamp")
    return value if isinstance(value, str) else None


def _assistant(message: dict[str, Any], steps: StepList, transcript: Transcript,
               time: str | None, how: tuple[bool, bool]) -> None:
    same, final_usage = how
    blocks = _blocks(message.get("content"))
    text = _joined(blocks, ("text",), "text")
    thinking = _joined(blocks, ("thinking", "redacted_thinking"), "thinking")
    tokens_in, tokens_out = _usage(mapping(message.get("usage")), final=final_usage or bool(message.get("stop_reason")))
    if same and any(s.type == "model" for s in steps.steps):
        steps.extend_model(text=text, reasoning=thinking, input_tokens=tokens_in,
                           output_tokens=tokens_out)
    else:
        steps.model(text=text, reasoning=thinking, time=time, input_tokens=tokens_in,
                    output_tokens=tokens_out)
    for block in blocks:
        if block.get("type") in ("tool_use", "server_tool_use"):
            args = block.get("input")
            steps.call(str(block.get("name") or "?"), args, call_id=str(block.get("id") or ""),
                       time=time, target=target_of(args, transcript.workspace))


def _blocks(content: Any) -> list[dict[str, Any]]:
    """A message's content blocks (a plain string is one text block)."""
    if not isinstance(content, list):
        return [{"type": "text", "text": text_of(content)}]
    return [b for b in content if isinstance(b, dict)]


def _joined(blocks: list[dict[str, Any]], kinds: tuple[str, ...], key: str) -> str:
    """The text of the blocks of these kinds (`key`, else `text`), one per line."""
    parts = (str(b.get(key) or b.get("text") or "") for b in blocks if b.get("type") in kinds)
    return "\n".join(p for p in parts if p)


def _usage(usage: dict[str, Any], *, final: bool) -> tuple[int | None, int | None]:
    """(input, output) tokens of a response. Its output tokens only when the response is final
    (`stop_reason` set): the stream shows a response's usage as of its start (output 0 or 1, an
    API's placeholder), which is not what the response produced (None: not reported)."""
    if not usage:
        return None, None
    output = number(usage.get("output_tokens")) if final else None
    return sum(number(usage.get(k)) or 0 for k in _INPUT_KEYS), output


def _tool_results(content: Any, steps: StepList) -> None:
    if not isinstance(content, list):
        return
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            error = block.get("is_error")
            steps.result(str(block.get("tool_use_id") or ""), text_of(block.get("content")),
                         is_error=error if isinstance(error, bool) else None)
