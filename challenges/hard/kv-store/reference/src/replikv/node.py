"""A storage node: one replica's records, its Lamport clock and its message handling."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .network import Message, Network
from .versioning import Record, Version, newer

Reply = dict[str, Any] | None

#: Message kinds that answer a request; they are filed in the coordinator's inbox.
REPLY_KINDS = frozenset({"read_reply", "write_reply"})


class Node:
    """A replica that stores versioned records and answers replication requests."""

    def __init__(self, node_id: str, network: Network) -> None:
        self.node_id = node_id
        self.clock = 0
        self._network = network
        self._store: dict[str, Record] = {}
        self._undo: dict[str, tuple[Version, Record | None]] = {}
        self._inbox: dict[int, dict[str, Mapping[str, Any]]] = {}
        self._requests: dict[str, Callable[[Mapping[str, Any]], Reply]] = {
            "read": self._on_read,
            "write": self._on_write,
            "repair": self._on_repair,
            "abort": self._on_abort,
        }
        network.register(node_id, self.receive)

    # -- local state ---------------------------------------------------------------------
    def local(self, key: str) -> Record | None:
        """The record this replica currently stores for ``key`` (None when absent)."""
        return self._store.get(key)

    def keys(self) -> list[str]:
        """Sorted keys stored on this replica."""
        return sorted(self._store)

    def observe(self, record: Record | None) -> None:
        """Lamport receive rule: raise the clock to the timestamp of a seen record."""
        if record is not None:
            self.clock = max(self.clock, record.version.timestamp)

    def new_version(self) -> Version:
        """Lamport send rule: tick the clock and stamp a new version with this node's id."""
        self.clock += 1
        return Version(self.clock, self.node_id)

    def store_write(self, key: str, record: Record) -> None:
        """Apply a client write if newer, remembering the previous record for an abort."""
        self.observe(record)
        current = self._store.get(key)
        if newer(record, current):
            self._undo[key] = (record.version, current)
            self._store[key] = record

    def store_repair(self, key: str, record: Record) -> None:
        """Apply a read-repair record if it is newer than the local one."""
        self.observe(record)
        if newer(record, self._store.get(key)):
            self._store[key] = record

    def revert(self, key: str, version: Version) -> None:
        """Undo the write ``version`` of ``key`` if it is still the current record."""
        entry = self._undo.pop(key, None)
        current = self._store.get(key)
        if entry is None or current is None or current.version != version:
            return
        self._restore(key, entry[1])

    def _restore(self, key: str, previous: Record | None) -> None:
        """Put ``previous`` back as the record of ``key`` (None removes the key)."""
        if previous is None:
            del self._store[key]
        else:
            self._store[key] = previous

    # -- messaging -----------------------------------------------------------------------
    def handle(self, kind: str, payload: Mapping[str, Any]) -> Reply:
        """Serve a replication request (locally or from a message); return the reply body."""
        return self._requests[kind](payload)

    def send(self, dst: str, kind: str, payload: Mapping[str, Any]) -> None:
        """Send a message from this node through the network."""
        self._network.send(self.node_id, dst, kind, payload)

    def receive(self, message: Message) -> None:
        """Network handler: file replies in the inbox, answer requests."""
        if message.kind in REPLY_KINDS:
            self._file_reply(message)
            return
        reply = self.handle(message.kind, message.payload)
        if reply is not None:
            self.send(message.src, f"{message.kind}_reply", reply)

    def _file_reply(self, message: Message) -> None:
        """Record a reply for the request it answers and learn its version."""
        self.observe(message.payload.get("record"))
        replies = self._inbox.setdefault(message.payload["request_id"], {})
        replies[message.src] = message.payload

    def collect(self, request_id: int) -> dict[str, Mapping[str, Any]]:
        """Remove and return the replies received for ``request_id``, keyed by sender."""
        return self._inbox.pop(request_id, {})

    # -- request handlers ----------------------------------------------------------------
    def _on_read(self, payload: Mapping[str, Any]) -> Reply:
        return {"request_id": payload["request_id"], "record": self.local(payload["key"])}

    def _on_write(self, payload: Mapping[str, Any]) -> Reply:
        self.store_write(payload["key"], payload["record"])
        return {"request_id": payload["request_id"], "ack": True}

    def _on_repair(self, payload: Mapping[str, Any]) -> Reply:
        self.store_repair(payload["key"], payload["record"])
        return None

    def _on_abort(self, payload: Mapping[str, Any]) -> Reply:
        self.revert(payload["key"], payload["version"])
        return None
