"""The one door through which AgentBench starts processes (agents, setup, test and scoring commands).

Each process runs in its own session (process group) with an explicit environment, no shell, standard
input from /dev/null unless given, and stdout/stderr streamed to files with a size cap. At its time
limit, on Ctrl-C, and after it exits, the whole tree is killed: the process group, plus every process
that still carries this run's marker variable (which catches grandchildren that called `setsid`).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, cast

from agentbench.sandbox import Confinement, Limits, confine_argv

MARKER_VARIABLE = "AGENTBENCH_PROCESS_MARKER"
"""Environment variable carried by every process AgentBench starts, to find them all again."""

RUN_MARKER_VARIABLE = "AGENTBENCH_RUN_MARKER"
"""Environment variable carried by every process of one run (see `Confinement.run_marker`)."""

DEFAULT_MAX_OUTPUT_BYTES = 20 * 1024 * 1024
"""Keep at most this many bytes of each of stdout and stderr; the rest is read and dropped."""

KILL_GRACE_SECONDS = 2.0
"""Time between SIGTERM and SIGKILL."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ProcessResult:
    """How a process ended."""

    argv: tuple[str, ...]
    """The command as started."""
    returncode: int | None
    """Exit status; None when it could not start or was killed at the limit."""
    timed_out: bool
    """Whether it was killed at its time limit."""
    duration_s: float
    """Wall-clock seconds."""
    stdout_path: Path
    """File holding its (capped) standard output."""
    stderr_path: Path
    """File holding its (capped) standard error."""
    output_truncated: bool = False
    """Whether stdout or stderr went over the cap."""
    start_error: str | None = None
    """Why it could not start (e.g. executable not found)."""
    stopped: str | None = None
    """Why the harness ended it early (its `stop_when` watch said so), else None."""

    @property
    def ok(self) -> bool:
        """Exited 0 within its limit."""
        return self.returncode == 0 and not self.timed_out


def run(  # noqa: PLR0913 - the one door: every knob is explicit and keyword-only
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout_s: float,
    stdout_path: Path,
    stderr_path: Path,
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
    stdin_path: Path | None = None,
    confinement: Confinement | None = None,
    stop_when: StopWhen | None = None,
    pass_fds: tuple[int, ...] = (),
) -> ProcessResult:
    """Run `argv` to its end or time limit, then kill what it left (`stop_when`: a watch over its
    output lines that can end it early, see `StopWhen`; `pass_fds`: descriptors it inherits)."""
    marker = uuid.uuid4().hex
    stdout_path.parent.mkdir(parents=True, exist_ok=True)
    stderr_path.parent.mkdir(parents=True, exist_ok=True)
    groups = _make_cgroups(marker, confinement.limits) if confinement else ()
    full = confine_argv(argv, confinement, cwd, env.get("PATH", "")) if confinement else list(argv)
    start = time.monotonic()
    try:
        tags = {MARKER_VARIABLE: marker}
        if confinement and confinement.run_marker:
            tags[RUN_MARKER_VARIABLE] = confinement.run_marker
        proc = _spawn(_join_cgroups(full, groups), cwd, {**env, **tags}, stdin_path, pass_fds)
    except OSError as exc:
        _remove_cgroups(groups)
        return _not_started(argv, exc, stdout_path, stderr_path)
    stop = _Stop(stop_when, lambda: _kill(proc.pid, f"{MARKER_VARIABLE}={marker}".encode(), groups))
    pumps = [_Pump(pipe, path, max_output_bytes, stop)
             for pipe, path in ((proc.stdout, stdout_path), (proc.stderr, stderr_path))]
    timed_out = False
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        _kill(proc.pid, f"{MARKER_VARIABLE}={marker}".encode(), groups)
        proc.wait()
        for pump in pumps:
            pump.join()
        _remove_cgroups(groups)
    return ProcessResult(
        argv=tuple(argv), returncode=None if timed_out else proc.returncode, timed_out=timed_out,
        duration_s=time.monotonic() - start, stdout_path=stdout_path, stderr_path=stderr_path,
        output_truncated=any(p.truncated for p in pumps), stopped=stop.reason,
    )


def _not_started(argv: Sequence[str], exc: OSError, stdout_path: Path, stderr_path: Path) -> ProcessResult:
    stdout_path.write_bytes(b"")
    stderr_path.write_text(f"could not start {argv[0]!r}: {exc}\n", encoding="utf-8")
    return ProcessResult(argv=tuple(argv), returncode=None, timed_out=False, duration_s=0.0,
                         stdout_path=stdout_path, stderr_path=stderr_path,
                         start_error=f"{type(exc).__name__}: {exc}")


def _spawn(
    argv: Sequence[str], cwd: Path, env: Mapping[str, str], stdin_path: Path | None,
    pass_fds: tuple[int, ...] = (),
) -> subprocess.Popen[bytes]:
    stdin: IO[bytes] | int = subprocess.DEVNULL
    with contextlib.ExitStack() as stack:
        if stdin_path is not None:
            stdin = stack.enter_context(stdin_path.open("rb"))
        return subprocess.Popen(
            list(argv), cwd=cwd, env=dict(env), stdin=stdin, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True, close_fds=True, pass_fds=pass_fds,
        )


StopWhen = Callable[[str], str | None]
"""A watch over a process's output: it sees every line of stdout and stderr as it arrives (in the
harness, before the cap); when it returns a reason, the whole tree is ended at once and the reason
kept in `ProcessResult.stopped`."""

_WATCHED_LINE_BYTES = 8192
"""Longest line given to a `stop_when` watch (the rest of a longer line is skipped)."""


class _Stop:
    """Feeds output lines to a `stop_when` watch and ends the tree the first time it says so."""

    def __init__(self, watch: StopWhen | None, end: Callable[[], object]) -> None:
        self.watch, self.end = watch, end
        self.reason: str | None = None
        self._lock = threading.Lock()

    def feed(self, line: bytes) -> None:
        if self.watch is None or self.reason is not None:
            return
        with self._lock:
            if self.reason is None:
                self.reason = self.watch(line[:_WATCHED_LINE_BYTES].decode("utf-8", "replace"))
            ended = self.reason is not None
        if ended:
            self.end()


class _Pump(threading.Thread):
    """Copies one pipe to a file, keeping at most `cap` bytes and draining the rest; every line
    also goes to the `stop` watch."""

    def __init__(self, pipe: IO[bytes] | None, path: Path, cap: int, stop: _Stop) -> None:
        super().__init__(daemon=True)
        self.pipe, self.path, self.cap, self.stop = pipe, path, cap, stop
        self.truncated = False
        self.start()

    def _lines(self, pending: bytes, chunk: bytes) -> bytes:
        """Give the complete lines of `pending + chunk` to the watch; return the unfinished rest."""
        if self.stop.watch is None:
            return b""
        *lines, rest = (pending + chunk).split(b"\n")
        for line in lines:
            self.stop.feed(line)
        return rest[-_WATCHED_LINE_BYTES:]

    def run(self) -> None:
        if self.pipe is None:
            return
        kept, pending = 0, b""
        with self.path.open("wb") as out, self.pipe:
            reader = cast(io.BufferedReader, self.pipe)
            while chunk := reader.read1(65536):
                pending = self._lines(pending, chunk)
                room = self.cap - kept
                if room > 0:
                    out.write(chunk[:room])
                    kept += min(room, len(chunk))
                if len(chunk) > max(room, 0):
                    self.truncated = True
            if pending:
                self.stop.feed(pending)


def kill_tree(pgid: int, marker: str | None = None) -> int:
    """Kill a process group and every process carrying `marker`; return how many were signalled."""
    needle = f"{MARKER_VARIABLE}={marker}".encode() if marker else None
    return _kill(pgid, needle, ())


def kill_marked(variable: str, value: str) -> int:
    """Kill every process whose environment holds `variable=value` (e.g. all of a run's processes)."""
    return _kill(None, f"{variable}={value}".encode(), ())


def _kill(pgid: int | None, needle: bytes | None, groups: tuple[Path, ...]) -> int:
    def members() -> set[int]:
        return _live_members(pgid, needle) | _cgroup_members(groups)

    victims = members()
    _signal_all(pgid, victims, signal.SIGTERM)
    deadline = time.monotonic() + KILL_GRACE_SECONDS
    while time.monotonic() < deadline and members():
        time.sleep(0.02)
    stragglers = members()
    _signal_all(pgid, stragglers, signal.SIGKILL)
    return len(victims | stragglers)


def _signal_all(pgid: int | None, pids: set[int], sig: signal.Signals) -> None:
    if pgid is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, sig)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def _live_members(pgid: int | None, needle: bytes | None) -> set[int]:
    """Live (non-zombie) processes in group `pgid` or whose environment holds `needle` (/proc)."""
    own = os.getpid()
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == own:
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if fields[0] in ("Z", "X"):
                continue
            if int(fields[2]) == pgid or (needle and needle in (entry / "environ").read_bytes().split(b"\0")):
                found.add(int(entry.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


CGROUP_ROOT = Path("/sys/fs/cgroup")


def _make_cgroups(marker: str, limits: Limits) -> tuple[Path, ...]:
    """Create this process tree's cgroups (v1 pids + memory, or v2); () where that is not allowed."""
    wanted = []
    if (CGROUP_ROOT / "pids" / "cgroup.procs").exists():
        wanted = [(CGROUP_ROOT / "pids" / "agentbench" / marker,
                   {"pids.max": limits.processes}),
                  (CGROUP_ROOT / "memory" / "agentbench" / marker,
                   {"memory.limit_in_bytes": _mb(limits.memory_mb)})]
    elif (CGROUP_ROOT / "cgroup.controllers").exists():
        wanted = [(CGROUP_ROOT / "agentbench" / marker,
                   {"pids.max": limits.processes, "memory.max": _mb(limits.memory_mb)})]
    made = []
    for path, settings in wanted:
        try:
            path.mkdir(parents=True, exist_ok=True)
            made.append(path)
            for name, value in settings.items():
                if value is not None:
                    (path / name).write_text(str(value))
        except OSError:
            continue
    return tuple(made)


def _mb(value: int | None) -> int | None:
    return None if value is None else value * 1024 * 1024


def _join_cgroups(argv: list[str], groups: tuple[Path, ...]) -> list[str]:
    """Wrap argv in a shell that moves itself into the cgroups, then execs (no race with forks)."""
    if not groups:
        return argv
    moves = "; ".join(f'echo $$ > "{group}/cgroup.procs"' for group in groups)
    return ["/bin/sh", "-c", f"{moves}; exec \"$@\"", "agentbench-confine", *argv]


def _cgroup_members(groups: tuple[Path, ...]) -> set[int]:
    found: set[int] = set()
    for group in groups:
        try:
            found.update(int(pid) for pid in (group / "cgroup.procs").read_text().split())
        except (OSError, ValueError):
            continue
    return found


def _remove_cgroups(groups: tuple[Path, ...]) -> None:
    for group in groups:
        for _ in range(50):
            try:
                group.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:
                time.sleep(0.02)


def cgroups_available() -> bool:
    """Whether this process may create cgroups (to label a trial's isolation)."""
    probe = _make_cgroups(f"probe-{uuid.uuid4().hex}", Limits())
    _remove_cgroups(probe)
    return bool(probe)
