"""The cluster: placement, quorum coordination, versioning and read repair."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .errors import QuorumError
from .network import Network
from .node import Node
from .ring import preference_list
from .versioning import Record, Version, latest, newer


def _validate_ids(node_ids: Sequence[str]) -> list[str]:
    """Return the node ids as a list, or raise ValueError if empty, duplicated or not strings."""
    ids = list(node_ids)
    if not ids:
        raise ValueError("a cluster needs at least one node")
    if any(not isinstance(node_id, str) or not node_id for node_id in ids):
        raise ValueError("node ids must be non-empty strings")
    if len(set(ids)) != len(ids):
        raise ValueError("node ids must be unique")
    return ids


def _validate_quorum(n: int, r: int, w: int, size: int) -> None:
    """Raise ValueError unless 1 <= n <= size and 1 <= r, w <= n."""
    if not 1 <= n <= size:
        raise ValueError(f"n must be within [1, {size}], got {n}")
    if not (1 <= r <= n and 1 <= w <= n):
        raise ValueError(f"r and w must be within [1, {n}], got r={r}, w={w}")


def _require_str(name: str, value: object) -> None:
    """Raise TypeError unless ``value`` is a string."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")


class Cluster:
    """Nodes replicating every key on ``n`` nodes with read quorum ``r`` and write quorum ``w``."""

    def __init__(
        self,
        node_ids: Sequence[str],
        n: int = 3,
        r: int = 2,
        w: int = 2,
        seed: int = 0,
        network: Network | None = None,
    ) -> None:
        ids = _validate_ids(node_ids)
        _validate_quorum(n, r, w, len(ids))
        self.n, self.r, self.w = n, r, w
        self.network = network if network is not None else Network(seed=seed)
        self._nodes = {node_id: Node(node_id, self.network) for node_id in sorted(ids)}
        self._request_ids = itertools.count(1)

    # -- topology ------------------------------------------------------------------------
    @property
    def node_ids(self) -> list[str]:
        """Sorted ids of the cluster's nodes."""
        return list(self._nodes)

    def node(self, node_id: str) -> Node:
        """Return the node ``node_id``; ValueError when it is not part of the cluster."""
        try:
            return self._nodes[node_id]
        except (KeyError, TypeError):
            raise ValueError(f"unknown node {node_id!r}") from None

    def preference_list(self, key: str) -> list[str]:
        """The ``n`` nodes that replicate ``key``, in order."""
        _require_str("key", key)
        return preference_list(key, self._nodes, self.n)

    def partition(self, groups: Iterable[Iterable[str]]) -> None:
        """Partition the underlying network (see :meth:`Network.partition`)."""
        self.network.partition(groups)

    def heal(self) -> None:
        """Heal every partition of the underlying network."""
        self.network.heal()

    # -- client operations ---------------------------------------------------------------
    def put(self, key: str, value: str, via: str) -> Version:
        """Write ``value`` under ``key`` coordinated by node ``via``; return its version.

        Raises QuorumError (after aborting the write) when fewer than ``w`` replicas ack.
        """
        coordinator = self.node(via)
        _require_str("key", key)
        _require_str("value", value)
        replicas = self.preference_list(key)
        self._gather(coordinator, replicas, "read", {"key": key})
        version = coordinator.new_version()
        record = Record(value, version)
        acks = self._gather(coordinator, replicas, "write", {"key": key, "record": record})
        if len(acks) < self.w:
            self._notify(coordinator, replicas, "abort", {"key": key, "version": version})
            raise QuorumError("put", key, self.w, len(acks))
        return version

    def get(self, key: str, via: str) -> str | None:
        """Read ``key`` through node ``via``; None when no replica holds it.

        Raises QuorumError when fewer than ``r`` replicas answer. Stale responders are repaired.
        """
        coordinator = self.node(via)
        replicas = self.preference_list(key)
        replies = self._gather(coordinator, replicas, "read", {"key": key})
        if len(replies) < self.r:
            raise QuorumError("get", key, self.r, len(replies))
        records = {node_id: reply["record"] for node_id, reply in replies.items()}
        winner = latest(list(records.values()))
        if winner is None:
            return None
        stale = [node_id for node_id, record in records.items() if newer(winner, record)]
        self._notify(coordinator, stale, "repair", {"key": key, "record": winner})
        return winner.value

    # -- coordination helpers ------------------------------------------------------------
    def _dispatch(
        self, coordinator: Node, replicas: Sequence[str], kind: str, body: Mapping[str, Any]
    ) -> dict[str, Mapping[str, Any]]:
        """Serve ``kind`` locally on the coordinator (if a replica), send it to the others."""
        local: dict[str, Mapping[str, Any]] = {}
        for node_id in replicas:
            if node_id == coordinator.node_id:
                reply = coordinator.handle(kind, body)
                local.update({node_id: reply} if reply is not None else {})
            else:
                coordinator.send(node_id, kind, body)
        self.network.run_until_idle()
        return local

    def _gather(
        self, coordinator: Node, replicas: Sequence[str], kind: str, payload: Mapping[str, Any]
    ) -> dict[str, Mapping[str, Any]]:
        """Send a request to every replica, run the network, return the replies by replica."""
        request_id = next(self._request_ids)
        replies = self._dispatch(coordinator, replicas, kind, {"request_id": request_id, **payload})
        replies.update(coordinator.collect(request_id))
        return replies

    def _notify(
        self, coordinator: Node, replicas: Sequence[str], kind: str, payload: Mapping[str, Any]
    ) -> None:
        """Send a one-way message (repair, abort) to ``replicas`` and run the network."""
        if replicas:
            self._dispatch(coordinator, replicas, kind, dict(payload))
