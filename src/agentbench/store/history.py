"""An agent's score over runs, from the results database: one point per run, with its interval.

A run's point is the seed's aggregate (mean over challenges of the per-challenge mean of scored
trials) with a Student t interval over its challenges; with `challenge`, the mean of that
challenge's scored trials with an interval over the trials. Runs are grouped by the agent's CLI
version and model, each group summarised over its runs. The score read is the seed rubric's by
default (comparable across runs whatever rubric each used), or the verified rubric's.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean

from agentbench.errors import UsageError
from agentbench.stats import mean_interval, within
from agentbench.store.database import Connection

_SCORES = {
    "seed": ("SELECT t.run_id, r.started_at, t.challenge_id, t.seed_score, t.agent_version, t.model "
             "FROM trials t JOIN runs r ON r.run_id = t.run_id WHERE t.agent = ? AND t.scored = 1 "
             "AND t.seed_score IS NOT NULL AND (CAST(? AS TEXT) IS NULL OR t.challenge_id = ?) "
             "ORDER BY r.started_at, t.run_id"),
    "verified": ("SELECT t.run_id, r.started_at, t.challenge_id, t.verified_score, t.agent_version, "
                 "t.model FROM trials t JOIN runs r ON r.run_id = t.run_id WHERE t.agent = ? "
                 "AND t.scored = 1 AND t.verified_score IS NOT NULL "
                 "AND (CAST(? AS TEXT) IS NULL OR t.challenge_id = ?) "
                 "ORDER BY r.started_at, t.run_id"),
}
RUBRICS = tuple(_SCORES)
"""The rubrics `history` can read."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Point:
    """One run of the agent."""

    run_id: str
    started_at: str
    version: str | None
    """The agent CLI's version in that run."""
    model: str | None
    """The model it was run with (None: the CLI's default)."""
    score: float
    """The run's aggregate (or, for one challenge, its trials' mean)."""
    low: float | None
    """Lower end of the 95% interval (None: a single challenge or trial)."""
    high: float | None
    """Upper end of the 95% interval."""
    n: int
    """Challenges (or, for one challenge, trials) the point averages."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Group:
    """The runs of one (CLI version, model)."""

    version: str | None
    model: str | None
    runs: int
    mean: float
    """Mean of the runs' points."""
    low: float | None
    """95% interval over the runs' points (None with one run)."""
    high: float | None
    first: str
    """When its first run started."""
    last: str
    """When its last run started."""


@dataclass(frozen=True, slots=True, kw_only=True)
class History:
    """An agent's score over runs."""

    agent: str
    challenge: str | None
    rubric: str
    unit: str
    """What each point's interval is over: `challenges` or `trials`."""
    points: tuple[Point, ...]
    groups: tuple[Group, ...]


def history(connection: Connection, agent: str, challenge: str | None = None,
            rubric: str = "seed") -> History:
    """The agent's score per run (oldest first), and per CLI version and model."""
    if rubric not in _SCORES:
        raise UsageError(f"unknown rubric {rubric!r}", f"use one of: {', '.join(RUBRICS)}")
    rows = connection.query(_SCORES[rubric], (agent, challenge, challenge))
    if not rows:
        what = f" on {challenge}" if challenge else ""
        raise UsageError(f"no scored trial of {agent!r}{what} in {connection.location.shown}",
                         "check the names with `agentbench runs --agent NAME` and `agentbench show`")
    by_run: dict[str, list[tuple[str, float]]] = defaultdict(list)
    facts: dict[str, tuple[str, str | None, str | None]] = {}
    for run_id, started, cid, score, version, model in rows:
        by_run[run_id].append((cid, float(score)))
        facts.setdefault(run_id, (started, version, model))
    points = tuple(_point(run_id, facts[run_id], by_run[run_id], challenge is not None)
                   for run_id in by_run)
    return History(agent=agent, challenge=challenge, rubric=rubric,
                   unit="trials" if challenge else "challenges", points=points,
                   groups=_groups(points))


def _point(run_id: str, fact: tuple[str, str | None, str | None], scores: list[tuple[str, float]],
           per_trial: bool) -> Point:
    if per_trial:
        values = [s for _, s in scores]
    else:
        cells: dict[str, list[float]] = defaultdict(list)
        for cid, s in scores:
            cells[cid].append(s)
        values = [fmean(v) for v in cells.values()]
    interval = within(mean_interval(values))
    return Point(run_id=run_id, started_at=fact[0], version=fact[1], model=fact[2],
                 score=fmean(values), low=interval.low if interval else None,
                 high=interval.high if interval else None, n=len(values))


def _groups(points: tuple[Point, ...]) -> tuple[Group, ...]:
    grouped: dict[tuple[str | None, str | None], list[Point]] = defaultdict(list)
    for p in points:
        grouped[(p.version, p.model)].append(p)
    out = []
    for (version, model), members in grouped.items():
        interval = within(mean_interval([p.score for p in members]))
        out.append(Group(version=version, model=model, runs=len(members),
                         mean=fmean(p.score for p in members),
                         low=interval.low if interval else None,
                         high=interval.high if interval else None,
                         first=members[0].started_at, last=members[-1].started_at))
    return tuple(sorted(out, key=lambda g: g.first))
