"""Transcript parsers: each CLI's output -> the common `Step`s of `agentbench.adapters.trajectory`.

One module per CLI (`claude_code`, `codex`, `gemini`, `aider`, `opencode`, `qwen`), each with one
`parse(transcript) -> StepList`; `build_trajectory` picks the parser by adapter name, adds the
prompt, and turns any failure into a note (a transcript that cannot be parsed never fails a trial).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from agentbench.adapters.trajectory import (
    Header,
    Step,
    StepList,
    Trajectory,
    Transcript,
    cut,
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
    notes = list(found.notes)
    if not found.steps:
        notes.append(f"no step found in the transcript: the raw transcript is in {STDOUT}")
    header = Header(agent=agent, parser=adapter or "", parsed=bool(found.steps),
                    source=(STDOUT, *found.sources), notes=tuple(notes))
    return Trajectory(header=header, steps=(prompt_step, *found.steps))


def parser_name(adapter: object) -> str | None:
    """The transcript parser's name for an adapter object: its CLI adapter's name, else None."""
    from agentbench.adapters.cli_base import CommandAdapter

    if isinstance(adapter, CommandAdapter):
        return type(adapter).adapter_name or None
    return None
