"""Codex's JSONL events (`codex exec --json`).

Items come as `item.started` / `item.completed` pairs sharing an `id`: `agent_message` and
`reasoning` are the model's text, `command_execution` a shell command (its `aggregated_output` and
`exit_code`), `file_change` the files an edit touched (Codex shows no content), `mcp_tool_call`,
`web_search` and `todo_list` other tools. Codex reports usage per turn (`turn.completed`), not per
model call (on the turn's last model step); it records no timestamps. A response holding only
tool calls has no item of its own: a call that follows a finished call opens a new model turn, so
turns come in the order they happened.

Each model request's own usage is in Codex's session log (`$CODEX_HOME/sessions/YYYY/MM/DD/
rollout-*.jsonl`, under the trial HOME): a `token_count` event after every response, its
`last_token_usage` that response's tokens (an event whose running total did not move repeats the
last one and is skipped). When the log has one such request per model turn of the events, each
turn gets its own request's tokens; otherwise the per-turn totals stay, with a note.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from agentbench.adapters.cli_base import json_events
from agentbench.adapters.trajectory import (
    StepList,
    Transcript,
    listing,
    mapping,
    number,
    read_text_capped,
    relative,
    safe_children,
    safe_descend,
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
    _per_request_usage(steps, transcript.home)
    return steps


class RequestUsage(NamedTuple):
    """One model request's tokens as Codex's session log records them."""

    input: int | None
    output: int | None


def session_logs(home: Path | None) -> list[Path]:
    """Codex's session logs in the trial HOME (`.codex/sessions/Y/M/D/rollout-*.jsonl`; never
    through a symlink; a few at most)."""
    folder = safe_descend(home, (".codex", "sessions")) if home else None
    found: list[Path] = []
    for year in safe_children(folder, dirs=True, limit=5) if folder else ():
        for month in safe_children(year, dirs=True, limit=13):
            for day in safe_children(month, dirs=True, limit=32):
                found += [p for p in safe_children(day, dirs=False, limit=20)
                          if p.name.startswith("rollout-") and p.suffix == ".jsonl"]
    return found


def request_usages(log: str) -> list[RequestUsage]:
    """Each model request's usage: the `token_count` events whose running total moved."""
    found, total = [], None
    for line in log.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        payload = mapping(event.get("payload")) if isinstance(event, dict) else {}
        if event.get("type") != "event_msg" or payload.get("type") != "token_count":
            continue
        info = mapping(payload.get("info"))
        last, running = mapping(info.get("last_token_usage")), mapping(info.get("total_token_usage"))
        now = number(running.get("total_tokens"))
        if not last or now is None or now == total:
            continue
        total = now
        found.append(RequestUsage(number(last.get("input_tokens")), number(last.get("output_tokens"))))
    return found


def _per_request_usage(steps: StepList, home: Path | None) -> None:
    """Each model turn's own request's tokens, from the session log, where they line up."""
    logs = session_logs(home)
    if len(logs) != 1 or home is None:
        return
    usages = request_usages(read_text_capped(logs[0]) or "")
    models = [i for i, step in enumerate(steps.steps) if step.type == "model"]
    if not usages:
        return
    if len(usages) != len(models):
        steps.notes.append(f"Codex's session log has {len(usages)} model requests, its events "
                           f"{len(models)} model turns: tokens per Codex turn kept")
        return
    for index, usage in zip(models, usages, strict=True):
        steps.steps[index] = replace(steps.steps[index], input_tokens=usage.input,
                                     output_tokens=usage.output)
    steps.sources.append(f"HOME/{logs[0].relative_to(home)}")


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
