"""Behaviour metrics from trajectories, and the challenges' `expect:` checks: pure, never scored.

From one trial's steps (`agentbench.adapters.trajectory`): tool calls per kind and per raw name,
shell commands, distinct files written, model turns, time to the first write, whether the agent ran
tests itself (and after its last write), failed calls. Per agent, the means over the trials whose
transcript could be read. A challenge's `expect:` block is checked against each trial's behaviour;
the results are reported in their own table and never enter a score.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from agentbench.adapters.trajectory import KINDS, Step
from agentbench.models import EXPECTATION_FIELDS, Expectations


@dataclass(frozen=True, slots=True, kw_only=True)
class Behaviour:
    """What one trial's agent did, from its trajectory."""

    parsed: bool
    """Whether the transcript could be read (False: every count below is 0 and means nothing)."""
    tool_calls: tuple[tuple[str, int], ...]
    """Calls per normalised kind, in KINDS order."""
    tools: tuple[tuple[str, int], ...]
    """Calls per raw tool name, most used first."""
    shell_commands: int
    """Shell commands run."""
    files_written: int
    """Distinct files written or edited."""
    turns: int
    """Model turns."""
    failed_calls: int
    """Tool calls that reported a failure."""
    first_write_s: float | None
    """Seconds from the start to the first write (None: no write, or no timestamps)."""
    ran_tests: bool
    """The agent ran a test suite itself."""
    tested_after_last_write: bool
    """It ran tests after its last write (it tested the code it left)."""

    @property
    def total_calls(self) -> int:
        """Tool calls of every kind."""
        return sum(n for _, n in self.tool_calls)


def trial_behaviour(steps: Sequence[Step], *, parsed: bool, started_at: str | None = None) -> Behaviour:
    """The behaviour of one trial (`started_at`: when the agent started, ISO-8601)."""
    calls = [s for s in steps if s.type == "tool"]
    writes = [i for i, s in enumerate(steps) if s.kind == "write"]
    tests = [i for i, s in enumerate(steps) if s.runs_tests]
    kinds = Counter(s.kind for s in calls)
    return Behaviour(
        parsed=parsed, tool_calls=tuple((k, kinds.get(k, 0)) for k in KINDS),
        tools=tuple(Counter(s.tool for s in calls).most_common()),
        shell_commands=kinds.get("shell", 0), files_written=len(_written(calls)),
        turns=sum(1 for s in steps if s.type == "model"),
        failed_calls=sum(1 for s in calls if s.is_error),
        first_write_s=_seconds_to(steps, writes[0], started_at) if writes else None,
        ran_tests=bool(tests), tested_after_last_write=_tested_last(tests, writes),
    )


def _written(calls: Sequence[Step]) -> set[str]:
    """Distinct files written by calls that succeeded (a call may name several: `a.py, b.py`):
    write tools' files and the files a shell command visibly wrote (`Step.wrote`)."""
    named = [s.target if s.kind == "write" else s.wrote for s in calls if s.is_error is not True]
    return {t.removeprefix("./") for text in named for t in text.split(", ") if t}


def _tested_last(tests: Sequence[int], writes: Sequence[int]) -> bool:
    return bool(tests) and (not writes or tests[-1] > writes[-1])


def _seconds_to(steps: Sequence[Step], index: int, started_at: str | None) -> float | None:
    end = _when(steps[index].time)
    start = _when(started_at) or next((t for t in (_when(s.time) for s in steps) if t), None)
    if end is None or start is None:
        return None
    return max(0.0, round((end - start).total_seconds(), 3))


def _when(iso: str | None) -> datetime | None:
    if not iso:
        return None
    try:
        value = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return None
    return value if value.tzinfo else None


@dataclass(frozen=True, slots=True, kw_only=True)
class Check:
    """One `expect:` item checked on one trial."""

    challenge_id: str
    """The challenge."""
    trial: int
    """The trial number."""
    name: str
    """The expectation (`ran_tests`, `max_turns`...)."""
    expected: str
    """What was expected, in words."""
    actual: str
    """What the trajectory shows."""
    met: bool | None
    """Met, not met, or None: cannot tell (no readable transcript, no timestamps)."""


def check_expectations(expect: Expectations, behaviour: Behaviour, challenge_id: str,
                       trial: int) -> tuple[Check, ...]:
    """Each set item of `expect` against one trial's behaviour."""
    actual: dict[str, float | bool | None] = {
        "ran_tests": behaviour.ran_tests, "max_turns": behaviour.turns,
        "max_tool_calls": behaviour.total_calls, "max_shell_commands": behaviour.shell_commands,
        "max_files_written": behaviour.files_written,
        "max_seconds_to_first_write": behaviour.first_write_s,
    }
    checks = []
    for name in EXPECTATION_FIELDS:
        wanted = getattr(expect, name)
        if wanted is None:
            continue
        value = actual[name] if behaviour.parsed else None
        if name == "ran_tests":
            met = None if value is None else value == wanted
            words = ("ran tests" if wanted else "ran no tests"), _yes_no(value, "ran tests", "ran no tests")
        else:
            met = None if value is None else float(value) <= float(wanted)
            words = f"at most {wanted:g}", "unknown" if value is None else f"{value:g}"
        checks.append(Check(challenge_id=challenge_id, trial=trial, name=name, expected=words[0],
                            actual=words[1], met=met))
    return tuple(checks)


def _yes_no(value: float | bool | None, yes: str, no: str) -> str:
    return "unknown" if value is None else (yes if value else no)


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentBehaviour:
    """One agent's behaviour over its trials (means over trials with a readable transcript)."""

    label: str
    """The agent's label in the comparison."""
    trials: int
    """Trials with a readable transcript."""
    unreadable: int
    """Trials whose transcript could not be read (left out of the means)."""
    tool_calls: tuple[tuple[str, float | None], ...]
    """Mean calls per trial, per kind (None: no trial read)."""
    top_tools: tuple[tuple[str, int], ...]
    """Calls per raw tool name over every trial, most used first."""
    shell_commands: float | None
    """Mean shell commands per trial."""
    files_written: float | None
    """Mean distinct files written per trial."""
    turns: float | None
    """Mean model turns per trial."""
    first_write_s: float | None
    """Median seconds to the first write, over trials where it is known."""
    ran_tests: float | None
    """Share of trials in which the agent ran tests itself."""
    checks: tuple[Check, ...] = ()
    """Every `expect:` item checked on every trial of this agent."""

    @property
    def checks_met(self) -> int:
        """Checks met."""
        return sum(1 for c in self.checks if c.met)

    @property
    def checks_known(self) -> int:
        """Checks that could be decided."""
        return sum(1 for c in self.checks if c.met is not None)


def summarise(label: str, trials: Sequence[Behaviour], checks: Sequence[Check] = ()) -> AgentBehaviour:
    """An agent's behaviour over its trials."""
    read = [b for b in trials if b.parsed]
    firsts = [b.first_write_s for b in read if b.first_write_s is not None]
    names: Counter[str] = Counter()
    for b in read:
        names.update(dict(b.tools))
    return AgentBehaviour(
        label=label, trials=len(read), unreadable=len(trials) - len(read),
        tool_calls=tuple((k, _mean([dict(b.tool_calls)[k] for b in read])) for k in KINDS),
        top_tools=tuple(names.most_common()),
        shell_commands=_mean([b.shell_commands for b in read]),
        files_written=_mean([b.files_written for b in read]), turns=_mean([b.turns for b in read]),
        first_write_s=statistics.median(firsts) if firsts else None,
        ran_tests=_mean([1.0 if b.ran_tests else 0.0 for b in read]), checks=tuple(checks))


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None
