"""The :class:`Scheduler`: handler registry, submission, execution, retries, dependencies, recovery."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

from .errors import CycleError, InvalidStateError, UnknownHandlerError, UnknownJobError
from .models import CANCELLED, DEAD_STATES, PENDING, RUNNING, STATES, JobRecord, NewJob
from .store import JobStore

__all__ = ["Clock", "Handler", "INTERRUPTED", "Scheduler", "backoff_delay"]

Clock = Callable[[], float]
Handler = Callable[[Any], Any]

INTERRUPTED = "interrupted"
"""``last_error`` of an attempt that was still running when its process died."""


def encode_json(value: Any) -> str:
    """Serialise ``value`` as JSON, raising TypeError if it is not JSON-serializable."""
    try:
        return json.dumps(value)
    except ValueError as exc:  # e.g. circular references
        raise TypeError(str(exc)) from exc


def describe(exc: Exception) -> str:
    """Format an exception the way it is stored in ``last_error``."""
    return f"{type(exc).__name__}: {exc}"


def backoff_delay(backoff_base: float, attempts: int) -> float:
    """Return the retry delay after ``attempts`` attempts: ``backoff_base ** attempts`` seconds."""
    try:
        return float(backoff_base**attempts)
    except OverflowError:
        return math.inf


def _validate_policy(max_attempts: int, backoff_base: float) -> None:
    if max_attempts < 1:
        raise ValueError(f"max_attempts must be >= 1, got {max_attempts}")
    if not backoff_base > 0:
        raise ValueError(f"backoff_base must be > 0, got {backoff_base}")


class Scheduler:
    """A persistent job scheduler backed by the SQLite database at ``db_path``.

    ``clock`` is the only source of time. With ``recover=True`` (the default) jobs that a previous
    process left ``running`` are recovered at construction: the interrupted attempt counts as failed
    with ``last_error == "interrupted"``; the job is re-queued due immediately, or fails permanently
    if it has used up ``max_attempts``.
    """

    def __init__(
        self, db_path: str | os.PathLike[str], clock: Clock = time.time, *, recover: bool = True
    ) -> None:
        self._clock = clock
        self._store = JobStore(db_path)
        self._handlers: dict[str, Handler] = {}
        if recover:
            self._recover()

    # -- lifecycle -------------------------------------------------------------------------------

    def close(self) -> None:
        """Close the database connection; the Scheduler must not be used afterwards."""
        self._store.close()

    def __enter__(self) -> Scheduler:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- registration and submission -------------------------------------------------------------

    def register(self, name: str, handler: Handler) -> None:
        """Register (or replace) the handler run for jobs called ``name``."""
        if not isinstance(name, str) or not name:
            raise ValueError("handler name must be a non-empty string")
        self._handlers[name] = handler

    def submit(
        self,
        name: str,
        payload: Any,
        *,
        run_at: float | None = None,
        max_attempts: int = 3,
        backoff_base: float = 2.0,
        depends_on: Iterable[int] = (),
        priority: int = 0,
    ) -> int:
        """Store a new job and return its id (see the README for every rule)."""
        if name not in self._handlers:
            raise UnknownHandlerError(f"no handler registered for {name!r}")
        _validate_policy(max_attempts, backoff_base)
        payload_json = encode_json(payload)
        dependencies = tuple(sorted(set(depends_on)))
        self._require_jobs(dependencies)
        now = float(self._clock())
        doomed = self._store.any_in_state(dependencies, DEAD_STATES)
        return self._store.insert(
            NewJob(
                name=name,
                payload_json=payload_json,
                state=CANCELLED if doomed else PENDING,
                priority=priority,
                run_at=now if run_at is None else float(run_at),
                max_attempts=max_attempts,
                backoff_base=float(backoff_base),
                depends_on=dependencies,
                created_at=now,
                finished_at=now if doomed else None,
            )
        )

    def add_dependency(self, job_id: int, dependency_id: int) -> None:
        """Make pending job ``job_id`` wait for ``dependency_id`` to succeed."""
        job = self.status(job_id)
        dependency = self.status(dependency_id)
        if job.state != PENDING:
            raise InvalidStateError(f"job {job_id} is {job.state}, not pending")
        if job_id == dependency_id or self._store.depends_on(dependency_id, job_id):
            raise CycleError(f"job {job_id} -> job {dependency_id} would create a cycle")
        self._store.add_edge(job_id, dependency_id)
        if dependency.state in DEAD_STATES:
            self._store.mark_cancelled(job_id, float(self._clock()))

    # -- queries ---------------------------------------------------------------------------------

    def status(self, job_id: int) -> JobRecord:
        """Return the current record of ``job_id``."""
        record = self._store.get(job_id)
        if record is None:
            raise UnknownJobError(f"no job with id {job_id}")
        return record

    def jobs(self, state: str | None = None) -> list[JobRecord]:
        """Return every job, or only those in ``state``, ordered by id."""
        if state is not None and state not in STATES:
            raise ValueError(f"unknown state {state!r}")
        return self._store.all_jobs(state)

    def next_run_time(self) -> float | None:
        """Return the earliest run_at among pending jobs whose dependencies all succeeded."""
        return self._store.next_run_time()

    # -- execution -------------------------------------------------------------------------------

    def cancel(self, job_id: int) -> bool:
        """Cancel a pending job (and its pending dependents); return whether it changed."""
        self.status(job_id)
        return self._store.mark_cancelled(job_id, float(self._clock()))

    def run_pending(self) -> list[int]:
        """Attempt every eligible job once, in priority order; return the attempted ids in order."""
        now = float(self._clock())
        attempted: list[int] = []
        job_id = self._next_eligible(now, attempted)
        while job_id is not None:
            attempted.append(job_id)
            self._attempt(job_id, now)
            job_id = self._next_eligible(now, attempted)
        return attempted

    def _next_eligible(self, now: float, attempted: list[int]) -> int | None:
        done = set(attempted)
        for job_id, name in self._store.runnable(now):
            if name in self._handlers and job_id not in done:
                return job_id
        return None

    def _attempt(self, job_id: int, now: float) -> None:
        record = self._store.start_attempt(job_id)
        try:
            result_json = encode_json(self._handlers[record.name](record.payload))
        except Exception as exc:  # noqa: BLE001 - any handler error is a failed attempt
            retry_at = now + backoff_delay(record.backoff_base, record.attempts)
            self._fail_attempt(record, describe(exc), now, retry_at)
        else:
            self._store.mark_succeeded(job_id, result_json, now)

    def _fail_attempt(self, record: JobRecord, error: str, now: float, retry_at: float) -> None:
        if record.attempts < record.max_attempts:
            self._store.mark_retry(record.id, error, retry_at)
        else:
            self._store.mark_failed(record.id, error, now)

    def _recover(self) -> None:
        now = float(self._clock())
        for record in self._store.all_jobs(RUNNING):
            self._fail_attempt(record, INTERRUPTED, now, retry_at=now)

    def _require_jobs(self, job_ids: Iterable[int]) -> None:
        missing = self._store.missing(job_ids)
        if missing:
            raise UnknownJobError(f"unknown job id(s): {', '.join(map(str, missing))}")
