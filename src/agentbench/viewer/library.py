"""The viewer's read side: the runs under a results folder, their plans and trial records.

Runs are the folders `results/<run-id>/` holding a `run.json`; a run's trials are read only at the
exact paths its plan names (`RunDir.finished`), never found by searching trial folders (an archived
workspace holds anything an agent wrote). Records are cached by file size and modification time,
so a page of a 1,000-trial run re-reads only what changed since the last one (a live run).
Nothing here writes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from agentbench.adapters.trajectory import FILE_NAME, TrajectoryError, read_steps
from agentbench.comparison.behaviour import Behaviour, trial_behaviour
from agentbench.comparison.evidence import run_expectations, trial_folder
from agentbench.errors import AgentBenchError
from agentbench.models import Expectations, TrialRecord
from agentbench.store import PLAN_NAME, RECORD_NAME, RunDir, RunPlan

MAX_RUNS = 500
"""Runs listed at most (newest first)."""


class NotFound(LookupError):
    """A run, agent, challenge or trial that the results folder does not hold."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunSummary:
    """One run, as the runs page lists it."""

    run_id: str
    plan: RunPlan
    planned: int
    """Trials planned."""
    finished: int
    """Trials with a record."""
    started: int
    """Trials whose folder exists without a record yet (running, or abandoned by an interrupt)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunState:
    """A run's plan and every finished trial's record, in plan order."""

    run_id: str
    plan: RunPlan
    records: tuple[TrialRecord, ...]
    started: tuple[tuple[str, str, int], ...]
    """(agent, challenge, trial) of trials started and not finished."""
    finished_at: tuple[int, ...] = ()
    """When each record was written (ns since the epoch), parallel to `records`."""

    @property
    def planned(self) -> int:
        """Trials planned."""
        return len(self.plan.agents) * len(self.plan.challenge_ids) * self.plan.trials

    def record(self, agent: str, challenge_id: str, trial: int) -> TrialRecord | None:
        """A finished trial's record, None when it has none yet."""
        for r in self.records:
            if (r.agent, r.challenge_id, r.trial) == (agent, challenge_id, trial):
                return r
        return None


def plan_keys(plan: RunPlan) -> list[tuple[str, str, int]]:
    """Every (agent, challenge, trial) of a plan, in its order."""
    return [(a, c, n) for c in plan.challenge_ids for a in plan.agents for n in range(1, plan.trials + 1)]


class Library:
    """The runs of one results folder (a cache of records, guarded by a lock)."""

    def __init__(self, results: Path) -> None:
        self.results = results
        self._lock = threading.Lock()
        self._records: dict[Path, tuple[tuple[int, int], TrialRecord | None]] = {}
        self._behaviours: dict[Path, tuple[tuple[int, int], Behaviour | None]] = {}
        self._expect: dict[str, dict[str, Expectations]] = {}
        self.warmed = threading.Event()
        """Set once `warm` has read every run (pages are then served from the cache)."""

    def warm(self) -> None:
        """Read every run's records and trajectories once, newest run first, so that the first
        page of a large run is served from the cache (the server runs this in the background).

        NOTE: parsing a record costs about 2 ms (`records.from_jsonable`), so a 1,000-trial run
        takes seconds cold; a page only re-reads what changed after this."""
        try:
            for run_id in self.run_ids():
                try:
                    state = self.state(run_id)
                except NotFound:
                    continue
                for record in state.records:
                    self.behaviour(run_id, record)
        finally:
            self.warmed.set()

    def run_ids(self) -> list[str]:
        """Folders holding a run plan, newest first."""
        try:
            found = [p for p in self.results.iterdir()
                     if p.is_dir() and not p.is_symlink() and (p / PLAN_NAME).is_file()]
        except OSError:
            return []
        found.sort(key=lambda p: (p / PLAN_NAME).stat().st_mtime, reverse=True)
        return [p.name for p in found[:MAX_RUNS]]

    def plan(self, run_id: str) -> RunPlan:
        """A run's plan (raises NotFound)."""
        if run_id not in self.run_ids():
            raise NotFound(f"no run {run_id!r} in {self.results}")
        try:
            return RunDir(self.results / run_id).read_plan()
        except AgentBenchError as exc:
            raise NotFound(f"run {run_id!r}: {exc.message}") from None

    def summaries(self) -> list[RunSummary]:
        """Every run with its progress (counts only: no record is parsed)."""
        out = []
        for run_id in self.run_ids():
            try:
                plan = self.plan(run_id)
            except NotFound:
                continue
            root = RunDir(self.results / run_id)
            finished = started = 0
            for key in plan_keys(plan):
                folder = root.trial_dir(*key)
                if (folder / RECORD_NAME).is_file():
                    finished += 1
                elif folder.is_dir():
                    started += 1
            out.append(RunSummary(run_id=run_id, plan=plan, planned=len(plan_keys(plan)),
                                  finished=finished, started=started))
        return out

    def state(self, run_id: str) -> RunState:
        """A run's plan and finished records (raises NotFound)."""
        plan = self.plan(run_id)
        root = RunDir(self.results / run_id)
        records, started, times = [], [], []
        for key in plan_keys(plan):
            folder = root.trial_dir(*key)
            found = self._record(root, key, folder / RECORD_NAME)
            if found is not None:
                records.append(found[0])
                times.append(found[1])
            elif folder.is_dir():
                started.append(key)
        return RunState(run_id=run_id, plan=plan, records=tuple(records), started=tuple(started),
                        finished_at=tuple(times))

    def _record(self, root: RunDir, key: tuple[str, str, int],
                path: Path) -> tuple[TrialRecord, int] | None:
        """(record, written at) of a finished trial, parsed once per version of its file."""
        stamp = _stamp(path)
        if stamp is None:
            return None
        with self._lock:
            cached = self._records.get(path)
        if cached is None or cached[0] != stamp:
            cached = (stamp, root.finished([key]).get(key))
            with self._lock:
                self._records[path] = cached
        return None if cached[1] is None else (cached[1], stamp[1])

    def behaviour(self, run_id: str, record: TrialRecord) -> Behaviour | None:
        """A finished trial's behaviour from its trajectory (None: none readable); cached."""
        folder = trial_folder(self.results / run_id, record)
        path = folder / FILE_NAME if folder else None
        stamp = _stamp(path) if path else None
        if path is None or stamp is None:
            return None
        with self._lock:
            cached = self._behaviours.get(path)
        if cached is None or cached[0] != stamp:
            try:
                header, steps = read_steps(path)
                found = trial_behaviour(steps, parsed=header.parsed, started_at=record.started_at)
            except (OSError, TrajectoryError):
                found = None
            cached = (stamp, found)
            with self._lock:
                self._behaviours[path] = cached
        return cached[1]

    def expectations(self, run_id: str) -> dict[str, Expectations]:
        """Challenge ID -> its `expect:` block, for a run's challenges (read once per run)."""
        with self._lock:
            found = self._expect.get(run_id)
        if found is None:
            found = run_expectations(self.results / run_id)
            with self._lock:
                self._expect[run_id] = found
        return found

    def trial_dir(self, run_id: str, agent: str, challenge_id: str, trial: int) -> Path:
        """A planned trial's folder (raises NotFound for anything the plan does not name)."""
        plan = self.plan(run_id)
        if agent not in plan.agents or challenge_id not in plan.challenge_ids or not 1 <= trial <= plan.trials:
            raise NotFound(f"run {run_id!r} has no trial {trial} of {agent!r} on {challenge_id!r}")
        return RunDir(self.results / run_id).trial_dir(agent, challenge_id, trial)


def _stamp(path: Path) -> tuple[int, int] | None:
    """(size, modification time) of a regular file, None when there is none."""
    try:
        info = path.lstat()
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns) if info.st_mode & 0o170000 == 0o100000 else None
