"""SQLite persistence across Scheduler instances and crash recovery."""

import pytest


class Crash(BaseException):
    """Stands in for the worker process dying while a handler runs."""


def crash(payload):
    raise Crash()


def test_database_is_sqlite_and_records_survive_reopen(db, clock, make_handler):
    from jobq import Scheduler

    with Scheduler(db, clock) as first:
        first.register("noop", lambda payload: {"echo": payload})
        first.register("bad", make_handler(failures=9, error=RuntimeError("nope")))
        a = first.submit("noop", [1, "two", {"3": None}], priority=4)
        b = first.submit("bad", None, max_attempts=2, backoff_base=5.0)
        c = first.submit("noop", None, depends_on=[a, b], run_at=1100)
        first.run_pending()
        before = [first.status(j) for j in (a, b, c)]
    assert db.read_bytes()[:16] == b"SQLite format 3\x00"
    with Scheduler(db, clock) as second:
        assert [second.status(j) for j in (a, b, c)] == before
        assert before[0].result == {"echo": [1, "two", {"3": None}]}
        assert (before[1].run_at, before[1].last_error) == (1005.0, "RuntimeError: nope")


def test_ids_are_never_reused_across_instances(db, clock):
    from jobq import Scheduler

    with Scheduler(db, clock) as first:
        first.register("noop", lambda payload: None)
        ids = [first.submit("noop", None) for _ in range(3)]
        first.cancel(ids[-1])
    with Scheduler(db, clock) as second:
        second.register("noop", lambda payload: None)
        assert second.submit("noop", None) == 4
        assert second.run_pending() == [1, 2, 4]


def test_changes_are_visible_to_a_second_open_instance(db, clock):
    from jobq import Scheduler

    producer = Scheduler(db, clock)
    producer.register("noop", lambda payload: None)
    job = producer.submit("noop", "hello")
    worker = Scheduler(db, clock)
    worker.register("noop", lambda payload: payload.upper())
    assert worker.run_pending() == [job]
    assert producer.status(job).result == "HELLO"
    later = producer.submit("noop", None, run_at=1200)
    assert producer.cancel(later) is True
    assert worker.status(later).state == "cancelled"
    worker.close()
    producer.close()


@pytest.mark.parametrize("exc_type", [Crash, KeyboardInterrupt, SystemExit])
def test_base_exceptions_propagate_and_leave_job_running(db, clock, exc_type):
    from jobq import Scheduler

    def die(payload):
        raise exc_type()

    worker = Scheduler(db, clock)
    worker.register("die", die)
    worker.register("noop", lambda payload: None)
    job = worker.submit("die", None, priority=1)
    other = worker.submit("noop", None)
    with pytest.raises(exc_type):
        worker.run_pending()
    record = worker.status(job)
    assert (record.state, record.attempts, record.last_error) == ("running", 1, None)
    assert worker.status(other).state == "pending"
    with Scheduler(db, clock, recover=False) as observer:
        assert observer.status(job).state == "running"
    worker.close()


def test_recovery_requeues_interrupted_job_without_backoff(db, clock):
    from jobq import Scheduler

    worker = Scheduler(db, clock)
    worker.register("crash", crash)
    worker.register("noop", lambda payload: None)
    job = worker.submit("crash", {"x": 1}, max_attempts=3, backoff_base=50.0)
    child = worker.submit("noop", None, depends_on=[job])
    untouched = worker.submit("noop", None, run_at=2000)
    with pytest.raises(Crash):
        worker.run_pending()
    clock.advance(30)
    restarted = Scheduler(db, clock)
    record = restarted.status(job)
    assert (record.state, record.attempts, record.run_at, record.last_error, record.finished_at) == (
        "pending", 1, 1030.0, "interrupted", None)
    assert restarted.status(child).state == "pending"
    assert restarted.status(untouched).run_at == 2000.0
    restarted.register("crash", lambda payload: "recovered")
    restarted.register("noop", lambda payload: None)
    assert restarted.run_pending() == [job, child]
    record = restarted.status(job)
    assert (record.state, record.attempts, record.result, record.last_error) == (
        "succeeded", 2, "recovered", "interrupted")
    restarted.close()
    worker.close()


def test_recovery_fails_exhausted_job_and_cascades(db, clock):
    from jobq import Scheduler

    worker = Scheduler(db, clock)
    worker.register("crash", crash)
    worker.register("noop", lambda payload: None)
    job = worker.submit("crash", None, max_attempts=1)
    child = worker.submit("noop", None, depends_on=[job])
    grandchild = worker.submit("noop", None, depends_on=[child])
    with pytest.raises(Crash):
        worker.run_pending()
    worker.close()
    clock.advance(12)
    with Scheduler(db, clock) as restarted:
        record = restarted.status(job)
        assert (record.state, record.attempts, record.last_error, record.finished_at) == (
            "failed", 1, "interrupted", 1012.0)
        for j in (child, grandchild):
            assert (restarted.status(j).state, restarted.status(j).finished_at) == ("cancelled", 1012.0)


def test_recover_false_changes_nothing_until_a_recovering_instance(db, clock):
    from jobq import Scheduler

    worker = Scheduler(db, clock)
    worker.register("crash", crash)
    job = worker.submit("crash", None)
    with pytest.raises(Crash):
        worker.run_pending()
    worker.close()
    with Scheduler(db, clock, recover=False) as passive:
        passive.register("crash", lambda payload: None)
        assert passive.run_pending() == []
        assert passive.cancel(job) is False
        assert passive.jobs("running")[0].id == job
    with Scheduler(db, clock) as active:
        assert active.status(job).state == "pending"
