"""What each viewer page shows, as plain values for its template (no HTML here).

Pages are cut server-side so that none costs more than a fixed amount of work: a run's trials are
listed `TRIALS_PER_PAGE` at a time, a trajectory `STEPS_PER_PAGE` steps at a time with each text
cut to `SHOWN_TEXT` characters (the whole step one click away), logs in 64 KB windows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from agentbench.adapters.trajectory import FILE_NAME, Header, Step, TrajectoryError, read_steps
from agentbench.comparison import CompareOptions, Comparison, compare_both
from agentbench.comparison.behaviour import AgentBehaviour, Check, check_expectations, summarise
from agentbench.models import RunRecord, TrialRecord
from agentbench.report import views
from agentbench.viewer import files
from agentbench.viewer.explain import explain
from agentbench.viewer.library import Library, NotFound, RunState
from agentbench.viewer.urls import url

TRIALS_PER_PAGE = 100
STEPS_PER_PAGE = 100
SHOWN_TEXT = 2_000
"""Characters of a step's text, reasoning, arguments or result shown in a timeline."""
SIDE_STEPS = 60
"""Steps of each agent shown on the side-by-side page."""
DIFFED_FILES = 30
"""Files compared line by line on the side-by-side page at most."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TrialKey:
    """Which trial a page is about."""

    run_id: str
    agent: str
    challenge_id: str
    trial: int

    @property
    def url_values(self) -> dict[str, Any]:
        """The trial page's URL values."""
        tier, name = self.challenge_id.split("/", 1)
        return {"run_id": self.run_id, "agent": self.agent, "tier": tier, "name": name,
                "trial": self.trial}


def key_of(run_id: str, record: TrialRecord) -> TrialKey:
    """The key of a record's trial."""
    return TrialKey(run_id=run_id, agent=record.agent, challenge_id=record.challenge_id,
                    trial=record.trial)


# --- runs and a run ------------------------------------------------------------------------------

def runs(library: Library) -> dict[str, Any]:
    """The runs page."""
    return {"title": "Runs", "results": str(library.results), "runs": library.summaries()}


def comparison(state: RunState) -> tuple[Comparison | None, tuple[tuple[str, Comparison], ...]]:
    """The ranking of a run's agents over its finished trials (None: nothing finished)."""
    by_agent: dict[str, list[TrialRecord]] = defaultdict(list)
    for record in state.records:
        by_agent[record.agent].append(record)
    records = [RunRecord(agent=a, run_id=state.run_id, rubric=state.plan.rubric,
                         created_at=state.plan.created_at, agentbench_version="",
                         trials=tuple(by_agent[a])) for a in state.plan.agents if by_agent[a]]
    if not records:
        return None, ()
    return compare_both(records, sources=[state.run_id] * len(records),
                        models=[state.plan.model_of(r.agent) for r in records],
                        options=CompareOptions())


def run(library: Library, run_id: str, page: int) -> dict[str, Any]:
    """A run: ranking with intervals, challenge x agent grid, behaviour, trials (one page)."""
    state = library.state(run_id)
    c, others = comparison(state)
    if c is not None:
        c = replace(c, behaviour=tuple(_behaviours(library, state)))
    rows = state.records[page * TRIALS_PER_PAGE:(page + 1) * TRIALS_PER_PAGE]
    return {
        "title": f"Run {run_id}", "state": state, "c": c,
        "tables": [] if c is None else [v for v in (views.ranking(c, others), views.behaviour(c),
                                                    views.expectations(c), views.breakdown(c),
                                                    views.languages(c)) if v],
        "grid": _grid(state, c), "trials": [_trial_row(run_id, r) for r in rows],
        "page": page, "pages": max(1, -(-len(state.records) // TRIALS_PER_PAGE)),
        "progress": progress(library, run_id, 0, rows=False, state=state),
    }


def _behaviours(library: Library, state: RunState) -> list[AgentBehaviour]:
    """Each agent's behaviour over its finished trials, with its challenges' `expect:` checks."""
    expect = library.expectations(state.run_id)
    found = []
    for agent in state.plan.agents:
        trials, checks = [], list[Check]()
        for r in state.records:
            b = library.behaviour(state.run_id, r) if r.agent == agent else None
            if b is None:
                continue
            trials.append(b)
            if r.challenge_id in expect:
                checks += check_expectations(expect[r.challenge_id], b, r.challenge_id, r.trial)
        if trials:
            found.append(summarise(agent, trials, checks))
    return found


def _grid(state: RunState, c: Comparison | None) -> list[dict[str, Any]]:
    agents = state.plan.agents
    rows = []
    for cid in state.plan.challenge_ids:
        cells = []
        for agent in agents:
            cell = c.cell(agent, cid) if c else None
            first = next((r for r in state.records if r.agent == agent and r.challenge_id == cid), None)
            cells.append({"agent": agent, "mean": None if cell is None else cell.summary.mean,
                          "n": 0 if cell is None else cell.summary.n,
                          "hidden": None if cell is None else cell.hidden_rate,
                          "status": first.status.value if first else "not finished",
                          "key": key_of(state.run_id, first) if first else None})
        tier, name = cid.split("/", 1)
        rows.append({"challenge": cid, "tier": tier, "name": name, "cells": cells})
    return rows


def _trial_row(run_id: str, record: TrialRecord) -> dict[str, Any]:
    hidden = record.measurements.acceptance.tests if record.measurements and record.measurements.acceptance else None
    return {"key": key_of(run_id, record), "record": record,
            "score": record.score.total if record.score else None,
            "hidden": ("forged" if hidden.tampering else f"{hidden.passed}/{hidden.total}") if hidden else "-",
            "seconds": record.agent_seconds}


def progress(library: Library, run_id: str, since: int, *, rows: bool = True,
             state: RunState | None = None) -> dict[str, Any]:
    """The live view's JSON: counts, and the trials finished after `since` (ns since the epoch;
    `state`: the run as just read, else read now)."""
    state = state or library.state(run_id)
    newer = [(t, r) for t, r in zip(state.finished_at, state.records, strict=True) if t > since]
    newer.sort(key=lambda pair: pair[0])
    return {
        "planned": state.planned, "finished": len(state.records), "started": len(state.started),
        "done": len(state.records) >= state.planned, "next": max(state.finished_at, default=since),
        "trials": [_live_row(run_id, r) for _, r in newer] if rows else [],
    }


def _live_row(run_id: str, record: TrialRecord) -> dict[str, Any]:
    return {"agent": record.agent, "challenge": record.challenge_id, "trial": record.trial,
            "status": record.status.value, "url": url("trial", **key_of(run_id, record).url_values),
            "score": None if record.score is None else round(record.score.total, 1)}


# --- a trial -------------------------------------------------------------------------------------

def _shown(step: Step) -> Step:
    """A step with each long text cut for a timeline."""
    return replace(step, text=_cut(step.text), reasoning=_cut(step.reasoning), args=_cut(step.args),
                   result=_cut(step.result))


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_TEXT else text[:SHOWN_TEXT] + " [...]"


def trajectory(folder: Path, start: int, limit: int, *,
               cut: bool = True) -> tuple[Header | None, tuple[Step, ...], str | None]:
    """(header, steps `start`.. `start + limit`, problem) of a trial's trajectory (long texts cut
    unless `cut` is False)."""
    try:
        header, steps = read_steps(folder / FILE_NAME, start, limit)
    except FileNotFoundError:
        return None, (), "no trajectory.jsonl in this trial (a run from before trajectories, or still running)"
    except (OSError, TrajectoryError) as exc:
        return None, (), f"trajectory.jsonl cannot be read: {exc}"
    return header, tuple(_shown(s) for s in steps) if cut else steps, None


def trial(library: Library, key: TrialKey, start: int, step: str | None) -> dict[str, Any]:
    """A trial: prompt, score breakdown, behaviour, trajectory (a page or one step), files, logs."""
    folder = library.trial_dir(key.run_id, key.agent, key.challenge_id, key.trial)
    record = library.state(key.run_id).record(key.agent, key.challenge_id, key.trial)
    if record is None and not folder.is_dir():
        raise NotFound(f"trial {key.trial} of {key.agent} on {key.challenge_id} has not started")
    if step is not None and step.isdigit():
        header, steps, problem = trajectory(folder, int(step), 1, cut=False)
    else:
        header, steps, problem = trajectory(folder, start, STEPS_PER_PAGE)
    prompt = files.read_window(folder / "prompt.md")
    return {
        "title": f"{key.agent} on {key.challenge_id} #{key.trial}", "key": key, "record": record,
        "prompt": prompt.text if prompt else "", "prompt_size": prompt.size if prompt else 0,
        "components": explain(record, folder) if record else (),
        "verified": explain(record, folder, record.verified_score) if record and record.verified_score else (),
        "behaviour": library.behaviour(key.run_id, record) if record else None,
        "header": header, "steps": steps, "problem": problem,
        "single": step is not None and step.isdigit(), "per_page": STEPS_PER_PAGE,
        "start": int(step) if step is not None and step.isdigit() else start,
        "files": files.tree(folder / "workspace"), "logs": files.logs(folder),
        "changes": record.changes if record else None, "changes_diff": _changes_diff(folder),
        "others": [a for a in library.plan(key.run_id).agents if a != key.agent],
    }


def _changes_diff(folder: Path) -> tuple[files.DiffLine, ...]:
    """The first window of the trial's `changes.diff` (the agent's diff against its starting tree)."""
    window = files.read_window(folder / "changes.diff")
    return files.unified_lines(window.text) if window else ()


def log(library: Library, key: TrialKey, path: str, offset: int) -> dict[str, Any]:
    """One log file, a window at `offset`."""
    folder = library.trial_dir(key.run_id, key.agent, key.challenge_id, key.trial)
    if path not in {name for name, _ in files.logs(folder)}:
        raise NotFound(f"no log {path!r} in this trial")
    found = files.inside(folder, path)
    window = files.read_window(found, offset) if found else None
    if window is None:
        raise NotFound(f"{path} cannot be read")
    return {"title": path, "key": key, "path": path, "window": window, "size": files.WINDOW}


def workspace_file(library: Library, key: TrialKey, path: str) -> dict[str, Any]:
    """A file the agent left, as a diff against the starting workspace (empty: a new file)."""
    folder = library.trial_dir(key.run_id, key.agent, key.challenge_id, key.trial)
    found = files.inside(folder / "workspace", path)
    text = files.read_text(found) if found else None
    if text is None:
        raise NotFound(f"no file {path!r} in the workspace this trial left")
    return {"title": path, "key": key, "path": path,
            "diff": files.diff(None, text, old_name=path, new_name=path),
            "size": found.lstat().st_size if found else 0}


# --- two agents side by side ---------------------------------------------------------------------

def side_by_side(library: Library, run_id: str, challenge_id: str,
                 query: Mapping[str, str]) -> dict[str, Any]:
    """Two agents' trials of one challenge (`query`: `a`, `b` agents, `ta`, `tb` trials): scores,
    behaviour, trajectories and their files' diff."""
    plan = library.plan(run_id)
    agents = list(plan.agents)
    a = next((x for x in agents if x == query.get("a")), agents[0])
    b = next((x for x in agents if x == query.get("b")), agents[min(1, len(agents) - 1)])
    trial_a, trial_b = (int(query[k]) if query.get(k, "").isdigit() else 1 for k in ("ta", "tb"))
    sides = [_side(library, TrialKey(run_id=run_id, agent=agent, challenge_id=challenge_id, trial=n))
             for agent, n in ((a, trial_a), (b, trial_b))]
    return {"title": f"{a} vs {b} on {challenge_id}", "run_id": run_id, "challenge_id": challenge_id,
            "agents": agents, "a": a, "b": b, "sides": sides, "trials": range(1, plan.trials + 1),
            "diffs": _file_diffs(sides[0]["folder"], sides[1]["folder"])}


def _side(library: Library, key: TrialKey) -> dict[str, Any]:
    folder = library.trial_dir(key.run_id, key.agent, key.challenge_id, key.trial)
    record = library.state(key.run_id).record(key.agent, key.challenge_id, key.trial)
    header, steps, problem = trajectory(folder, 0, SIDE_STEPS)
    return {"key": key, "record": record, "folder": folder, "header": header, "steps": steps,
            "problem": problem, "components": explain(record, folder) if record else (),
            "behaviour": library.behaviour(key.run_id, record) if record else None}


def _text(path: Path | None) -> str | None:
    return files.read_text(path) if path is not None else None


def _file_diffs(left: Path, right: Path) -> list[dict[str, Any]]:
    ours, theirs = dict(files.tree(left / "workspace")), dict(files.tree(right / "workspace"))
    out: list[dict[str, Any]] = []
    for path in sorted(set(ours) | set(theirs)):
        a = _text(files.inside(left / "workspace", path)) if path in ours else None
        b = _text(files.inside(right / "workspace", path)) if path in theirs else None
        state = "only left" if b is None else "only right" if a is None else "same" if a == b else "differs"
        lines = files.diff(a, b, old_name=path, new_name=path) if state != "same" and len(out) < DIFFED_FILES else ()
        out.append({"path": path, "state": state, "lines": lines})
    return out
