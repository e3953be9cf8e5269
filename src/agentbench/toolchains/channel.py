"""A harness-owned event channel: a pipe opened before a measured process starts, read as it writes.

The child gets only the write end; the harness reads JSON lines on a thread while the process runs,
so what was reported stays reported whatever the process does afterwards. Reading stops at a size
cap; lines that are not JSON objects are kept as problems, never trusted.

How the child learns the write end's number and the run's secret (`key_pipe`): never through its
environment, which stays readable in /proc/<pid>/environ after a process removed the variables. The
harness writes a few fixed-size records holding them into a second pipe, closes that pipe's write end
and lets the child inherit its read end; only the read end's number (and its inode, to tell it from
a reused number) is in the environment. The harness's plugin reads one record as it loads, before any
product code is imported, and closes the descriptor: what is left in /proc is the number of a closed
descriptor. The pipe belongs to the harness's user, so a trial user cannot reopen it through
/proc/<pid>/fd of a process that still holds it.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

MAX_CHANNEL_BYTES = 64 * 1024 * 1024
"""Beyond this many bytes a channel's output is dropped and the stream marked as flooded."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Stream:
    """Everything read from a channel."""

    events: tuple[dict[str, Any], ...]
    """The JSON objects, in order."""
    garbage: int = 0
    """Lines that were not JSON objects."""
    flooded: bool = False
    """Whether more than MAX_CHANNEL_BYTES were written."""


class _Reader(threading.Thread):
    def __init__(self, fd: int, cap: int) -> None:
        super().__init__(daemon=True)
        self.fd, self.cap = fd, cap
        self.chunks: list[bytes] = []
        self.flooded = False
        self.start()

    def run(self) -> None:
        kept = 0
        with os.fdopen(self.fd, "rb", buffering=0) as pipe:
            while chunk := pipe.read(65536):
                if kept + len(chunk) > self.cap:
                    self.flooded = True
                    continue
                kept += len(chunk)
                self.chunks.append(chunk)

    def stream(self) -> Stream:
        events: list[dict[str, Any]] = []
        garbage = 0
        for line in b"".join(self.chunks).splitlines():
            try:
                value = json.loads(line)
            except ValueError:
                value = None
            if isinstance(value, dict):
                events.append(value)
            elif line.strip():
                garbage += 1
        return Stream(events=tuple(events), garbage=garbage, flooded=self.flooded)


class Channel:
    """Open with `open_channel()`; pass `write_fd` to the process; `stream()` after it ended."""

    def __init__(self, reader: _Reader, write_fd: int) -> None:
        self._reader = reader
        self.write_fd = write_fd
        self._open = [True]

    def close_write(self) -> None:
        """Close the harness's copy of the write end, once (the number may be reused after)."""
        if self._open[0]:
            self._open[0] = False
            os.close(self.write_fd)

    def stream(self) -> Stream:
        """Close the harness's copy of the write end and return what was read (waits for EOF)."""
        self.close_write()
        # NOTE: a grandchild that kept the descriptor would hold EOF off; the process door kills the
        # whole tree before returning, so the join is short. The timeout is a last resort.
        self._reader.join(timeout=30)
        return self._reader.stream()


KEY_RECORD_BYTES = 256
"""Size of one record in a key pipe (a JSON object padded with spaces): one read takes one record."""

KEY_COPIES = 16
"""Records per key pipe: one for each process of a command that loads the plugin (`sh -c "a; b"`)."""


@contextlib.contextmanager
def key_pipe(payload: dict[str, Any], copies: int = KEY_COPIES) -> Iterator[str]:
    """A pipe holding `copies` records of `payload`, its write end already closed; yields the value
    for the child's environment (`<read fd>:<inode>`). Pass the read fd (`key_fd`) to the child."""
    record = json.dumps(payload).encode()
    if len(record) > KEY_RECORD_BYTES or copies * KEY_RECORD_BYTES > 65536:
        raise ValueError("a key pipe's records must fit in one pipe buffer")
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, record.ljust(KEY_RECORD_BYTES) * copies)
    finally:
        os.close(write_fd)
    try:
        yield f"{read_fd}:{os.fstat(read_fd).st_ino}"
    finally:
        os.close(read_fd)


def key_fd(value: str) -> int:
    """The descriptor to pass to the child, from `key_pipe`'s value."""
    return int(value.split(":", 1)[0])


@contextlib.contextmanager
def open_channel(cap: int = MAX_CHANNEL_BYTES) -> Iterator[Channel]:
    """A fresh pipe whose write end a child inherits; the read end never leaves the harness."""
    read_fd, write_fd = os.pipe()
    os.set_inheritable(read_fd, False)
    channel = Channel(_Reader(read_fd, cap), write_fd)
    try:
        yield channel
    finally:
        channel.close_write()
