"""Shared fixtures: a controllable clock and a scheduler bound to a temporary database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jobq import Scheduler


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Recorder:
    """A handler that records payloads and can be told to fail a number of times."""

    def __init__(self, failures: int = 0, result: Any = None) -> None:
        self.calls: list[Any] = []
        self.failures = failures
        self.result = result

    def __call__(self, payload: Any) -> Any:
        self.calls.append(payload)
        if len(self.calls) <= self.failures:
            raise RuntimeError(f"failure {len(self.calls)}")
        return self.result


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "jobs.db"


@pytest.fixture
def scheduler(db_path: Path, clock: FakeClock) -> Iterator[Scheduler]:
    with Scheduler(db_path, clock) as instance:
        instance.register("noop", lambda payload: None)
        yield instance
