"""Key placement: which nodes replicate a key."""

from __future__ import annotations

import zlib
from collections.abc import Iterable


def key_hash(key: str) -> int:
    """Stable hash of a key: CRC-32 of its UTF-8 encoding."""
    return zlib.crc32(key.encode("utf-8"))


def preference_list(key: str, node_ids: Iterable[str], n: int) -> list[str]:
    """Return the ``n`` replicas of ``key``.

    Node ids are sorted; the list starts at index ``crc32(key) % len(nodes)`` and takes the
    next ``n`` ids, wrapping around.
    """
    ordered = sorted(node_ids)
    start = key_hash(key) % len(ordered)
    return [ordered[(start + offset) % len(ordered)] for offset in range(n)]
