"""A deterministic, seeded, single-threaded network simulator.

Messages are queued with a delivery time on a virtual clock and delivered one at a time by
:meth:`Network.step` (earliest delivery time first, ties in send order). Faults: random drops
(``drop_rate``), random integer delays in ``[min_delay, max_delay]`` and partitions. All
randomness comes from one :class:`random.Random` seeded at construction.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Handler = Callable[["Message"], None]


@dataclass(frozen=True)
class Message:
    """One message in flight between two registered endpoints."""

    src: str
    dst: str
    kind: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    sent_at: int = 0
    deliver_at: int = 0


def _check_faults(drop_rate: float, min_delay: int, max_delay: int) -> None:
    """Raise ValueError unless the fault settings are valid."""
    if not 0.0 <= drop_rate <= 1.0:
        raise ValueError(f"drop_rate must be within [0, 1], got {drop_rate}")
    if min_delay < 0 or max_delay < min_delay:
        raise ValueError(f"need 0 <= min_delay <= max_delay, got {min_delay}, {max_delay}")


class Network:
    """Seeded message-passing simulator with drops, delays and partitions."""

    def __init__(
        self, seed: int = 0, drop_rate: float = 0.0, min_delay: int = 1, max_delay: int = 1
    ) -> None:
        _check_faults(drop_rate, min_delay, max_delay)
        self._rng = random.Random(seed)
        self._drop_rate = drop_rate
        self._min_delay = min_delay
        self._max_delay = max_delay
        self._handlers: dict[str, Handler] = {}
        self._queue: list[tuple[int, int, Message]] = []
        self._seq = 0
        self._now = 0
        self._groups: dict[str, int] | None = None
        self._delivered = 0
        self._dropped = 0

    # -- introspection -------------------------------------------------------------------
    @property
    def now(self) -> int:
        """The virtual clock: delivery time of the last message taken off the queue."""
        return self._now

    @property
    def pending(self) -> int:
        """Number of messages currently in flight."""
        return len(self._queue)

    @property
    def delivered(self) -> int:
        """Number of messages handed to a handler so far."""
        return self._delivered

    @property
    def dropped(self) -> int:
        """Number of messages lost so far (random drop or partition)."""
        return self._dropped

    # -- configuration -------------------------------------------------------------------
    def configure(
        self,
        *,
        drop_rate: float | None = None,
        min_delay: int | None = None,
        max_delay: int | None = None,
    ) -> None:
        """Change fault settings for messages sent from now on (None keeps a setting)."""
        drop = self._drop_rate if drop_rate is None else drop_rate
        low = self._min_delay if min_delay is None else min_delay
        high = self._max_delay if max_delay is None else max_delay
        _check_faults(drop, low, high)
        self._drop_rate, self._min_delay, self._max_delay = drop, low, high

    def register(self, node_id: str, handler: Handler) -> None:
        """Attach ``handler`` as the receiver of messages addressed to ``node_id``."""
        if node_id in self._handlers:
            raise ValueError(f"node {node_id!r} is already registered")
        self._handlers[node_id] = handler

    def _require(self, node_id: str) -> None:
        """Raise ValueError when ``node_id`` is not registered."""
        if node_id not in self._handlers:
            raise ValueError(f"unknown node {node_id!r}")

    # -- partitions ----------------------------------------------------------------------
    def partition(self, groups: Iterable[Iterable[str]]) -> None:
        """Split the network: only nodes of the same group can talk; unlisted nodes are isolated."""
        assignment: dict[str, int] = {}
        for index, group in enumerate(groups):
            for node_id in group:
                self._require(node_id)
                if node_id in assignment:
                    raise ValueError(f"node {node_id!r} appears in more than one group")
                assignment[node_id] = index
        self._groups = assignment

    def heal(self) -> None:
        """Remove every partition."""
        self._groups = None

    def can_reach(self, src: str, dst: str) -> bool:
        """True when a message from ``src`` to ``dst`` would not be cut by a partition."""
        if src == dst or self._groups is None:
            return True
        group = self._groups.get(src)
        return group is not None and group == self._groups.get(dst)

    # -- sending and delivery ------------------------------------------------------------
    def send(self, src: str, dst: str, kind: str, payload: Mapping[str, Any] | None = None) -> None:
        """Queue a message, unless it is cut by a partition or randomly dropped."""
        self._require(src)
        self._require(dst)
        if not self.can_reach(src, dst) or self._roll_drop():
            self._dropped += 1
            return
        deliver_at = self._now + self._rng.randint(self._min_delay, self._max_delay)
        message = Message(src, dst, kind, dict(payload or {}), self._now, deliver_at)
        heapq.heappush(self._queue, (deliver_at, self._seq, message))
        self._seq += 1

    def _roll_drop(self) -> bool:
        """Decide (seeded) whether the next message is lost."""
        return self._drop_rate > 0 and self._rng.random() < self._drop_rate

    def step(self) -> bool:
        """Take the next message off the queue and deliver it; False when nothing is queued."""
        if not self._queue:
            return False
        deliver_at, _, message = heapq.heappop(self._queue)
        self._now = max(self._now, deliver_at)
        if self.can_reach(message.src, message.dst):
            self._delivered += 1
            self._handlers[message.dst](message)
        else:
            self._dropped += 1
        return True

    def run_until_idle(self, max_steps: int = 100_000) -> int:
        """Step until no message is in flight; return how many messages were delivered."""
        before = self._delivered
        for _ in range(max_steps):
            if not self.step():
                return self._delivered - before
        if self._queue:
            raise RuntimeError(f"network still busy after {max_steps} steps")
        return self._delivered - before
