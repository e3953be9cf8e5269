"""The database from the folders: a run's row from its plan, and whole results folders indexed again.

The folders are the source of truth. A run folder is a folder of the results folder holding a
`run.json` (never a symlink); its trials are the planned ones whose `record.json` reads back at its
exact path (`RunDir.finished`), so a `record.json` an agent planted anywhere in its workspace is
never indexed.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from agentbench.errors import AgentBenchError
from agentbench.models import TrialRecord
from agentbench.records import parse_json
from agentbench.store.database import Location
from agentbench.store.folders import PLAN_NAME, RunDir, RunPlan
from agentbench.store.index import ResultsIndex, RunInfo

ALL_RUNS = "SELECT run_id, results_dir FROM runs"


def info_from_plan(plan: RunPlan, results_dir: Path, *, status: str,
                   extra: tuple[tuple[str, Any], ...] = ()) -> RunInfo:
    """A run's `RunInfo` from its plan (the caller adds what only the running harness knows:
    agents' models and versions, isolation, AgentBench's version, with `dataclasses.replace`)."""
    options = (("sandbox", plan.sandbox), ("agent_timeout_s", plan.agent_timeout_s),
               ("challenge_dirs", list(plan.challenge_dirs)), *extra)
    return RunInfo(run_id=plan.run_id, results_dir=str(results_dir.resolve()),
                   started_at=plan.created_at, status=status, agents=plan.agents,
                   challenges=plan.challenge_ids, trials_per=plan.trials, rubric=plan.rubric,
                   model=plan.model, options=options, agentbench_version="unknown",
                   isolation=None)


def planned_keys(plan: RunPlan) -> tuple[tuple[str, str, int], ...]:
    """(agent, challenge ID, trial) of every trial the plan asks for."""
    return tuple((agent, cid, n) for cid in plan.challenge_ids for n in range(1, plan.trials + 1)
                 for agent in plan.agents)


def folder_records(run_dir: RunDir, plan: RunPlan) -> list[tuple[TrialRecord, Path]]:
    """The run's finished trials with their folders, read from the folders."""
    found = run_dir.finished(planned_keys(plan))
    return [(record, run_dir.trial_dir(*key)) for key, record in found.items()]


def folder_run(results_dir: Path, run_id: str) -> tuple[RunInfo, list[tuple[TrialRecord, Path]]]:
    """One run folder as the database indexes it."""
    run_dir = RunDir(results_dir / run_id)
    plan = run_dir.read_plan()
    records = folder_records(run_dir, plan)
    versions: dict[str, str | None] = {}
    for record, _ in records:
        if record.adapter is not None and record.adapter.version:
            versions.setdefault(record.agent, record.adapter.version)
    status = "finished" if len(records) == len(planned_keys(plan)) else "incomplete"
    version, written = _results_files(run_dir, plan)
    info = replace(info_from_plan(plan, results_dir, status=status),
                   agentbench_version=version, finished_at=written or _last_trial_end(records),
                   agent_models=tuple((a, plan.model_of(a), versions.get(a)) for a in plan.agents),
                   isolation=records[0][0].isolation if records else None)
    return info, records


def _results_files(run_dir: RunDir, plan: RunPlan) -> tuple[str, str | None]:
    """The AgentBench version in the run's own results files and when the first was written (the
    run's end: the harness writes them as it finishes), if any was."""
    version, written = "unknown", []
    for agent in plan.agents:
        with contextlib.suppress(OSError, ValueError, AgentBenchError):
            path = run_dir.results_file(agent)
            data = parse_json(path.read_text(encoding="utf-8"), str(path))
            data = data if isinstance(data, dict) else {}
            found, created = data.get("agentbench_version"), data.get("created_at")
            if isinstance(found, str) and version == "unknown":
                version = found
            if isinstance(created, str) and (moment := _parsed(created)) is not None:
                written.append(moment)
    return version, min(written).isoformat(timespec="seconds") if written else None


def _last_trial_end(records: list[tuple[TrialRecord, Path]]) -> str | None:
    """When the run's last trial ended (a run stopped before writing its results files)."""
    ends = [start + timedelta(seconds=r.duration_s) for r, _ in records
            if (start := _parsed(r.started_at)) is not None]
    return max(ends).isoformat(timespec="seconds") if ends else None


def _parsed(stamp: str) -> datetime | None:
    with contextlib.suppress(ValueError):
        moment = datetime.fromisoformat(stamp)
        return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return None


def run_folders(results_dir: Path) -> list[str]:
    """IDs of the run folders directly in `results_dir` (folders holding a run plan, no symlinks)."""
    if not results_dir.is_dir():
        return []
    return sorted(p.name for p in results_dir.iterdir()
                  if not p.is_symlink() and p.is_dir() and (p / PLAN_NAME).is_file()
                  and not (p / PLAN_NAME).is_symlink())


@dataclass(frozen=True, slots=True, kw_only=True)
class Rebuilt:
    """What `rebuild` did."""

    runs: int
    """Runs indexed."""
    trials: int
    """Trials indexed."""
    removed: tuple[str, ...]
    """Runs dropped from the database: indexed from this results folder, their folder now gone."""
    skipped: tuple[tuple[str, str], ...]
    """(run ID, why) of run folders that could not be read."""


def rebuild(index: ResultsIndex, results_dir: Path) -> Rebuilt:
    """Index every run folder of `results_dir` again, in one transaction.

    Runs that the database lists under this results folder but whose folder is gone are dropped;
    runs of other results folders (a shared PostgreSQL store) are left as they are.
    """
    here = str(results_dir.resolve())
    ids = run_folders(results_dir)
    runs, skipped = [], []
    for run_id in ids:
        try:
            runs.append(folder_run(results_dir, run_id))
        except AgentBenchError as exc:
            skipped.append((run_id, exc.message))
    known = index.connection.query(ALL_RUNS)
    gone = tuple(sorted(r for r, folder in known if folder == here and r not in ids))
    replaced = [info.run_id for info, _ in runs]
    count = index.replace_runs((*gone, *replaced), runs)
    return Rebuilt(runs=len(runs), trials=count, removed=gone, skipped=tuple(skipped))


def move_aside(location: Location) -> Path | None:
    """Rename an unusable SQLite file (and its journal) to `<name>.broken-<time>`; its new name."""
    if location.kind != "sqlite":
        return None
    path = Path(location.target)
    if not path.exists():
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.broken-{stamp}")
    for suffix in ("-journal", "-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    os.replace(path, target)
    return target
