"""SQLite persistence for jobs and their dependency edges.

Every public method runs in its own transaction and commits before returning, so the database never holds
uncommitted work while a handler runs; a crash loses at most the attempt that was in progress (which stays
``running`` and is recovered by the next :class:`~jobq.scheduler.Scheduler`).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from .models import CANCELLED, FAILED, PENDING, RUNNING, SUCCEEDED, JobRecord, NewJob

__all__ = ["JobStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT    NOT NULL,
    payload      TEXT    NOT NULL,
    state        TEXT    NOT NULL,
    priority     INTEGER NOT NULL,
    run_at       REAL    NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    backoff_base REAL    NOT NULL,
    last_error   TEXT,
    result       TEXT    NOT NULL DEFAULT 'null',
    created_at   REAL    NOT NULL,
    finished_at  REAL
);
CREATE TABLE IF NOT EXISTS dependencies (
    job_id     INTEGER NOT NULL REFERENCES jobs(id),
    depends_on INTEGER NOT NULL REFERENCES jobs(id),
    PRIMARY KEY (job_id, depends_on)
);
CREATE INDEX IF NOT EXISTS dependencies_by_target ON dependencies(depends_on);
"""

_COLUMNS = (
    "id, name, payload, state, priority, run_at, attempts, max_attempts, backoff_base, "
    "last_error, result, created_at, finished_at"
)

# A job whose dependencies have all succeeded (vacuously true without dependencies).
_DEPENDENCIES_MET = f"""
NOT EXISTS (
    SELECT 1 FROM dependencies d JOIN jobs p ON p.id = d.depends_on
    WHERE d.job_id = j.id AND p.state != '{SUCCEEDED}'
)
"""

_DOWNSTREAM = """
WITH RECURSIVE down(id) AS (
    SELECT job_id FROM dependencies WHERE depends_on = ?
    UNION
    SELECT d.job_id FROM dependencies d JOIN down ON d.depends_on = down.id
)
"""

_UPSTREAM = """
WITH RECURSIVE up(id) AS (
    SELECT depends_on FROM dependencies WHERE job_id = ?
    UNION
    SELECT d.depends_on FROM dependencies d JOIN up ON d.job_id = up.id
)
"""


class JobStore:
    """Data access for the ``jobs`` and ``dependencies`` tables of one SQLite database file."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        self._conn = sqlite3.connect(os.fspath(db_path))
        with self._transaction() as conn:
            conn.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the underlying connection."""
        self._conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._conn:
            yield self._conn

    # -- reads -----------------------------------------------------------------------------------

    def get(self, job_id: int) -> JobRecord | None:
        """Return the job with ``job_id``, or None if there is none."""
        row = self._conn.execute(f"SELECT {_COLUMNS} FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return None if row is None else self._record(row)

    def all_jobs(self, state: str | None = None) -> list[JobRecord]:
        """Return all jobs (optionally only those in ``state``), ordered by id."""
        sql = f"SELECT {_COLUMNS} FROM jobs"
        params: tuple[str, ...] = ()
        if state is not None:
            sql, params = sql + " WHERE state = ?", (state,)
        rows = self._conn.execute(sql + " ORDER BY id", params).fetchall()
        return [self._record(row) for row in rows]

    def missing(self, job_ids: Iterable[int]) -> list[int]:
        """Return those of ``job_ids`` that do not exist."""
        return [job_id for job_id in job_ids if self.get(job_id) is None]

    def any_in_state(self, job_ids: Iterable[int], states: Iterable[str]) -> bool:
        """Tell whether any of ``job_ids`` is currently in one of ``states``."""
        wanted = set(states)
        return any(record.state in wanted for record in map(self.get, job_ids) if record)

    def depends_on(self, job_id: int, other_id: int) -> bool:
        """Tell whether ``job_id`` depends on ``other_id``, directly or transitively."""
        sql = _UPSTREAM + "SELECT 1 FROM up WHERE id = ? LIMIT 1"
        return self._conn.execute(sql, (job_id, other_id)).fetchone() is not None

    def runnable(self, now: float) -> list[tuple[int, str]]:
        """Return ``(id, name)`` of due pending jobs whose dependencies succeeded, in run order."""
        sql = f"""
            SELECT id, name FROM jobs j
            WHERE state = ? AND run_at <= ? AND {_DEPENDENCIES_MET}
            ORDER BY priority DESC, run_at ASC, id ASC
        """
        return [(row[0], row[1]) for row in self._conn.execute(sql, (PENDING, now))]

    def next_run_time(self) -> float | None:
        """Return the smallest run_at among pending jobs whose dependencies all succeeded."""
        sql = f"SELECT MIN(run_at) FROM jobs j WHERE state = ? AND {_DEPENDENCIES_MET}"
        value = self._conn.execute(sql, (PENDING,)).fetchone()[0]
        return None if value is None else float(value)

    # -- writes ----------------------------------------------------------------------------------

    def insert(self, job: NewJob) -> int:
        """Insert ``job`` with its dependency edges and return its new id."""
        with self._transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO jobs (name, payload, state, priority, run_at, max_attempts, backoff_base,"
                " created_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (job.name, job.payload_json, job.state, job.priority, job.run_at, job.max_attempts,
                 job.backoff_base, job.created_at, job.finished_at),
            )
            job_id = int(cursor.lastrowid or 0)
            conn.executemany(
                "INSERT INTO dependencies (job_id, depends_on) VALUES (?, ?)",
                [(job_id, dependency) for dependency in job.depends_on],
            )
        return job_id

    def add_edge(self, job_id: int, dependency_id: int) -> None:
        """Record that ``job_id`` depends on ``dependency_id`` (no-op if already recorded)."""
        with self._transaction() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO dependencies (job_id, depends_on) VALUES (?, ?)",
                (job_id, dependency_id),
            )

    def start_attempt(self, job_id: int) -> JobRecord:
        """Mark the job running, count the attempt, commit, and return the updated record."""
        with self._transaction() as conn:
            conn.execute(
                "UPDATE jobs SET state = ?, attempts = attempts + 1 WHERE id = ?", (RUNNING, job_id)
            )
        record = self.get(job_id)
        assert record is not None
        return record

    def mark_succeeded(self, job_id: int, result_json: str, now: float) -> None:
        """Record a successful attempt."""
        with self._transaction() as conn:
            conn.execute(
                "UPDATE jobs SET state = ?, result = ?, finished_at = ? WHERE id = ?",
                (SUCCEEDED, result_json, now, job_id),
            )

    def mark_retry(self, job_id: int, error: str, run_at: float) -> None:
        """Record a failed attempt that will be retried at ``run_at``."""
        with self._transaction() as conn:
            conn.execute(
                "UPDATE jobs SET state = ?, last_error = ?, run_at = ? WHERE id = ?",
                (PENDING, error, run_at, job_id),
            )

    def mark_failed(self, job_id: int, error: str, now: float) -> None:
        """Record a permanent failure and cancel everything downstream, atomically."""
        with self._transaction() as conn:
            conn.execute(
                "UPDATE jobs SET state = ?, last_error = ?, finished_at = ? WHERE id = ?",
                (FAILED, error, now, job_id),
            )
            self._cancel_downstream(conn, job_id, now)

    def mark_cancelled(self, job_id: int, now: float) -> bool:
        """Cancel a pending job and everything downstream; return False if it was not pending."""
        with self._transaction() as conn:
            cursor = conn.execute(
                "UPDATE jobs SET state = ?, finished_at = ? WHERE id = ? AND state = ?",
                (CANCELLED, now, job_id, PENDING),
            )
            if cursor.rowcount == 0:
                return False
            self._cancel_downstream(conn, job_id, now)
        return True

    @staticmethod
    def _cancel_downstream(conn: sqlite3.Connection, job_id: int, now: float) -> None:
        conn.execute(
            _DOWNSTREAM + "UPDATE jobs SET state = ?, finished_at = ? "
            "WHERE state = ? AND id IN (SELECT id FROM down)",
            (job_id, CANCELLED, now, PENDING),
        )

    # -- helpers ---------------------------------------------------------------------------------

    def _dependencies(self, job_id: int) -> tuple[int, ...]:
        rows = self._conn.execute(
            "SELECT depends_on FROM dependencies WHERE job_id = ? ORDER BY depends_on", (job_id,)
        )
        return tuple(row[0] for row in rows)

    def _record(self, row: Any) -> JobRecord:
        job_id = int(row[0])
        return JobRecord(
            id=job_id,
            name=row[1],
            payload=json.loads(row[2]),
            state=row[3],
            priority=int(row[4]),
            run_at=float(row[5]),
            attempts=int(row[6]),
            max_attempts=int(row[7]),
            backoff_base=float(row[8]),
            depends_on=self._dependencies(job_id),
            last_error=row[9],
            result=json.loads(row[10]),
            created_at=float(row[11]),
            finished_at=None if row[12] is None else float(row[12]),
        )
