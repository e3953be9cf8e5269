"""Lamport-timestamp versions and versioned records.

Ordering rule: a version is newer when its timestamp is larger; equal timestamps are
broken by the node id of the coordinator that created the version (larger string wins).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Version:
    """A write's version: Lamport ``timestamp`` first, then ``node_id`` as tie-break."""

    timestamp: int
    node_id: str


@dataclass(frozen=True)
class Record:
    """A value together with the version of the write that produced it."""

    value: str
    version: Version


def newer(candidate: Record | None, current: Record | None) -> bool:
    """Return True when ``candidate`` should replace ``current`` (None is oldest)."""
    if candidate is None:
        return False
    return current is None or candidate.version.timestamp > current.version.timestamp


def latest(records: list[Record | None]) -> Record | None:
    """Return the newest record of ``records`` (None when none holds a record)."""
    best: Record | None = None
    for record in records:
        if newer(record, best):
            best = record
    return best
