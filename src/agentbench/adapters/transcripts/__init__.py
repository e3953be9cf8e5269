"""Transcript parsers: each CLI's output -> the common `Step`s of `agentbench.adapters.trajectory`.

One module per CLI (`claude_code`, `codex`, `gemini`, `aider`, `opencode`, `qwen`), each with one
`parse(transcript) -> StepList`; `build_trajectory` picks the parser by adapter name, adds the
prompt, and turns any failure into a note (a transcript that cannot be parsed never fails a trial).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from agentbench.adapters.meter import METER_LOG
from agentbench.adapters.trajectory import (
    Header,
    Step,
    StepList,
    Trajectory,
    Transcript,
    cut,
    number,
    read_text_capped,
)
from agentbench.adapters.transcripts import aider, claude_code, codex, gemini, opencode, qwen

Parser = Callable[[Transcript], StepList]

PARSERS: Mapping[str, Parser] = {
    "claude-code": claude_code.parse,
    "codex": codex.parse,
    "gemini": gemini.parse,
    "aider": aider.parse,
    "opencode": opencode.parse,
    "qwen": qwen.parse,
}
"""Adapter name -> its transcript parser."""

STDOUT = "agent/stdout.log"
STDERR = "agent/stderr.log"
METER_FILE = f"agent/{METER_LOG}"
"""The harness's meter reading of a metered trial (per-call tokens)."""


def build_trajectory(*, agent: str, adapter: str | None, prompt: str, trial_dir: Path,
                     workspace: Path | None = None, home: Path | None = None) -> Trajectory:
    """The trajectory of a trial from its transcript (`agent/stdout.log`, `agent/stderr.log`).

    Never raises on what the agent wrote: an unknown agent, a missing or oversized transcript, or
    a parser failure gives the prompt and a note (the raw transcript stays where it is).
    """
    prompt_step = Step(type="prompt", text=cut(prompt))
    parser = PARSERS.get(adapter or "")
    if parser is None:
        why = ("an in-process agent: no transcript" if not (trial_dir / STDOUT).exists() else
               f"no trajectory parser for this agent's output: the raw transcript is in {STDOUT}")
        return Trajectory(header=Header(agent=agent, notes=(why,)), steps=(prompt_step,))
    stdout = read_text_capped(trial_dir / STDOUT)
    stderr = read_text_capped(trial_dir / STDERR) or ""
    if stdout is None:
        note = f"{STDOUT} is missing, not a regular file, or too large to parse"
        return Trajectory(header=Header(agent=agent, parser=adapter or "", notes=(note,)),
                          steps=(prompt_step,))
    try:
        found = parser(Transcript(stdout=stdout, stderr=stderr, workspace=workspace, home=home))
    except Exception as exc:  # NOTE: the agent's output is arbitrary; a parser bug is a note
        note = (f"could not parse the transcript ({type(exc).__name__}: {exc}); "
                f"the raw transcript is in {STDOUT}")
        return Trajectory(header=Header(agent=agent, parser=adapter or "", source=(STDOUT,),
                                        notes=(note,)), steps=(prompt_step,))
    metered_turns(found, trial_dir)
    notes = list(found.notes)
    if not found.steps:
        notes.append(f"no step found in the transcript: the raw transcript is in {STDOUT}")
    header = Header(agent=agent, parser=adapter or "", parsed=bool(found.steps),
                    source=(STDOUT, *found.sources), notes=tuple(notes))
    return Trajectory(header=header, steps=(prompt_step, *found.steps))


def metered_turns(found: StepList, trial_dir: Path) -> None:
    """Each model turn's tokens as the harness's meter counted them (`agent/meter.json`, written by
    the harness, under `meter`), where its main-loop calls (those offering tools, else all) are
    one per model turn of the transcript; otherwise a note says the CLI's own figures stay."""
    text = read_text_capped(trial_dir / METER_FILE)
    if text is None:
        return
    try:
        calls = [c for c in json.loads(text).get("calls", []) if isinstance(c, dict)]
    except (ValueError, AttributeError, TypeError):
        return
    main = [c for c in calls if c.get("tools") is True] or calls
    turns = [i for i, step in enumerate(found.steps) if step.type == "model"]
    if len(main) != len(turns):
        found.notes.append(f"the meter counted {len(main)} main-loop model calls, the transcript "
                           f"shows {len(turns)} model turns: per-turn tokens are the CLI's own")
        return
    for index, call in zip(turns, main, strict=True):
        found.steps[index] = replace(found.steps[index], input_tokens=number(call.get("input")),
                                     output_tokens=number(call.get("output")))
    found.sources.append(METER_FILE)


def parser_name(adapter: object) -> str | None:
    """The transcript parser's name for an adapter object: its CLI adapter's name, else None."""
    from agentbench.adapters.cli_base import CommandAdapter

    if isinstance(adapter, CommandAdapter):
        return type(adapter).adapter_name or None
    return None
