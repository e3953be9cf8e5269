"""What the behaviour table reads from disk: each trial's `trajectory.jsonl` and each challenge's
`expect:` block, found from the results files beside their run folders.

A trial is read only at the folder its harness-written record names (`logs_dir`, relative, inside
the run folder); a missing or malformed trajectory leaves that trial out of the behaviour means.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path, PurePosixPath

from agentbench.adapters.trajectory import FILE_NAME, TrajectoryError, read_steps
from agentbench.comparison.behaviour import (
    AgentBehaviour,
    Behaviour,
    Check,
    check_expectations,
    summarise,
    trial_behaviour,
)
from agentbench.comparison.model import Comparison
from agentbench.errors import AgentBenchError
from agentbench.models import Expectations, RunRecord, TrialRecord
from agentbench.store import RunDir


def trial_folder(run_root: Path, record: TrialRecord) -> Path | None:
    """The trial's folder as its record names it: inside the run folder, or, for a trial a latest
    export took from an earlier run (`../<run-id>/trials/...`), inside that sibling run folder;
    None when the name leaves the results folder any other way."""
    parts = PurePosixPath(record.logs_dir).parts
    base = run_root
    if parts[:1] == ("..",):
        base, parts = run_root.parent, parts[1:]
    if not parts or parts[0] == "/" or ".." in parts:
        return None
    return base.joinpath(*parts)


def read_behaviour(run_root: Path, record: TrialRecord) -> Behaviour | None:
    """One trial's behaviour from its trajectory (None: no readable trajectory)."""
    folder = trial_folder(run_root, record)
    if folder is None:
        return None
    try:
        header, steps = read_steps(folder / FILE_NAME)
    except (OSError, TrajectoryError):
        return None
    return trial_behaviour(steps, parsed=header.parsed, started_at=record.started_at)


def run_expectations(run_root: Path) -> dict[str, Expectations]:
    """Challenge ID -> its `expect:` block, for the challenges of a run (from its plan)."""
    from agentbench.loader import scan_challenges

    try:
        plan = RunDir(run_root).read_plan()
        challenges, _ = scan_challenges([Path(d) for d in plan.challenge_dirs])
    except (AgentBenchError, OSError):
        return {}
    return {c.id: c.expect for c in challenges if c.expect is not None and c.id in plan.challenge_ids}


def agent_behaviour(label: str, run: RunRecord, run_root: Path) -> AgentBehaviour | None:
    """One results file's behaviour summary (None when none of its trials has a trajectory)."""
    expectations = run_expectations(run_root)
    behaviours: list[Behaviour] = []
    checks: list[Check] = []
    for record in run.trials:
        found = read_behaviour(run_root, record)
        if found is None:
            continue
        behaviours.append(found)
        expect = expectations.get(record.challenge_id)
        if expect is not None:
            checks += check_expectations(expect, found, record.challenge_id, record.trial)
    return summarise(label, behaviours, checks) if behaviours else None


def with_behaviour(comparison: Comparison, runs: Sequence[RunRecord],
                   folders: Sequence[Path | None]) -> Comparison:
    """The comparison with each agent's behaviour, for runs whose run folder sits in the given
    results folder (`<folder>/<run-id>/`; None: unknown, no behaviour)."""
    found = []
    for summary, run, folder in zip(comparison.agents, runs, folders, strict=True):
        if folder is None:
            continue
        behaviour = agent_behaviour(summary.label, run, folder / run.run_id)
        if behaviour is not None:
            found.append(behaviour)
    return replace(comparison, behaviour=tuple(found)) if found else comparison
