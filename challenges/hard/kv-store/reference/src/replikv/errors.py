"""Exceptions raised by replikv."""

from __future__ import annotations


class ReplikvError(Exception):
    """Base class of every replikv-specific error."""


class QuorumError(ReplikvError):
    """A client operation could not gather its quorum of replica responses."""

    def __init__(self, operation: str, key: str, required: int, received: int) -> None:
        self.operation = operation
        self.key = key
        self.required = required
        self.received = received
        super().__init__(
            f"{operation} {key!r}: quorum not reached ({received} of {required} required)"
        )
