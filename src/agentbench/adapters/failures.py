"""Whose failure is it? Telling an infrastructure failure from the agent's, with harness-side signals.

An agent run that fails because the model endpoint is down, overloaded, rate-limiting or refusing the
key, or because the CLI could not start at all, is the infrastructure's failure: the trial is retried
and left out of the scores (`AdapterResult.infra_error`). Everything the CLI prints is the agent's
and could be forged, so each verdict rests on something the agent cannot reach:

- **endpoint failures**: the harness's own request to the endpoint fails too (`endpoint_failure`);
- **cannot start**: the process never started (`ProcessResult.start_error`: `execve` failed in the
  harness's own `Popen`), or, after a run that printed nothing on stdout, exited with a start-failure
  status and left the workspace exactly as it was, the harness's **own check** (`start_check_argv`,
  run in the same confinement as the same user) finds that the executable, or the interpreter its
  `#!` line names, cannot be run there, or that the confinement cannot start a process at all. What
  the agent printed (`x: not found`) and its exit status never decide it: an agent that fakes a start
  failure is the agent's failure, scored.

CLIs that retry a failing endpoint for a minute or more (aider: 0.1 s doubling to 60 s; OpenCode: five
retries 2-30 s apart) are stopped early by `RetryStop`, a watch over their output lines as they stream
(`process.run(stop_when=...)`), or over a log file the CLI appends to (`LogTail`, for Qwen Code, which
says nothing on stdout or stderr while it retries): after `limit` retry lines it asks the endpoint
itself, and stops the CLI only when the endpoint fails the harness's request too (so a CLI whose
endpoint works again is never cut short).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agentbench.adapters.endpoint import Endpoint, EndpointFailure, endpoint_failure

AUTH = "auth"
RATE_LIMIT = "rate_limit"
SERVER_ERROR = "server_error"
CONNECTION = "connection"
ENDPOINT_KINDS = frozenset({AUTH, RATE_LIMIT, SERVER_ERROR, CONNECTION})
"""Error-pattern kinds that name the model endpoint as the cause."""

PROBE_INTERVAL_S = 10.0
"""Least time between two endpoint checks of one retry watch."""

START_FAILURE_STATUSES = (1, 125, 126, 127)
"""Exit statuses after which the harness checks for itself whether the CLI could start: bwrap's own
(1), cgroup join (125), not executable (126), not found (127)."""

START_CHECK_FAILED = 3
"""The exit status of `start_check_argv`'s script when something named cannot be run."""

_START_CHECK = r"""
for p; do
  case "$p" in
    /*) [ -f "$p" ] && [ -x "$p" ] || { printf '%s: not an executable file here\n' "$p"; exit 3; } ;;
    *) command -v "$p" >/dev/null 2>&1 || { printf '%s: not found on PATH here\n' "$p"; exit 3; } ;;
  esac
done
"""

MAX_SNAPSHOT_ENTRIES = 20_000
"""A workspace with more entries than this counts as changed (it is not listed further)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RetryWatch:
    """Output lines by which a CLI says a model request failed and will be retried."""

    regex: str
    """Matched against each line of stdout and stderr as it arrives."""
    limit: int = 2
    """Check the endpoint from the `limit`-th such line on (one retry has failed as well)."""


Probe = Callable[[Endpoint], EndpointFailure | None]


class RetryStop:
    """The `stop_when` watch of one run: a reason to stop once the CLI keeps retrying an endpoint
    that the harness also finds failing; None otherwise."""

    def __init__(self, watch: RetryWatch, endpoint: Endpoint | None,
                 probe: Probe = endpoint_failure) -> None:
        self.watch, self.endpoint, self.probe = watch, endpoint, probe
        self._pattern = re.compile(watch.regex)
        self._seen = 0
        self._last_probe = float("-inf")
        self._lock = threading.Lock()
        self.confirmed: EndpointFailure | None = None
        """How the endpoint failed the harness's request that stopped the run."""

    def __call__(self, line: str) -> str | None:
        if self.endpoint is None or not self._pattern.search(line):
            return None
        with self._lock:
            self._seen += 1
            now = time.monotonic()
            if self._seen < self.watch.limit or now - self._last_probe < PROBE_INTERVAL_S:
                return None
            self._last_probe = now
            self.confirmed = self.probe(self.endpoint)
        if self.confirmed is None:
            return None
        return (f"stopped by the harness after {self._seen} failed model requests (last: "
                f"{line.strip()[:200]}); the endpoint fails the harness's own request too: "
                f"{self.confirmed.detail}")


LOG_POLL_S = 0.25
"""How often a `LogTail` reads the CLI's log files."""

_LOG_READ_BYTES = 65536
"""Most bytes a `LogTail` reads from one file per poll."""

_LOG_FILES = 8
"""Most log files a `LogTail` follows."""


class LogTail(threading.Thread):
    """Follows the regular files of one folder (the CLI's debug log, in the trial HOME) while the CLI
    runs, feeding each new line to `watch`; calls `stop(reason)` once when the watch says so.

    The folder is the agent's to write: symlinks are never followed (neither the folder's
    components nor the files), only regular files are read, and each poll reads a bounded amount.
    """

    def __init__(self, folder: Path, base: Path, watch: Callable[[str], str | None],
                 stop: Callable[[str], object]) -> None:
        super().__init__(daemon=True)
        self.folder, self.base, self.watch, self.stop_cli = folder, base, watch, stop
        self.reason: str | None = None
        self._done = threading.Event()
        self._offsets: dict[str, int] = {}
        self._pending: dict[str, bytes] = {}

    def run(self) -> None:
        while not self._done.wait(LOG_POLL_S) and self.reason is None:
            self.poll()

    def finish(self) -> None:
        """Stop following (after the CLI ended)."""
        self._done.set()
        self.join()

    def poll(self) -> None:
        """Read what was appended since the last poll and give each complete line to the watch."""
        for name in self._files():
            for line in self._new_lines(name):
                reason = self.watch(line.decode("utf-8", "replace"))
                if reason is not None:
                    self.reason = reason
                    self.stop_cli(reason)
                    return

    def _files(self) -> list[str]:
        if not _real_folder(self.folder, self.base):
            return []
        try:
            names = sorted(entry.name for entry in os.scandir(self.folder)
                           if entry.is_file(follow_symlinks=False))
        except OSError:
            return []
        return names[:_LOG_FILES]

    def _new_lines(self, name: str) -> list[bytes]:
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
        try:
            fd = os.open(self.folder / name, flags)
        except OSError:
            return []
        with contextlib.closing(os.fdopen(fd, "rb")) as file:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return []
            file.seek(self._offsets.get(name, 0))
            data = file.read(_LOG_READ_BYTES)
        self._offsets[name] = self._offsets.get(name, 0) + len(data)
        *lines, rest = (self._pending.get(name, b"") + data).split(b"\n")
        self._pending[name] = rest[-8192:]
        return lines


def _real_folder(folder: Path, base: Path) -> bool:
    """Whether `folder` is a real folder under `base`, no component of it a symlink."""
    try:
        parts = folder.relative_to(base).parts
    except ValueError:
        return False
    current = base
    for part in parts:
        current = current / part
        try:
            if not stat.S_ISDIR(os.lstat(current).st_mode):
                return False
        except OSError:
            return False
    return True


def start_check_argv(executable: str) -> list[str]:
    """The harness's own check that `executable` can start (run it confined like the CLI): the file
    is there and runnable, and so is the interpreter of its `#!` line (for `/usr/bin/env NAME`, NAME
    on PATH). Exits 0 when it can, `START_CHECK_FAILED` naming what cannot be run."""
    return ["/bin/sh", "-c", _START_CHECK, "sh", executable, *_interpreter(executable)]


def _interpreter(executable: str) -> list[str]:
    try:
        with open(executable, "rb") as file:  # NOTE: the configured CLI, not an agent's file
            first = file.read(256).split(b"\n", 1)[0]
    except OSError:
        return []
    if not first.startswith(b"#!"):
        return []
    words = first[2:].decode("utf-8", "replace").split()
    if not words:
        return []
    if words[0] == "/usr/bin/env" and len(words) > 1 and not words[1].startswith("-"):
        return [words[0], words[1]]
    return [words[0]]


def workspace_state(root: Path) -> frozenset[tuple[str, int, int]] | None:
    """(path, size, mtime_ns) of every entry under `root` (links not followed), or None when there
    are more than `MAX_SNAPSHOT_ENTRIES` or the folder cannot be read."""
    found: set[tuple[str, int, int]] = set()
    try:
        for folder, dirs, files in os.walk(root, onerror=_raise):
            for name in (*dirs, *files):
                info = os.lstat(os.path.join(folder, name))
                found.add((os.path.join(folder, name), info.st_size, info.st_mtime_ns))
                if len(found) > MAX_SNAPSHOT_ENTRIES:
                    return None
    except OSError:
        return None
    return frozenset(found)


def _raise(error: OSError) -> None:
    raise error
