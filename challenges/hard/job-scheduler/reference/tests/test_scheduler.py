"""Submission, ordering, retries and cancellation of independent jobs."""

from __future__ import annotations

import math

import pytest

from conftest import FakeClock, Recorder
from jobq import JobRecord, Scheduler, UnknownHandlerError, UnknownJobError
from jobq.scheduler import backoff_delay


def test_submit_returns_increasing_ids_and_pending_record(scheduler: Scheduler, clock: FakeClock) -> None:
    first = scheduler.submit("noop", {"n": 1})
    second = scheduler.submit("noop", (1, 2), priority=3, max_attempts=5, backoff_base=1.5)
    assert (first, second) == (1, 2)
    assert scheduler.status(second) == JobRecord(
        id=2, name="noop", payload=[1, 2], state="pending", priority=3, run_at=clock.now,
        attempts=0, max_attempts=5, backoff_base=1.5, depends_on=(), last_error=None, result=None,
        created_at=clock.now, finished_at=None,
    )


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"max_attempts": 0}, ValueError),
        ({"backoff_base": 0}, ValueError),
        ({"backoff_base": -1.0}, ValueError),
        ({"payload": object()}, TypeError),
        ({"depends_on": [42]}, UnknownJobError),
    ],
)
def test_submit_validation(scheduler: Scheduler, kwargs: dict[str, object], error: type[Exception]) -> None:
    payload = kwargs.pop("payload", None)
    with pytest.raises(error):
        scheduler.submit("noop", payload, **kwargs)  # type: ignore[arg-type]
    assert scheduler.jobs() == []


def test_circular_payload_is_a_type_error(scheduler: Scheduler) -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(TypeError):
        scheduler.submit("noop", loop)


def test_submit_requires_registered_handler(scheduler: Scheduler) -> None:
    with pytest.raises(UnknownHandlerError):
        scheduler.submit("missing", None)


def test_register_rejects_empty_name(scheduler: Scheduler) -> None:
    with pytest.raises(ValueError):
        scheduler.register("", print)


def test_success_stores_result(scheduler: Scheduler, clock: FakeClock) -> None:
    scheduler.register("square", lambda payload: payload["x"] ** 2)
    job = scheduler.submit("square", {"x": 7})
    clock.advance(1)
    assert scheduler.run_pending() == [job]
    record = scheduler.status(job)
    assert (record.state, record.result, record.attempts, record.finished_at) == ("succeeded", 49, 1, 1001.0)


def test_future_jobs_wait_for_their_time(scheduler: Scheduler, clock: FakeClock) -> None:
    job = scheduler.submit("noop", None, run_at=clock.now + 10)
    assert scheduler.run_pending() == []
    clock.advance(10)
    assert scheduler.run_pending() == [job]


def test_order_priority_then_run_at_then_id(scheduler: Scheduler, clock: FakeClock) -> None:
    late = scheduler.submit("noop", None, run_at=clock.now - 1)
    early = scheduler.submit("noop", None, run_at=clock.now - 5)
    urgent = scheduler.submit("noop", None, priority=9)
    tie = scheduler.submit("noop", None, run_at=clock.now - 5)
    assert scheduler.run_pending() == [urgent, early, tie, late]


def test_retry_backoff_then_permanent_failure(scheduler: Scheduler, clock: FakeClock) -> None:
    handler = Recorder(failures=10)
    scheduler.register("flaky", handler)
    job = scheduler.submit("flaky", "x", max_attempts=3, backoff_base=3.0)
    assert scheduler.run_pending() == [job]
    assert scheduler.status(job).run_at == 1003.0
    clock.advance(2.5)
    assert scheduler.run_pending() == []
    clock.advance(0.5)
    assert scheduler.run_pending() == [job]
    assert scheduler.status(job).run_at == 1003.0 + 9.0
    clock.advance(9)
    scheduler.run_pending()
    record = scheduler.status(job)
    assert (record.state, record.attempts, record.last_error) == ("failed", 3, "RuntimeError: failure 3")
    assert record.finished_at == 1012.0


def test_last_error_survives_success(scheduler: Scheduler, clock: FakeClock) -> None:
    scheduler.register("flaky", Recorder(failures=1, result="done"))
    job = scheduler.submit("flaky", None)
    scheduler.run_pending()
    clock.advance(2)
    scheduler.run_pending()
    record = scheduler.status(job)
    assert (record.state, record.result, record.last_error) == ("succeeded", "done", "RuntimeError: failure 1")


def test_unserializable_result_is_a_failure(scheduler: Scheduler) -> None:
    scheduler.register("bad", lambda payload: {1, 2})
    job = scheduler.submit("bad", None, max_attempts=1)
    scheduler.run_pending()
    record = scheduler.status(job)
    assert record.state == "failed"
    assert record.last_error is not None and record.last_error.startswith("TypeError: ")


def test_job_runs_at_most_once_per_call(scheduler: Scheduler) -> None:
    scheduler.register("flaky", Recorder(failures=1))
    job = scheduler.submit("flaky", None, backoff_base=1e-30)
    assert scheduler.run_pending() == [job]
    assert scheduler.run_pending() == [job]
    assert scheduler.status(job).state == "succeeded"


def test_handler_sees_running_state(scheduler: Scheduler) -> None:
    seen: list[tuple[str, int]] = []

    def inspect(job_id: int) -> None:
        record = scheduler.status(job_id)
        seen.append((record.state, record.attempts))

    scheduler.register("inspect", inspect)
    job = scheduler.submit("inspect", 1)
    assert job == 1
    scheduler.run_pending()
    assert seen == [("running", 1)]


def test_jobs_submitted_by_handler_run_in_same_call(scheduler: Scheduler) -> None:
    scheduler.register("spawn", lambda payload: scheduler.submit("noop", None))
    parent = scheduler.submit("spawn", None)
    assert scheduler.run_pending() == [parent, parent + 1]


def test_unregistered_handler_is_left_alone(db_path, clock: FakeClock, scheduler: Scheduler) -> None:
    job = scheduler.submit("noop", None)
    with Scheduler(db_path, clock) as other:
        assert other.run_pending() == []
    assert scheduler.status(job).attempts == 0


def test_cancel_is_idempotent(scheduler: Scheduler, clock: FakeClock) -> None:
    job = scheduler.submit("noop", None, run_at=clock.now + 5)
    clock.advance(1)
    assert scheduler.cancel(job) is True
    assert scheduler.cancel(job) is False
    assert scheduler.status(job).finished_at == 1001.0
    clock.advance(10)
    assert scheduler.run_pending() == []


def test_cancel_finished_job_is_noop(scheduler: Scheduler) -> None:
    job = scheduler.submit("noop", None)
    scheduler.run_pending()
    assert scheduler.cancel(job) is False
    assert scheduler.status(job).state == "succeeded"


def test_unknown_ids(scheduler: Scheduler) -> None:
    with pytest.raises(UnknownJobError):
        scheduler.status(5)
    with pytest.raises(UnknownJobError):
        scheduler.cancel(5)


def test_jobs_filters_by_state(scheduler: Scheduler) -> None:
    done = scheduler.submit("noop", None)
    scheduler.run_pending()
    waiting = scheduler.submit("noop", None, run_at=1e12)
    assert [record.id for record in scheduler.jobs()] == [done, waiting]
    assert [record.id for record in scheduler.jobs("pending")] == [waiting]
    with pytest.raises(ValueError):
        scheduler.jobs("bogus")


def test_next_run_time(scheduler: Scheduler, clock: FakeClock) -> None:
    assert scheduler.next_run_time() is None
    scheduler.submit("noop", None, run_at=clock.now + 30)
    scheduler.submit("noop", None, run_at=clock.now + 20)
    assert scheduler.next_run_time() == clock.now + 20


def test_backoff_delay_overflow_is_infinite() -> None:
    assert backoff_delay(2.0, 3) == 8.0
    assert backoff_delay(10.0, 10_000) == math.inf
