"""jobq: a persistent, SQLite-backed job scheduler with retries, backoff and job dependencies."""

from __future__ import annotations

from .errors import CycleError, InvalidStateError, JobQError, UnknownHandlerError, UnknownJobError
from .models import CANCELLED, FAILED, PENDING, RUNNING, STATES, SUCCEEDED, JobRecord
from .scheduler import Scheduler

__all__ = [
    "CANCELLED",
    "CycleError",
    "FAILED",
    "InvalidStateError",
    "JobQError",
    "JobRecord",
    "PENDING",
    "RUNNING",
    "STATES",
    "SUCCEEDED",
    "Scheduler",
    "UnknownHandlerError",
    "UnknownJobError",
]
