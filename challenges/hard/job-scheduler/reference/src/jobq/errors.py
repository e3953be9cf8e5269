"""Exceptions raised by :mod:`jobq`.

Hierarchy::

    JobQError(Exception)
    ├── UnknownHandlerError(JobQError, LookupError)   no handler registered under that name
    ├── UnknownJobError(JobQError, LookupError)       no job with that id
    ├── CycleError(JobQError, ValueError)             a dependency would create a cycle
    └── InvalidStateError(JobQError)                  the job is not in a state that allows the operation
"""

from __future__ import annotations

__all__ = ["CycleError", "InvalidStateError", "JobQError", "UnknownHandlerError", "UnknownJobError"]


class JobQError(Exception):
    """Base class of every error raised deliberately by jobq."""


class UnknownHandlerError(JobQError, LookupError):
    """No handler is registered under the requested name."""


class UnknownJobError(JobQError, LookupError):
    """No job with the requested id exists."""


class CycleError(JobQError, ValueError):
    """Adding the dependency would make the dependency graph cyclic."""


class InvalidStateError(JobQError):
    """The job's current state does not allow the requested operation."""
