"""Aider's plain-text output (`--no-pretty`, whole-file edit format): a best-effort reading.

Aider prints each model reply, then `Tokens: N sent, M received. Cost: ...` for that call: the text
between two such lines is one model turn. In a reply, a line naming a file followed by a fenced
block is a whole-file write; `Applied edit to PATH` confirms it; `## Running: COMMAND` is a command
aider ran itself (its linter or the test command) with its output below. The rest of the reply is
the model's prose. Aider records no timestamps.
"""

from __future__ import annotations

import re

from agentbench.adapters.aider import _HEADER, _TOKENS, count
from agentbench.adapters.trajectory import StepList, Transcript

_COST = re.compile(r"Cost: \$(?P<message>[\d.]+) message")
_FENCE = re.compile(r"^\s*(```|<<<<<<<|>>>>>>>|=======)")
_APPLIED = re.compile(r"^Applied edit to (?P<path>.+)$")
_RUNNING = re.compile(r"^## Running: (?P<command>.*)$")
_PATH = re.compile(r"^[\w./-][\w./ -]*\.?\w*$")


def parse(transcript: Transcript) -> StepList:
    """Steps from aider's output."""
    steps = StepList()
    lines = transcript.stdout.splitlines()
    start = 0
    for i, line in enumerate(lines):
        match = _TOKENS.match(line)
        if match:
            _turn(lines[start:i], steps, match, line)
            start = i + 1
    if start < len(lines):
        _after(lines[start:], steps)
    return steps


def _turn(lines: list[str], steps: StepList, tokens: re.Match[str], line: str) -> None:
    """One model call: its reply (prose and file blocks), then what aider did after the last."""
    cost = _COST.search(line)
    sent = count(tokens["sent"]) + sum(count(tokens[k]) for k in ("write", "hit") if tokens[k])
    prose, files = _reply(_own_output(lines, steps))
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


def _reply(lines: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
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
            kept = body[::2] if _double_spaced(body) else body
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
