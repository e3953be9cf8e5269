"""Writing the results database: runs and trials, in the discipline of the trial folders.

The harness writes a trial's `record.json` first and then `add_trial` here, so a trial is in the
database only once its record is complete; `sync_run` (at the start and end of every run and
resume) indexes whatever records the folder holds that the database lacks, so a run killed between
the two writes is put right by `--resume`. `rebuild` indexes whole results folders again, reading
each planned trial's record at its exact path (never a search through trial folders).

A trial is a row of `trials`, its fields laid out as columns for queries (status, the score and
its components, measurements, the agent's version, model, tokens, cost, times, the trial folder,
the challenge's language, how many things the harness cut),
and a row of `records` holding the record as written (the JSON of its `record.json`).
"""

from __future__ import annotations

import json
import platform
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentbench.models import TrialRecord
from agentbench.records import dumps_trial
from agentbench.store.database import Connection, Writer

RUN_COLUMNS: tuple[str, ...] = (
    "run_id", "results_dir", "machine", "started_at", "finished_at", "status", "agents",
    "challenges", "planned", "trials_per", "rubric", "model", "options", "agentbench_version",
    "isolation")
TRIAL_COLUMNS: tuple[str, ...] = (
    "run_id", "agent", "challenge_id", "trial", "tier", "status", "scored", "rubric", "score",
    "seed_score", "verified_score", "build_points", "tests_points", "coverage_points",
    "quality_points", "completeness_points", "efficiency_points", "acceptance_points",
    "score_scale", "build_ok", "tests_passed", "tests_failed", "tests_skipped", "tests_collected",
    "covered_lines", "total_lines", "average_complexity", "functions", "items_found",
    "items_missing", "hidden_passed", "hidden_total", "agent_version", "model", "input_tokens",
    "output_tokens", "cost_usd", "turns", "agent_seconds", "duration_s", "started_at",
    "isolation", "error", "trial_dir", "logs_dir", "language", "cuts")
RECORD_COLUMNS: tuple[str, ...] = ("run_id", "agent", "challenge_id", "trial", "record")
KEY: tuple[str, ...] = ("run_id", "agent", "challenge_id", "trial")


def _upsert(table: str, columns: Sequence[str], key: Sequence[str], keep: Sequence[str] = ()) -> str:
    # NOTE: built once, at import, from the constant names above: no value is ever formatted in.
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in (*key, *keep))
    return (f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}) "
            f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}")


UPSERT_RUN = _upsert("runs", RUN_COLUMNS, ("run_id",), keep=("started_at",))
UPSERT_TRIAL = _upsert("trials", TRIAL_COLUMNS, KEY)
UPSERT_RECORD = _upsert("records", RECORD_COLUMNS, KEY)
UPSERT_RUN_AGENT = _upsert("run_agents", ("run_id", "agent", "model", "agent_version"),
                           ("run_id", "agent"))
SET_STATUS = "UPDATE runs SET status = ?, finished_at = ? WHERE run_id = ?"
DELETE_TRIALS = "DELETE FROM trials WHERE run_id = ?"
DELETE_RECORDS = "DELETE FROM records WHERE run_id = ?"
DELETE_RUN_AGENTS = "DELETE FROM run_agents WHERE run_id = ?"
DELETE_RUN = "DELETE FROM runs WHERE run_id = ?"


@dataclass(frozen=True, slots=True, kw_only=True)
class RunInfo:
    """One run as the database indexes it."""

    run_id: str
    """The run's ID (its folder name)."""
    results_dir: str
    """The results folder holding the run folder (absolute, on `machine`)."""
    started_at: str
    """ISO-8601 UTC start of the run."""
    status: str
    """`running`, `finished` (every planned trial recorded), `incomplete` or `interrupted`."""
    agents: tuple[str, ...]
    """The agents, in order."""
    challenges: tuple[str, ...]
    """The challenge IDs, in order."""
    trials_per: int
    """Trials per (agent, challenge)."""
    rubric: str
    """The rubric `score` used."""
    model: str | None
    """`--model`, if given."""
    options: tuple[tuple[str, Any], ...]
    """The run's other options (sandbox, time limit, jobs, retries, executor, challenge folders)."""
    agentbench_version: str
    """The AgentBench version that ran it."""
    isolation: str | None
    """The isolation each trial got (as the run header says it)."""
    agent_models: tuple[tuple[str, str | None, str | None], ...] = ()
    """(agent, model, CLI version) per agent: the model from --model or the agents config file."""
    machine: str = ""
    """Host name of the machine that ran it (default: this one)."""
    finished_at: str | None = None
    """ISO-8601 UTC end, once it ended."""

    def row(self) -> tuple[Any, ...]:
        """The `runs` row, in `RUN_COLUMNS` order."""
        return (self.run_id, self.results_dir, self.machine or platform.node(), self.started_at,
                self.finished_at, self.status, json.dumps(list(self.agents)),
                json.dumps(list(self.challenges)), len(self.agents) * len(self.challenges) * self.trials_per,
                self.trials_per, self.rubric, self.model, json.dumps(dict(self.options), sort_keys=True),
                self.agentbench_version, self.isolation)

    def model_of(self, agent: str) -> str | None:
        """The model `agent` was run with (None: its CLI's default)."""
        return next((m for a, m, _ in self.agent_models if a == agent), self.model)


def trial_row(run_id: str, record: TrialRecord, trial_dir: Path, model: str | None) -> tuple[Any, ...]:
    """The `trials` row of one record, in `TRIAL_COLUMNS` order."""
    return (run_id, record.agent, record.challenge_id, record.trial,
            record.challenge_id.split("/", 1)[0], record.status.value, int(record.scored),
            *_score_columns(record), *_measurement_columns(record), *_adapter_columns(record, model),
            record.agent_seconds, record.duration_s, record.started_at, record.isolation,
            record.error, str(trial_dir), record.logs_dir, record.language, len(record.cut))


def record_row(run_id: str, record: TrialRecord) -> tuple[Any, ...]:
    """The `records` row of one record: the JSON its `record.json` holds."""
    return (run_id, record.agent, record.challenge_id, record.trial, dumps_trial(record))


def _total(score: Any) -> float | None:
    return None if score is None else round(float(score.total), 6)


def _score_columns(record: TrialRecord) -> tuple[Any, ...]:
    s = record.score
    parts = ((s.build, s.tests, s.coverage, s.quality, s.completeness, s.efficiency, s.acceptance,
              s.scale) if s is not None else (None,) * 8)
    return (s.rubric if s else None, _total(s), _total(record.seed_score),
            _total(record.verified_score), *parts)


def _measurement_columns(record: TrialRecord) -> tuple[Any, ...]:
    m = record.measurements
    if m is None:
        return (None,) * 13
    hidden = m.acceptance.tests if m.acceptance is not None else None
    return (int(m.build.success), m.tests.passed, m.tests.failed, m.tests.skipped, m.tests.total,
            m.coverage.covered_lines, m.coverage.total_lines, m.quality.average_complexity,
            m.quality.functions, len(m.completeness.found), len(m.completeness.missing),
            hidden.passed if hidden else None, hidden.total if hidden else None)


def _adapter_columns(record: TrialRecord, model: str | None) -> tuple[Any, ...]:
    a = record.adapter
    if a is None:
        return (None, model, None, None, None, None)
    return (a.version, model, a.input_tokens, a.output_tokens, a.cost_usd, a.prompts_used)


class ResultsIndex:
    """The write side of the results database."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    @property
    def shown(self) -> str:
        """Where the database is, printable (password masked)."""
        return self.connection.location.shown

    def start_run(self, info: RunInfo) -> None:
        """Index a run that starts (or resumes): its row and its agents."""
        with self.connection.write() as writer:
            _put_run(writer, info)

    def add_trial(self, run_id: str, record: TrialRecord, trial_dir: Path, model: str | None) -> None:
        """Index one trial whose record is already on disk (replacing an older row of it)."""
        with self.connection.write() as writer:
            writer.execute(UPSERT_TRIAL, trial_row(run_id, record, trial_dir, model))
            writer.execute(UPSERT_RECORD, record_row(run_id, record))

    def sync_run(self, info: RunInfo, records: Iterable[tuple[TrialRecord, Path]]) -> None:
        """Index every given trial of a run (records read from its folder), in one transaction."""
        with self.connection.write() as writer:
            _put_run(writer, info)
            _put_trials(writer, info, records)

    def set_status(self, run_id: str, status: str, finished_at: str | None) -> None:
        """Record how a run ended."""
        with self.connection.write() as writer:
            writer.execute(SET_STATUS, (status, finished_at, run_id))

    def replace_runs(self, remove: Iterable[str], runs: Iterable[tuple[RunInfo, Sequence[tuple[TrialRecord, Path]]]]) -> int:
        """In one transaction: drop the runs `remove`, then index `runs` anew; trials indexed."""
        count = 0
        with self.connection.write() as writer:
            for run_id in remove:
                for statement in (DELETE_TRIALS, DELETE_RECORDS, DELETE_RUN_AGENTS, DELETE_RUN):
                    writer.execute(statement, (run_id,))
            for info, records in runs:
                _put_run(writer, info)
                count += _put_trials(writer, info, records)
        return count

    def close(self) -> None:
        """Close the connection."""
        self.connection.close()


def _put_trials(writer: Writer, info: RunInfo, records: Iterable[tuple[TrialRecord, Path]]) -> int:
    pairs = list(records)
    if pairs:
        writer.executemany(UPSERT_TRIAL, [trial_row(info.run_id, r, d, info.model_of(r.agent))
                                          for r, d in pairs])
        writer.executemany(UPSERT_RECORD, [record_row(info.run_id, r) for r, _ in pairs])
    return len(pairs)


def _put_run(writer: Writer, info: RunInfo) -> None:
    writer.execute(UPSERT_RUN, info.row())
    for agent, model, version in info.agent_models or tuple((a, info.model, None) for a in info.agents):
        writer.execute(UPSERT_RUN_AGENT, (info.run_id, agent, model, version))
