"""Submission, validation, ordering, retries and the run loop."""

import dataclasses

import pytest


def test_public_api_and_exception_hierarchy():
    import jobq

    for name in ("Scheduler", "JobRecord", "JobQError", "UnknownHandlerError", "UnknownJobError",
                 "CycleError", "InvalidStateError"):
        assert hasattr(jobq, name), name
    assert issubclass(jobq.JobQError, Exception)
    assert issubclass(jobq.UnknownHandlerError, jobq.JobQError) and issubclass(jobq.UnknownHandlerError, LookupError)
    assert issubclass(jobq.UnknownJobError, jobq.JobQError) and issubclass(jobq.UnknownJobError, LookupError)
    assert issubclass(jobq.CycleError, jobq.JobQError) and issubclass(jobq.CycleError, ValueError)
    assert issubclass(jobq.InvalidStateError, jobq.JobQError)
    for module in ("errors", "models", "store", "scheduler", "cli"):
        __import__(f"jobq.{module}")


def test_job_record_is_frozen_dataclass_with_stated_fields(sched):
    from jobq import JobRecord

    names = tuple(field.name for field in dataclasses.fields(JobRecord))
    assert names == ("id", "name", "payload", "state", "priority", "run_at", "attempts", "max_attempts",
                     "backoff_base", "depends_on", "last_error", "result", "created_at", "finished_at")
    record = sched.status(sched.submit("noop", None))
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.state = "failed"


def test_submit_creates_exact_pending_record(sched, clock):
    from jobq import JobRecord

    first = sched.submit("noop", {"a": 1})
    clock.advance(5)
    second = sched.submit("noop", ("x", 2), run_at=2000, max_attempts=7, backoff_base=1.5, priority=-3)
    assert (first, second) == (1, 2)
    assert sched.status(first) == JobRecord(
        id=1, name="noop", payload={"a": 1}, state="pending", priority=0, run_at=1000.0, attempts=0,
        max_attempts=3, backoff_base=2.0, depends_on=(), last_error=None, result=None,
        created_at=1000.0, finished_at=None)
    assert sched.status(second) == JobRecord(
        id=2, name="noop", payload=["x", 2], state="pending", priority=-3, run_at=2000.0, attempts=0,
        max_attempts=7, backoff_base=1.5, depends_on=(), last_error=None, result=None,
        created_at=1005.0, finished_at=None)


def test_handler_receives_json_round_tripped_payload(sched, make_handler):
    handler = make_handler(result={"ok": (1, 2)})
    sched.register("work", handler)
    job = sched.submit("work", {"items": (1, 2), "n": None})
    assert sched.run_pending() == [job]
    assert handler.calls == [{"items": [1, 2], "n": None}]
    assert sched.status(job).result == {"ok": [1, 2]}


def test_submit_unknown_handler_stores_nothing(sched):
    from jobq import UnknownHandlerError

    with pytest.raises(UnknownHandlerError):
        sched.submit("nobody", None)
    assert sched.jobs() == []


@pytest.mark.parametrize(
    "kwargs, error_name",
    [
        ({"max_attempts": 0}, "ValueError"),
        ({"max_attempts": -2}, "ValueError"),
        ({"backoff_base": 0}, "ValueError"),
        ({"backoff_base": -2.0}, "ValueError"),
        ({"payload": {"bad": object()}}, "TypeError"),
        ({"depends_on": [1, 77]}, "UnknownJobError"),
    ],
)
def test_submit_validation_stores_nothing(sched, kwargs, error_name):
    import jobq

    existing = sched.submit("noop", None)
    error = {"ValueError": ValueError, "TypeError": TypeError}.get(error_name) or getattr(jobq, error_name)
    payload = kwargs.pop("payload", None)
    with pytest.raises(error):
        sched.submit("noop", payload, **kwargs)
    assert [record.id for record in sched.jobs()] == [existing]
    assert sched.submit("noop", None) == existing + 1


def test_submit_errors_are_checked_in_stated_order(sched):
    from jobq import UnknownHandlerError, UnknownJobError

    with pytest.raises(UnknownHandlerError):
        sched.submit("nobody", object(), max_attempts=0, depends_on=[5])
    with pytest.raises(ValueError) as info:
        sched.submit("noop", object(), backoff_base=0, depends_on=[5])
    assert not isinstance(info.value, UnknownJobError)
    with pytest.raises(TypeError):
        sched.submit("noop", object(), depends_on=[5])


def test_register_rules(sched, make_handler):
    with pytest.raises(ValueError):
        sched.register("", lambda payload: None)
    old, new = make_handler(), make_handler()
    sched.register("work", old)
    sched.register("work", new)
    sched.submit("work", 1)
    sched.run_pending()
    assert (old.calls, new.calls) == ([], [1])


def test_due_check_is_inclusive(sched, clock):
    later = sched.submit("noop", None, run_at=1010)
    assert sched.run_pending() == []
    clock.advance(9.5)
    assert sched.run_pending() == []
    clock.advance(0.5)
    assert sched.run_pending() == [later]
    assert sched.run_pending() == []


def test_order_is_priority_desc_then_run_at_then_id(sched, clock):
    a = sched.submit("noop", None, run_at=990)
    b = sched.submit("noop", None, run_at=980)
    c = sched.submit("noop", None, priority=5, run_at=1000)
    d = sched.submit("noop", None, priority=5, run_at=995)
    e = sched.submit("noop", None, priority=-1, run_at=900)
    f = sched.submit("noop", None, run_at=980)
    g = sched.submit("noop", None, priority=5, run_at=995)
    assert sched.run_pending() == [d, g, c, b, f, a, e]


def test_success_sets_result_and_finished_at(sched, clock):
    sched.register("double", lambda payload: payload * 2)
    job = sched.submit("double", 21)
    clock.advance(3)
    assert sched.run_pending() == [job]
    record = sched.status(job)
    assert (record.state, record.result, record.attempts, record.finished_at, record.last_error) == (
        "succeeded", 42, 1, 1003.0, None)


def test_run_pending_reads_clock_once(sched, clock):
    def slow(payload):
        clock.advance(100)

    sched.register("slow", slow)
    first = sched.submit("slow", None)
    second = sched.submit("noop", None, run_at=1050)
    third = sched.submit("noop", None)
    assert sched.run_pending() == [first, third]
    assert sched.status(first).finished_at == 1000.0
    assert sched.status(third).finished_at == 1000.0
    assert sched.status(second).state == "pending"
    assert sched.run_pending() == [second]


def test_retry_backoff_with_default_base(sched, clock, make_handler):
    sched.register("flaky", make_handler(failures=2, result="done"))
    job = sched.submit("flaky", None)
    assert sched.run_pending() == [job]
    record = sched.status(job)
    assert (record.state, record.attempts, record.run_at, record.last_error) == (
        "pending", 1, 1002.0, "ValueError: boom 1")
    clock.advance(1.999)
    assert sched.run_pending() == []
    clock.now = 1002.0
    assert sched.run_pending() == [job]
    record = sched.status(job)
    assert (record.state, record.attempts, record.run_at) == ("pending", 2, 1006.0)
    clock.now = 1006.0
    assert sched.run_pending() == [job]
    record = sched.status(job)
    assert (record.state, record.attempts, record.result, record.finished_at) == ("succeeded", 3, "done", 1006.0)
    assert record.last_error == "ValueError: boom 2"
    assert record.run_at == 1006.0


def test_retry_backoff_with_custom_base(sched, clock, make_handler):
    sched.register("flaky", make_handler(failures=9))
    job = sched.submit("flaky", None, max_attempts=4, backoff_base=3.0)
    expected = [1003.0, 1003.0 + 9.0, 1012.0 + 27.0]
    for run_at in expected:
        assert sched.run_pending() == [job]
        assert sched.status(job).run_at == run_at
        clock.now = run_at
    assert sched.run_pending() == [job]
    record = sched.status(job)
    assert (record.state, record.attempts, record.finished_at, record.last_error) == (
        "failed", 4, 1039.0, "ValueError: boom 4")
    clock.advance(10_000)
    assert sched.run_pending() == []


def test_max_attempts_one_fails_immediately(sched, clock, make_handler):
    sched.register("bad", make_handler(failures=1, error=KeyError("k")))
    job = sched.submit("bad", None, max_attempts=1)
    clock.advance(2)
    assert sched.run_pending() == [job]
    record = sched.status(job)
    assert (record.state, record.attempts, record.finished_at, record.run_at) == ("failed", 1, 1002.0, 1000.0)
    assert record.last_error == "KeyError: 'k'"
    assert record.result is None


def test_unserializable_result_counts_as_failed_attempt(sched):
    sched.register("weird", lambda payload: object())
    job = sched.submit("weird", None, max_attempts=2)
    assert sched.run_pending() == [job]
    record = sched.status(job)
    assert (record.state, record.attempts, record.run_at, record.result) == ("pending", 1, 1002.0, None)
    assert record.last_error.startswith("TypeError: ")


def test_each_job_attempted_at_most_once_per_call(sched, clock, make_handler):
    handler = make_handler(failures=1, result=1)
    sched.register("flaky", handler)
    job = sched.submit("flaky", None, backoff_base=1e-20)
    assert sched.status(job).run_at + 1e-20 == clock.now  # the retry is due again within the same call
    assert sched.run_pending() == [job]
    assert len(handler.calls) == 1
    assert sched.status(job).state == "pending"
    assert sched.run_pending() == [job]
    assert sched.status(job).state == "succeeded"


def test_job_is_running_with_attempt_counted_while_handler_runs(sched):
    seen = []
    sched.register("look", lambda job_id: seen.append(
        (sched.status(job_id).state, sched.status(job_id).attempts, sched.cancel(job_id))))
    job = sched.submit("look", 1)
    assert job == 1
    sched.run_pending()
    assert seen == [("running", 1, False)]
    assert sched.status(job).state == "succeeded"


def test_jobs_submitted_by_a_handler_run_in_the_same_call(sched, clock):
    spawned = []
    sched.register("spawn", lambda payload: spawned.append(sched.submit("noop", None)))
    sched.register("future", lambda payload: spawned.append(sched.submit("noop", None, run_at=1001)))
    a = sched.submit("spawn", None)
    b = sched.submit("future", None)
    assert sched.run_pending() == [a, b, spawned[0]]
    assert sched.status(spawned[1]).state == "pending"


def test_unregistered_handler_jobs_are_left_alone(db, clock):
    from jobq import Scheduler

    with Scheduler(db, clock) as producer:
        producer.register("a", lambda payload: None)
        producer.register("b", lambda payload: None)
        job_a = producer.submit("a", None)
        job_b = producer.submit("b", None)
    with Scheduler(db, clock) as worker:
        worker.register("b", lambda payload: "b")
        assert worker.run_pending() == [job_b]
        assert worker.run_pending() == []
        record = worker.status(job_a)
        assert (record.state, record.attempts) == ("pending", 0)


def test_run_pending_on_empty_queue(sched):
    assert sched.run_pending() == []
