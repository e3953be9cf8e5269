"""Persistence across Scheduler instances and crash recovery."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FakeClock
from jobq import Scheduler


class Crash(BaseException):
    """Simulates the worker process dying in the middle of a handler."""


def crash(payload: object) -> None:
    raise Crash()


def test_jobs_survive_reopen(db_path: Path, clock: FakeClock) -> None:
    with Scheduler(db_path, clock) as first:
        first.register("noop", lambda payload: payload)
        job = first.submit("noop", {"k": [1]}, priority=2)
        before = first.status(job)
    assert db_path.read_bytes().startswith(b"SQLite format 3\x00")
    with Scheduler(db_path, clock) as second:
        assert second.status(job) == before
        second.register("noop", lambda payload: payload)
        assert second.submit("noop", None) == job + 1
        assert second.run_pending() == [job, job + 1]
        assert second.status(job).result == {"k": [1]}


def test_crash_leaves_job_running_then_recovery_requeues(db_path: Path, clock: FakeClock) -> None:
    worker = Scheduler(db_path, clock)
    worker.register("crash", crash)
    job = worker.submit("crash", None, max_attempts=2)
    with pytest.raises(Crash):
        worker.run_pending()
    assert worker.status(job).state == "running"
    clock.advance(7)
    with Scheduler(db_path, clock, recover=False) as observer:
        assert observer.status(job).state == "running"
    with Scheduler(db_path, clock) as restarted:
        record = restarted.status(job)
        assert (record.state, record.attempts, record.run_at, record.last_error) == (
            "pending", 1, 1007.0, "interrupted")
    worker.close()


def test_recovery_fails_exhausted_job_and_cascades(db_path: Path, clock: FakeClock) -> None:
    with Scheduler(db_path, clock) as worker:
        worker.register("crash", crash)
        worker.register("noop", lambda payload: None)
        job = worker.submit("crash", None, max_attempts=1)
        child = worker.submit("noop", None, depends_on=[job])
        with pytest.raises(Crash):
            worker.run_pending()
    with Scheduler(db_path, clock) as restarted:
        assert [restarted.status(j).state for j in (job, child)] == ["failed", "cancelled"]
        assert restarted.status(job).finished_at == clock.now
