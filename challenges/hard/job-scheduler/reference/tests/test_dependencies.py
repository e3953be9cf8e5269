"""Dependency ordering, cycles and the cancellation cascade."""

from __future__ import annotations

import pytest

from conftest import FakeClock, Recorder
from jobq import CycleError, InvalidStateError, Scheduler, UnknownJobError


def test_dependent_runs_after_dependency_in_same_call(scheduler: Scheduler) -> None:
    first = scheduler.submit("noop", None, priority=-5)
    second = scheduler.submit("noop", None, depends_on=[first, first], priority=10)
    assert scheduler.status(second).depends_on == (first,)
    assert scheduler.run_pending() == [first, second]


def test_dependency_must_succeed(scheduler: Scheduler, clock: FakeClock) -> None:
    scheduler.register("flaky", Recorder(failures=1))
    upstream = scheduler.submit("flaky", None)
    downstream = scheduler.submit("noop", None, depends_on=[upstream])
    assert scheduler.run_pending() == [upstream]
    assert scheduler.next_run_time() == clock.now + 2
    clock.advance(2)
    assert scheduler.run_pending() == [upstream, downstream]


def test_failure_cascades_transitively(scheduler: Scheduler, clock: FakeClock) -> None:
    scheduler.register("boom", Recorder(failures=99))
    root = scheduler.submit("boom", None, max_attempts=1)
    child = scheduler.submit("noop", None, depends_on=[root])
    grandchild = scheduler.submit("noop", None, depends_on=[child])
    bystander = scheduler.submit("noop", None)
    clock.advance(3)
    assert scheduler.run_pending() == [root, bystander]
    assert [scheduler.status(j).state for j in (root, child, grandchild)] == ["failed", "cancelled", "cancelled"]
    assert scheduler.status(grandchild).finished_at == clock.now


def test_cancel_cascades(scheduler: Scheduler) -> None:
    root = scheduler.submit("noop", None, run_at=1e12)
    child = scheduler.submit("noop", None, depends_on=[root])
    assert scheduler.cancel(root)
    assert scheduler.status(child).state == "cancelled"


def test_submit_with_dead_dependency_is_cancelled(scheduler: Scheduler, clock: FakeClock) -> None:
    root = scheduler.submit("noop", None, run_at=1e12)
    scheduler.cancel(root)
    clock.advance(4)
    child = scheduler.submit("noop", None, depends_on=[root])
    record = scheduler.status(child)
    assert (record.state, record.finished_at, record.created_at) == ("cancelled", 1004.0, 1004.0)


def test_add_dependency_orders_jobs(scheduler: Scheduler) -> None:
    first = scheduler.submit("noop", None)
    second = scheduler.submit("noop", None)
    scheduler.add_dependency(first, second)
    scheduler.add_dependency(first, second)
    assert scheduler.status(first).depends_on == (second,)
    assert scheduler.run_pending() == [second, first]


def test_add_dependency_rejects_cycles(scheduler: Scheduler) -> None:
    a = scheduler.submit("noop", None)
    b = scheduler.submit("noop", None, depends_on=[a])
    c = scheduler.submit("noop", None, depends_on=[b])
    with pytest.raises(CycleError):
        scheduler.add_dependency(a, c)
    with pytest.raises(CycleError):
        scheduler.add_dependency(b, b)
    assert scheduler.status(a).depends_on == ()


def test_add_dependency_errors(scheduler: Scheduler) -> None:
    done = scheduler.submit("noop", None)
    scheduler.run_pending()
    other = scheduler.submit("noop", None)
    with pytest.raises(UnknownJobError):
        scheduler.add_dependency(other, 99)
    with pytest.raises(InvalidStateError):
        scheduler.add_dependency(done, other)


def test_add_dead_dependency_cancels(scheduler: Scheduler) -> None:
    dead = scheduler.submit("noop", None, run_at=1e12)
    scheduler.cancel(dead)
    job = scheduler.submit("noop", None)
    child = scheduler.submit("noop", None, depends_on=[job])
    scheduler.add_dependency(job, dead)
    assert [scheduler.status(j).state for j in (job, child)] == ["cancelled", "cancelled"]


def test_next_run_time_ignores_blocked_jobs(scheduler: Scheduler, clock: FakeClock) -> None:
    root = scheduler.submit("noop", None, run_at=clock.now + 50)
    scheduler.submit("noop", None, run_at=clock.now, depends_on=[root])
    assert scheduler.next_run_time() == clock.now + 50
