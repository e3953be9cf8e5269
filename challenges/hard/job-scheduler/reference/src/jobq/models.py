"""Immutable value types and state names shared by the scheduler, the store and the CLI."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "CANCELLED",
    "FAILED",
    "FINAL_STATES",
    "JobRecord",
    "NewJob",
    "PENDING",
    "RUNNING",
    "STATES",
    "SUCCEEDED",
]

PENDING: Final = "pending"
RUNNING: Final = "running"
SUCCEEDED: Final = "succeeded"
FAILED: Final = "failed"
CANCELLED: Final = "cancelled"

STATES: Final = (PENDING, RUNNING, SUCCEEDED, FAILED, CANCELLED)
FINAL_STATES: Final = frozenset({SUCCEEDED, FAILED, CANCELLED})
DEAD_STATES: Final = frozenset({FAILED, CANCELLED})


@dataclass(frozen=True, slots=True)
class JobRecord:
    """A snapshot of one job, as returned by ``Scheduler.status()`` and ``Scheduler.jobs()``."""

    id: int
    name: str
    payload: Any
    state: str
    priority: int
    run_at: float
    attempts: int
    max_attempts: int
    backoff_base: float
    depends_on: tuple[int, ...]
    last_error: str | None
    result: Any
    created_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class NewJob:
    """Everything the store needs to insert a job (payload already encoded as JSON)."""

    name: str
    payload_json: str
    state: str
    priority: int
    run_at: float
    max_attempts: int
    backoff_base: float
    depends_on: tuple[int, ...]
    created_at: float
    finished_at: float | None
