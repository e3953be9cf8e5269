"""Aider's plain-text output (`--no-pretty`, whole-file edit format): a best-effort reading.

Aider prints each model reply, then `Tokens: N sent, M received. Cost: ...` for that call: the text
between two such lines is one model turn. In a reply, a line naming a file followed by a fenced
block is a whole-file write; `Applied edit to PATH` confirms it; `## Running: COMMAND` is a command
aider ran itself (its linter or the test command) with its output below. The rest of the reply is
the model's prose. Aider records no timestamps.
"""

from __future__ import annotations

import re
from dataclasses import replace

from agentbench.adapters.aider import (
    _HEADER,
    _TOKENS,
    ANALYTICS_LOG,
    LLM_HISTORY,
    MessageSend,
    count,
    message_sends,
)
from agentbench.adapters.trajectory import StepList, Transcript, read_text_capped

_COST = re.compile(r"Cost: \$(?P<message>[\d.]+) message")
_FENCE = re.compile(r"^\s*(```|<<<<<<<|>>>>>>>|=======)")
_APPLIED = re.compile(r"^Applied edit to (?P<path>.+)$")
_RUNNING = re.compile(r"^## Running: (?P<command>.*)$")
_PATH = re.compile(r"^[\w./-][\w./ -]*\.?\w*$")


def parse(transcript: Transcript) -> StepList:
    """Steps from aider's output; each reply verbatim and each call's exact tokens from aider's
    LLM history and analytics log in the trial HOME, where they match the output's calls."""
    steps = StepList()
    lines = transcript.stdout.splitlines()
    calls = len(_TOKENS.findall(transcript.stdout))
    replies, sends = _home_logs(transcript, calls, steps)
    start = 0
    for i, line in enumerate(lines):
        match = _TOKENS.match(line)
        if match:
            turn = steps.turn
            _turn(lines[start:i], steps, match, line, replies[turn] if replies else None)
            if sends:
                index = max(j for j, s in enumerate(steps.steps) if s.type == "model")
                steps.steps[index] = replace(steps.steps[index], input_tokens=sends[turn].input,
                                             output_tokens=sends[turn].output)
            start = i + 1
    if start < len(lines):
        _after(lines[start:], steps)
    return steps


def _home_logs(transcript: Transcript, calls: int,
               steps: StepList) -> tuple[list[list[str]], list[MessageSend]]:
    """(each reply's lines, each call's tokens) from the HOME's logs, each only when it has one
    entry per call the output shows."""
    if transcript.home is None or not calls:
        return [], []
    replies = _responses(read_text_capped(transcript.home / LLM_HISTORY) or "")
    sends = message_sends(read_text_capped(transcript.home / ANALYTICS_LOG) or "")
    for name, found in ((LLM_HISTORY, replies), (ANALYTICS_LOG, sends)):
        if len(found) == calls:
            steps.sources.append(f"HOME/{name}")
        elif found:
            steps.note(f"HOME/{name} has {len(found)} model calls, the output {calls}: not used")
    return (replies if len(replies) == calls else []), (sends if len(sends) == calls else [])


_BLOCK = re.compile(r"^(TO LLM|LLM RESPONSE) \d{4}-\d\d-\d\dT[\d:]+$")


def _responses(history: str) -> list[list[str]]:
    """The model's replies in aider's LLM history, verbatim (`ASSISTANT ` prefixes removed)."""
    replies: list[list[str]] = []
    current: list[str] | None = None
    for line in history.splitlines():
        block = _BLOCK.match(line)
        if block:
            current = [] if block[1] == "LLM RESPONSE" else None
            if current is not None:
                replies.append(current)
        elif current is not None and line.startswith("ASSISTANT"):
            current.append(line[len("ASSISTANT "):])
    return replies


def _turn(lines: list[str], steps: StepList, tokens: re.Match[str], line: str,
          reply: list[str] | None = None) -> None:
    """One model call: its reply (prose and file blocks; verbatim from aider's LLM history where
    given), then what aider did after the last."""
    cost = _COST.search(line)
    sent = count(tokens["sent"]) + sum(count(tokens[k]) for k in ("write", "hit") if tokens[k])
    shown = _own_output(lines, steps)
    prose, files = _reply(reply, verbatim=True) if reply is not None else _reply(shown)
    steps.model(text="\n".join(prose).strip(), input_tokens=sent,
                output_tokens=count(tokens["received"]),
                cost_usd=float(cost["message"]) if cost else None)
    for path, content in files:
        steps.call("whole_file", {"path": path, "content": content}, call_id=f"{steps.turn}:{path}",
                   target=path, kind="write")


def _own_output(lines: list[str], steps: StepList) -> list[str]:
    """Aider's own lines before a reply (applied edits, commands it ran) become steps; the reply
    itself (what follows them) is returned."""
    last = 0
    for i, line in enumerate(lines):
        applied, running = _APPLIED.match(line), _RUNNING.match(line)
        if applied:
            steps.result(f"{steps.turn}:{applied['path'].strip()}", line, is_error=False)
            last = i + 1
        elif running:
            end = _block_end(lines, i + 1)
            command = " ".join([running["command"], *(x.strip() for x in lines[i + 1:end] if x.startswith("--"))])
            steps.call("aider_run", {"command": command}, call_id=f"run{i}:{steps.turn}", target=command,
                       kind="shell")
            output_end = _output_end(lines, end)
            steps.result(f"run{i}:{steps.turn}", "\n".join(lines[end:output_end]).strip())
            last = output_end
    return lines[last:]


def _block_end(lines: list[str], i: int) -> int:
    while i < len(lines) and lines[i].startswith("--"):
        i += 1
    return i


def _output_end(lines: list[str], i: int) -> int:
    """The command's output runs to aider's next `## ` heading followed by a blank-line gap."""
    while i < len(lines) and not (lines[i].startswith("## ") and not _RUNNING.match(lines[i])):
        i += 1
    while i < len(lines) and (lines[i].startswith("## ") or not lines[i].strip() or "│" in lines[i]
                              or "█" in lines[i] or lines[i].endswith(":")):
        i += 1
    return i


def _reply(lines: list[str], verbatim: bool = False) -> tuple[list[str], list[tuple[str, str]]]:
    """(prose lines, [(path, content)]) of a reply in the whole-file format."""
    prose: list[str] = []
    files: list[tuple[str, str]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        following = next((j for j in range(i + 1, len(lines)) if lines[j].strip()), None)
        if _PATH.match(line.strip()) and following is not None and _FENCE.match(lines[following]):
            end = next((j for j in range(following + 1, len(lines)) if _FENCE.match(lines[j])), len(lines))
            body = lines[following + 1:end]
            kept = body[::2] if not verbatim and _double_spaced(body) else body
            files.append((line.strip(), "".join(f"{x}\n" for x in kept)))
            i = end + 1
            continue
        if line.strip() and not _HEADER.match(line):
            prose.append(line.rstrip())
        i += 1
    return prose, files


def _double_spaced(body: list[str]) -> bool:
    """Aider's dumb-terminal output puts a blank line after every line of a listing."""
    return len(body) > 1 and all(not line.strip() for line in body[1::2])


def _after(lines: list[str], steps: StepList) -> None:
    rest = _own_output(lines, steps)
    text = "\n".join(line for line in rest if line.strip() and not _HEADER.match(line)).strip()
    if text and steps.turn:
        steps.note(f"aider's output after the last model call: {text[:2000]}")
