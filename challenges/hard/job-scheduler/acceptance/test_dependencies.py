"""DAG dependencies, cycles, cancellation and the cascade rule."""

import pytest


def test_dependent_runs_in_same_call_and_eligibility_is_rechecked(sched):
    a = sched.submit("noop", None, priority=1)
    c = sched.submit("noop", None, priority=0)
    b = sched.submit("noop", None, priority=5, depends_on=[a])
    assert sched.run_pending() == [a, b, c]


def test_job_waits_for_all_dependencies(sched, clock):
    a = sched.submit("noop", None)
    later = sched.submit("noop", None, run_at=1030)
    both = sched.submit("noop", None, depends_on=[later, a], priority=100)
    assert sched.status(both).depends_on == (a, later)
    assert sched.run_pending() == [a]
    assert sched.status(both).state == "pending"
    clock.now = 1030
    assert sched.run_pending() == [later, both]


def test_depends_on_is_sorted_and_deduplicated(sched):
    a = sched.submit("noop", None)
    b = sched.submit("noop", None)
    c = sched.submit("noop", None, depends_on=(b, a, b, a))
    assert sched.status(c).depends_on == (a, b)
    assert isinstance(sched.status(c).depends_on, tuple)


def test_dependent_waits_while_dependency_retries(sched, clock, make_handler):
    sched.register("flaky", make_handler(failures=1))
    up = sched.submit("flaky", None)
    down = sched.submit("noop", None, depends_on=[up])
    assert sched.run_pending() == [up]
    assert sched.status(down).state == "pending"
    clock.advance(2)
    assert sched.run_pending() == [up, down]


def test_permanent_failure_cancels_dependents_transitively(sched, clock, make_handler):
    sched.register("bad", make_handler(failures=5))
    root = sched.submit("bad", None, max_attempts=2, backoff_base=10.0)
    left = sched.submit("noop", None, depends_on=[root])
    right = sched.submit("noop", None, depends_on=[root])
    join = sched.submit("noop", None, depends_on=[left, right])
    deep = sched.submit("noop", None, depends_on=[join])
    other = sched.submit("noop", None, run_at=1010)
    sched.run_pending()
    assert [sched.status(j).state for j in (left, right, join, deep)] == ["pending"] * 4
    clock.now = 1010
    assert sched.run_pending() == [root, other]
    assert sched.status(root).state == "failed"
    for job in (left, right, join, deep):
        record = sched.status(job)
        assert (record.state, record.finished_at, record.attempts) == ("cancelled", 1010.0, 0)
    assert sched.status(other).state == "succeeded"
    clock.advance(100)
    assert sched.run_pending() == []


def test_cascade_spares_jobs_with_other_paths_that_are_unrelated(sched, make_handler):
    sched.register("bad", make_handler(failures=1))
    good = sched.submit("noop", None)
    bad = sched.submit("bad", None, max_attempts=1)
    only_good = sched.submit("noop", None, depends_on=[good])
    needs_both = sched.submit("noop", None, depends_on=[good, bad])
    assert sched.run_pending() == [good, bad, only_good]
    assert sched.status(needs_both).state == "cancelled"
    assert sched.status(only_good).state == "succeeded"


def test_cancel_semantics(sched, clock, make_handler):
    from jobq import UnknownJobError

    sched.register("bad", make_handler(failures=1))
    done = sched.submit("noop", None)
    failed = sched.submit("bad", None, max_attempts=1)
    sched.run_pending()
    waiting = sched.submit("noop", None, run_at=5000)
    clock.advance(7)
    assert sched.cancel(waiting) is True
    record = sched.status(waiting)
    assert (record.state, record.finished_at) == ("cancelled", 1007.0)
    clock.advance(1)
    assert sched.cancel(waiting) is False
    assert sched.status(waiting).finished_at == 1007.0
    assert sched.cancel(done) is False and sched.status(done).state == "succeeded"
    assert sched.cancel(failed) is False and sched.status(failed).state == "failed"
    with pytest.raises(UnknownJobError):
        sched.cancel(99)
    clock.now = 6000
    assert sched.run_pending() == []


def test_cancel_job_waiting_for_retry_and_cascade(sched, clock, make_handler):
    sched.register("flaky", make_handler(failures=1))
    job = sched.submit("flaky", None)
    child = sched.submit("noop", None, depends_on=[job])
    grandchild = sched.submit("noop", None, depends_on=[child])
    sched.run_pending()
    clock.advance(1)
    assert sched.cancel(job) is True
    for j in (job, child, grandchild):
        assert (sched.status(j).state, sched.status(j).finished_at) == ("cancelled", 1001.0)
    record = sched.status(job)
    assert (record.attempts, record.last_error) == (1, "ValueError: boom 1")
    clock.advance(10)
    assert sched.run_pending() == []


@pytest.mark.parametrize("kill", ["cancel", "fail"])
def test_submit_with_dead_dependency_is_cancelled_at_once(sched, clock, make_handler, kill):
    sched.register("bad", make_handler(failures=1))
    if kill == "cancel":
        dead = sched.submit("noop", None, run_at=9999)
        sched.cancel(dead)
    else:
        dead = sched.submit("bad", None, max_attempts=1)
        sched.run_pending()
    clock.advance(4)
    alive = sched.submit("noop", None)
    job = sched.submit("noop", None, depends_on=[alive, dead])
    assert job == dead + 2
    record = sched.status(job)
    assert (record.state, record.created_at, record.finished_at, record.depends_on) == (
        "cancelled", 1004.0, 1004.0, (dead, alive))
    assert sched.run_pending() == [alive]


def test_add_dependency_makes_earlier_job_wait(sched):
    first = sched.submit("noop", None, priority=10)
    second = sched.submit("noop", None)
    assert sched.add_dependency(first, second) is None
    sched.add_dependency(first, second)
    assert sched.status(first).depends_on == (second,)
    assert sched.run_pending() == [second, first]


def test_add_dependency_rejects_cycles(sched):
    from jobq import CycleError

    a = sched.submit("noop", None)
    b = sched.submit("noop", None, depends_on=[a])
    c = sched.submit("noop", None, depends_on=[b])
    for job, dependency in ((a, a), (a, b), (a, c), (b, c)):
        with pytest.raises(CycleError):
            sched.add_dependency(job, dependency)
    assert [sched.status(j).depends_on for j in (a, b, c)] == [(), (a,), (b,)]
    sched.add_dependency(c, a)
    assert sched.status(c).depends_on == (a, b)
    assert sched.run_pending() == [a, b, c]


def test_add_dependency_error_order(sched):
    from jobq import InvalidStateError, UnknownJobError

    done = sched.submit("noop", None)
    sched.run_pending()
    pending = sched.submit("noop", None)
    with pytest.raises(UnknownJobError):
        sched.add_dependency(pending, 42)
    with pytest.raises(UnknownJobError):
        sched.add_dependency(42, pending)
    with pytest.raises(UnknownJobError):
        sched.add_dependency(done, 42)
    with pytest.raises(InvalidStateError):
        sched.add_dependency(done, pending)
    with pytest.raises(InvalidStateError):
        sched.add_dependency(done, done)
    assert sched.status(done).depends_on == ()


def test_add_dead_dependency_cancels_job_and_its_dependents(sched, clock):
    dead = sched.submit("noop", None, run_at=5000)
    sched.cancel(dead)
    job = sched.submit("noop", None)
    child = sched.submit("noop", None, depends_on=[job])
    clock.advance(3)
    sched.add_dependency(job, dead)
    for j in (job, child):
        assert (sched.status(j).state, sched.status(j).finished_at) == ("cancelled", 1003.0)
    assert sched.status(job).depends_on == (dead,)


def test_next_run_time(sched, clock, make_handler):
    assert sched.next_run_time() is None
    root = sched.submit("noop", None, run_at=1500)
    sched.submit("noop", None, run_at=1000, depends_on=[root])
    sched.submit("noop", None, run_at=1200)
    assert sched.next_run_time() == 1200.0
    sched.register("flaky", make_handler(failures=1))
    sched.submit("flaky", None, run_at=900)
    assert sched.next_run_time() == 900.0
    sched.run_pending()
    assert sched.next_run_time() == 1002.0


def test_jobs_listing_and_filter(sched, make_handler):
    sched.register("bad", make_handler(failures=1))
    ok = sched.submit("noop", None)
    bad = sched.submit("bad", None, max_attempts=1)
    child = sched.submit("noop", None, depends_on=[bad])
    later = sched.submit("noop", None, run_at=5000)
    sched.run_pending()
    assert [r.id for r in sched.jobs()] == [ok, bad, child, later]
    assert [r.id for r in sched.jobs("pending")] == [later]
    assert [r.id for r in sched.jobs("cancelled")] == [child]
    assert [r.id for r in sched.jobs("failed")] == [bad]
    assert sched.jobs("running") == []
    assert sched.jobs(None) == sched.jobs()
    with pytest.raises(ValueError):
        sched.jobs("done")
