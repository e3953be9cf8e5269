"""Reading the results database: runs, one run, one run's records, an agent's latest results.

Every query is a constant; optional filters are written `(CAST(? AS TEXT) IS NULL OR col = ?)` so
the same text serves with or without them, on SQLite and PostgreSQL alike. Records come back
through `records.loads_trial`, the only deserialiser.

The **latest** results of an agent (`agent@latest`, and `results/<agent>.json`) are, for each
challenge, the trials of the newest run that holds that challenge for that agent: three runs of
easy, medium and hard give one record over all 13 challenges. Its `run_id` is the newest run's;
a trial from an earlier run gets `logs_dir` `../<its run>/trials/...`, still relative to that run's
folder, so every link reaches its own trial. Trials from a run with another rubric are scored with
the newest run's rubric (both scores are in every record).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from agentbench import __version__
from agentbench.errors import UsageError
from agentbench.models import RunRecord, TrialRecord
from agentbench.records import loads_trial
from agentbench.store.database import Connection

NO_LIMIT = 1_000_000_000
_FILTER = ("(CAST(? AS TEXT) IS NULL OR r.run_id IN (SELECT a.run_id FROM run_agents a WHERE a.agent = ?)) "
           "AND (CAST(? AS TEXT) IS NULL OR r.started_at >= ?) "
           "AND (CAST(? AS TEXT) IS NULL OR r.started_at < ?) "
           "AND (CAST(? AS TEXT) IS NULL OR r.status = ?)")
LIST_RUNS = ("SELECT r.run_id, r.started_at, r.finished_at, r.status, r.agents, r.challenges, "
             "r.planned, r.rubric, r.machine, r.agentbench_version, r.model FROM runs r WHERE "
             + _FILTER + " ORDER BY r.started_at DESC, r.run_id DESC LIMIT ?")
RUN_CELLS = ("SELECT t.run_id, t.agent, t.challenge_id, COUNT(*), "
             "AVG(CASE WHEN t.scored = 1 THEN t.score END) FROM trials t WHERE t.run_id IN "
             "(SELECT r.run_id FROM runs r WHERE " + _FILTER + " ORDER BY r.started_at DESC, "
             "r.run_id DESC LIMIT ?) GROUP BY t.run_id, t.agent, t.challenge_id")
RUN_ROW = ("SELECT run_id, results_dir, machine, started_at, finished_at, status, agents, challenges, "
           "planned, trials_per, rubric, model, options, agentbench_version, isolation "
           "FROM runs WHERE run_id = ?")
RUN_AGENTS = "SELECT agent, model, agent_version FROM run_agents WHERE run_id = ? ORDER BY agent"
RUN_RECORDS = ("SELECT record FROM records WHERE run_id = ? AND agent = ? "
               "ORDER BY challenge_id, trial")
AGENT_CHALLENGE_RUNS = ("SELECT t.challenge_id, t.run_id, r.started_at, r.rubric FROM trials t "
                        "JOIN runs r ON r.run_id = t.run_id WHERE t.agent = ? "
                        "GROUP BY t.challenge_id, t.run_id, r.started_at, r.rubric")
CELL_RECORDS = ("SELECT record FROM records WHERE run_id = ? AND agent = ? AND challenge_id = ? "
                "ORDER BY trial")
AGENT_MODEL = "SELECT model FROM run_agents WHERE run_id = ? AND agent = ?"
COUNTS = "SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM trials)"


@dataclass(frozen=True, slots=True, kw_only=True)
class RunFilter:
    """Which runs `list_runs` returns."""

    agent: str | None = None
    """Only runs of this agent."""
    since: str | None = None
    """Only runs started on or after this ISO date or time (UTC)."""
    until: str | None = None
    """Only runs started before this ISO date or time (UTC)."""
    status: str | None = None
    """Only runs with this status."""
    limit: int | None = None
    """At most this many, newest first (None: all)."""

    def params(self) -> tuple[Any, ...]:
        """The parameters of `_FILTER` and the limit."""
        pairs = (self.agent, self.since, self.until, self.status)
        return (*(v for value in pairs for v in (value, value)),
                NO_LIMIT if self.limit is None else self.limit)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunSummary:
    """One line of `agentbench runs`."""

    run_id: str
    started_at: str
    finished_at: str | None
    status: str
    agents: tuple[str, ...]
    challenges: int
    planned: int
    recorded: int
    rubric: str
    model: str | None
    machine: str
    agentbench_version: str
    scores: tuple[tuple[str, float | None], ...]
    """(agent, aggregate under the run's rubric: mean over challenges of the challenge means)."""


def list_runs(connection: Connection, where: RunFilter | None = None) -> tuple[RunSummary, ...]:
    """The runs matching `where`, newest first, each with its per-agent aggregate."""
    params = (where or RunFilter()).params()
    rows = connection.query(LIST_RUNS, params)
    cells: dict[str, dict[str, list[float]]] = {}
    counts: dict[str, int] = {}
    for run_id, agent, _cid, count, mean in connection.query(RUN_CELLS, params):
        counts[run_id] = counts.get(run_id, 0) + int(count)
        means = cells.setdefault(run_id, {}).setdefault(agent, [])
        if mean is not None:
            means.append(float(mean))
    return tuple(_summary(row, cells.get(row[0], {}), counts.get(row[0], 0)) for row in rows)


def _summary(row: tuple[Any, ...], cells: dict[str, list[float]], recorded: int) -> RunSummary:
    agents = tuple(json.loads(row[4]))
    scores = tuple((a, sum(cells[a]) / len(cells[a]) if cells.get(a) else None) for a in agents)
    return RunSummary(run_id=row[0], started_at=row[1], finished_at=row[2], status=row[3],
                      agents=agents, challenges=len(json.loads(row[5])), planned=int(row[6]),
                      recorded=recorded, rubric=row[7], machine=row[8],
                      agentbench_version=row[9], model=row[10], scores=scores)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunRow:
    """A run as indexed: everything `agentbench show RUN_ID` says about it."""

    run_id: str
    results_dir: str
    machine: str
    started_at: str
    finished_at: str | None
    status: str
    agents: tuple[str, ...]
    challenges: tuple[str, ...]
    planned: int
    trials_per: int
    rubric: str
    model: str | None
    options: tuple[tuple[str, Any], ...]
    agentbench_version: str
    isolation: str | None
    agent_models: tuple[tuple[str, str | None, str | None], ...]
    """(agent, model, CLI version)."""


RUN_IDS = "SELECT run_id, started_at FROM runs ORDER BY started_at, run_id"


def resolve_run_id(connection: Connection, ref: str) -> str:
    """The run ID `ref` names: itself, `latest` (the newest run), or a prefix of exactly one run
    ID. No match or several: a UsageError saying which (and how to list the runs)."""
    runs = [str(run_id) for run_id, _ in connection.query(RUN_IDS, ())]
    if ref in runs:
        return ref
    if ref == "latest" and runs:
        return runs[-1]
    matches = [run_id for run_id in runs if ref and run_id.startswith(ref)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        shown = ", ".join(matches[-5:]) + (f" and {len(matches) - 5} more" if len(matches) > 5 else "")
        raise UsageError(f"{ref!r} starts {len(matches)} run IDs: {shown}",
                         "give more of the run ID (see `agentbench runs`)")
    raise UsageError(f"no run {ref!r} in the results database {connection.location.shown}",
                     "list the runs with `agentbench runs` (or index run folders with "
                     "`agentbench db rebuild`); a unique prefix of a run ID or `latest` also works")


def run_row(connection: Connection, ref: str) -> RunRow:
    """One run (named by its ID, a unique prefix of it, or `latest`), or a UsageError naming what
    exists."""
    run_id = resolve_run_id(connection, ref)
    rows = connection.query(RUN_ROW, (run_id,))
    if not rows:
        raise UsageError(f"no run {run_id!r} in the results database {connection.location.shown}",
                         "list the runs with `agentbench runs` (or index run folders with "
                         "`agentbench db rebuild`)")
    r = rows[0]
    options = json.loads(r[12])
    return RunRow(run_id=r[0], results_dir=r[1], machine=r[2], started_at=r[3], finished_at=r[4],
                  status=r[5], agents=tuple(json.loads(r[6])), challenges=tuple(json.loads(r[7])),
                  planned=int(r[8]), trials_per=int(r[9]), rubric=r[10], model=r[11],
                  options=tuple(sorted(options.items())), agentbench_version=r[13], isolation=r[14],
                  agent_models=tuple(connection.query(RUN_AGENTS, (run_id,))))


def _records(connection: Connection, sql: str, params: tuple[Any, ...]) -> list[TrialRecord]:
    where = f"{connection.location.shown}:{'/'.join(map(str, params))}"
    return [loads_trial(text, where) for (text,) in connection.query(sql, params)]


def run_record(connection: Connection, run: RunRow, agent: str) -> RunRecord:
    """One agent's results in one run, as its results file holds them."""
    if agent not in run.agents:
        raise UsageError(f"run {run.run_id} has no agent {agent!r} (its agents: "
                         f"{', '.join(run.agents)})", "pick one of them, e.g. "
                         f"{run.agents[0]}@{run.run_id}")
    trials = _records(connection, RUN_RECORDS, (run.run_id, agent))
    order = {cid: i for i, cid in enumerate(run.challenges)}
    trials.sort(key=lambda t: (order.get(t.challenge_id, len(order)), t.trial))
    return RunRecord(agent=agent, run_id=run.run_id, rubric=run.rubric, created_at=run.started_at,
                     agentbench_version=run.agentbench_version, trials=tuple(trials))


@dataclass(frozen=True, slots=True, kw_only=True)
class Latest:
    """An agent's newest trials per challenge, as one results record."""

    record: RunRecord
    """The trials; `run_id` is the newest contributing run."""
    runs: tuple[tuple[str, tuple[str, ...]], ...]
    """(run ID, the challenges taken from it), newest run first."""
    model: str | None
    """The model of the newest run, if every contributing run used the same one."""


def latest(connection: Connection, agent: str) -> Latest:
    """The agent's newest trials of every challenge it has run (see the module's docstring)."""
    newest: dict[str, tuple[str, str, str]] = {}
    for cid, run_id, started, rubric in connection.query(AGENT_CHALLENGE_RUNS, (agent,)):
        if cid not in newest or (started, run_id) > newest[cid][:2]:
            newest[cid] = (started, run_id, rubric)
    if not newest:
        raise UsageError(f"no trial of agent {agent!r} in the results database "
                         f"{connection.location.shown}",
                         "check the name with `agentbench runs`, or run it first")
    runs = sorted({(s, r, rb) for s, r, rb in newest.values()}, reverse=True)
    _, head, rubric = runs[0]
    trials: list[TrialRecord] = []
    for cid in sorted(newest, key=lambda c: (newest[c][:2], c)):
        run_id = newest[cid][1]
        for t in _records(connection, CELL_RECORDS, (run_id, agent, cid)):
            trials.append(_moved(t, run_id, head, rubric))
    models = {m for _, r, _ in runs for (m,) in connection.query(AGENT_MODEL, (r, agent))}
    taken = tuple((r, tuple(sorted(c for c, v in newest.items() if v[1] == r))) for _, r, _ in runs)
    record = RunRecord(agent=agent, run_id=head, rubric=rubric,
                       created_at=datetime.now(UTC).isoformat(timespec="seconds"),
                       agentbench_version=__version__, trials=tuple(trials))
    return Latest(record=record, runs=taken, model=models.pop() if len(models) == 1 else None)


def _moved(trial: TrialRecord, run_id: str, head: str, rubric: str) -> TrialRecord:
    """A trial of run `run_id` seen from run `head`'s folder, scored with `rubric`."""
    if run_id != head:
        trial = replace(trial, logs_dir=f"../{run_id}/{trial.logs_dir}")
    if trial.score is not None and trial.score.rubric != rubric:
        trial = replace(trial, score=trial.seed_score if rubric == "seed" else trial.verified_score)
    return trial


def counts(connection: Connection) -> tuple[int, int]:
    """(runs, trials) in the database."""
    runs, trials = connection.query(COUNTS)[0]
    return int(runs), int(trials)


def _flat_query() -> str:
    from agentbench.store.index import TRIAL_COLUMNS

    # NOTE: the column names are constants of `store.index`; no value is formatted in.
    shown = ", ".join(TRIAL_COLUMNS)
    return f"SELECT {shown} FROM trials WHERE run_id = ? ORDER BY agent, challenge_id, trial"


def flat_columns() -> tuple[str, ...]:
    """Names of the columns `trial_rows` returns (every indexed column of a trial)."""
    from agentbench.store.index import TRIAL_COLUMNS

    return TRIAL_COLUMNS


def trial_rows(connection: Connection, run_id: str) -> list[dict[str, Any]]:
    """Every trial of a run as a flat row (the indexed columns), ordered by agent and challenge."""
    names = flat_columns()
    return [dict(zip(names, row, strict=True)) for row in connection.query(_flat_query(), (run_id,))]


TRIAL_RECORD = ("SELECT r.record, t.trial_dir FROM records r JOIN trials t ON t.run_id = r.run_id "
                "AND t.agent = r.agent AND t.challenge_id = r.challenge_id AND t.trial = r.trial "
                "WHERE r.run_id = ? AND r.agent = ? AND r.challenge_id = ? AND r.trial = ?")
RUN_TRIAL_RECORDS = "SELECT record FROM records WHERE run_id = ? ORDER BY agent, challenge_id, trial"


def trial_record(connection: Connection, run_id: str, key: tuple[str, str, int]) -> tuple[TrialRecord, str]:
    """One trial's record and its folder, or a UsageError."""
    rows = connection.query(TRIAL_RECORD, (run_id, *key))
    if not rows:
        agent, cid, n = key
        raise UsageError(f"run {run_id} has no trial {agent}/{cid}/{n}",
                         f"list its trials with `agentbench show {run_id}`")
    text, folder = rows[0]
    return loads_trial(text, f"{connection.location.shown}:{run_id}"), folder


def run_trial_records(connection: Connection, run_id: str) -> list[TrialRecord]:
    """Every trial record of a run, ordered by agent, challenge and trial."""
    return _records(connection, RUN_TRIAL_RECORDS, (run_id,))
