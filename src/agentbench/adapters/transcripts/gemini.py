"""Gemini CLI: its session log in the trial HOME, else the tool counts of its JSON result.

`gemini --output-format json` prints only the final response and totals (`stats.tools.byName`), so
the steps come from the chat recording Gemini CLI keeps in the trial's HOME
(`~/.gemini/tmp/<project>/chats/session-*.jsonl`): one JSON object a line, a message (`type` `user`
or `gemini`, with `content`, `thoughts`, `tokens`, `toolCalls` holding each call's `args`,
`result` and `status`) or an update (`{"$set": ...}`); a message is written again as it grows, so
the last version of each `id` is kept. The HOME is the agent's: the log is read without following
links, its size capped. Without it, the JSON result's response and tool counts are used, and a note
says so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentbench.adapters.gemini import result_document
from agentbench.adapters.trajectory import (
    StepList,
    Transcript,
    mapping,
    number,
    read_text_capped,
    safe_children,
    safe_descend,
    target_of,
    text_of,
)


def parse(transcript: Transcript) -> StepList:
    """Steps from Gemini CLI's session log, else from its JSON result."""
    steps = StepList()
    logs = session_logs(transcript.home)
    messages = [m for path in logs for m in _messages(path)]
    if messages:
        steps.sources.extend(f"HOME/{p.relative_to(transcript.home)}" for p in logs if transcript.home)
        for message in messages:
            _message(message, steps, transcript)
        return steps
    _from_result(transcript, steps)
    return steps


def session_logs(home: Path | None) -> list[Path]:
    """Gemini CLI's chat recordings in the trial HOME (never through a symlink)."""
    tmp = safe_descend(home, (".gemini", "tmp")) if home else None
    if tmp is None:
        return []
    found = []
    for project in safe_children(tmp, dirs=True, limit=20):
        chats = safe_descend(project, ("chats",))
        if chats:
            found += [p for p in safe_children(chats, dirs=False, limit=20)
                      if p.name.startswith("session-") and p.suffix in (".json", ".jsonl")]
    return found


def _messages(path: Path) -> list[dict[str, Any]]:
    text = read_text_capped(path)
    if not text:
        return []
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except ValueError:
            return []
        messages = data.get("messages") if isinstance(data, dict) else None
        return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []
    latest: dict[str, dict[str, Any]] = {}
    for line in text.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("id"), str) and "type" in value:
            latest[value["id"]] = value  # NOTE: insertion order is first-seen; the last version wins
    return list(latest.values())


def _message(message: dict[str, Any], steps: StepList, transcript: Transcript) -> None:
    kind, time = message.get("type"), message.get("timestamp")
    time = time if isinstance(time, str) else None
    if kind == "gemini":
        tokens = mapping(message.get("tokens"))
        tokens_in = (number(tokens.get("input")) or 0) + (number(tokens.get("tool")) or 0)
        tokens_out = (number(tokens.get("output")) or 0) + (number(tokens.get("thoughts")) or 0)
        steps.model(text=text_of(message.get("content")), reasoning=_thoughts(message.get("thoughts")),
                    time=time, input_tokens=tokens_in if tokens else None,
                    output_tokens=tokens_out if tokens else None)
        calls = message.get("toolCalls")
        for call in calls if isinstance(calls, list) else []:
            if isinstance(call, dict):
                _call(call, steps, time, transcript)
    elif kind in ("error", "warning", "info"):
        steps.note(f"{kind}: {text_of(message.get('content'))}"[:2000])


def _thoughts(thoughts: Any) -> str:
    if not isinstance(thoughts, list):
        return text_of(thoughts)
    parts = []
    for thought in thoughts:
        if isinstance(thought, dict):
            parts.append(": ".join(str(thought[k]) for k in ("subject", "description") if thought.get(k)))
    return "\n".join(p for p in parts if p)


def _call(call: dict[str, Any], steps: StepList, time: str | None, transcript: Transcript) -> None:
    call_id = str(call.get("id") or "?")
    args = call.get("args")
    steps.call(str(call.get("name") or "?"), args, call_id=call_id, time=time,
               target=target_of(args, transcript.workspace))
    if "result" in call or "status" in call:
        output = _response(call.get("result")) or text_of(call.get("resultDisplay"))
        steps.result(call_id, output, is_error=call.get("status") in ("error", "cancelled"))


def _response(result: Any) -> str:
    parts = result if isinstance(result, list) else [result]
    texts = []
    for part in parts:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        body = response.get("response") if isinstance(response, dict) else part
        texts.append(text_of(body.get("output") if isinstance(body, dict) and "output" in body else body))
    return "\n".join(t for t in texts if t)


def _from_result(transcript: Transcript, steps: StepList) -> None:
    document = result_document(transcript.stdout, transcript.stderr)
    if document is None:
        return
    steps.notes.append("no Gemini CLI session log in the trial HOME: only the final response and "
                       "the tool counts of its JSON result are known")
    steps.model(text=text_of(document.get("response")))
    stats = mapping(document.get("stats"))
    tools = mapping(stats.get("tools"))
    by_name = mapping(tools.get("byName"))
    counts = ", ".join(f"{name} x{number(v.get('count')) or 0}" for name, v in by_name.items()
                       if isinstance(v, dict))
    if counts:
        steps.note(f"tool calls (counts only, order unknown): {counts}")
    if document.get("error"):
        steps.note(f"error: {text_of(document.get('error'))}"[:2000])
