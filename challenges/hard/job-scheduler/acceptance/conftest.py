"""Fixtures for the hidden acceptance tests of hard/job-scheduler (package ``jobq``)."""

from __future__ import annotations

import pytest


class FakeClock:
    """A manually advanced clock: a zero-argument callable returning a float."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = float(start)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Handler:
    """Records payloads; raises ``error`` for the first ``failures`` calls, then returns ``result``."""

    def __init__(self, failures: int = 0, result=None, error: BaseException | None = None) -> None:
        self.calls = []
        self.failures = failures
        self.result = result
        self.error = error

    def __call__(self, payload):
        self.calls.append(payload)
        if len(self.calls) <= self.failures:
            raise self.error if self.error is not None else ValueError(f"boom {len(self.calls)}")
        return self.result


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_clock():
    return FakeClock


@pytest.fixture
def make_handler():
    return Handler


@pytest.fixture
def db(tmp_path):
    return tmp_path / "queue.db"


@pytest.fixture
def sched(db, clock):
    from jobq import Scheduler

    scheduler = Scheduler(db, clock)
    scheduler.register("noop", lambda payload: None)
    yield scheduler
    try:
        scheduler.close()
    except Exception:
        pass
