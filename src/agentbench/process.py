"""The one door through which AgentBench starts processes (agents, setup, test and scoring commands).

Each process runs in its own session (process group) with an explicit environment, no shell, standard
input from /dev/null unless given, and stdout/stderr streamed to files with a size cap. With a
`Confinement` it also gets its own cgroups (joined as root before it drops to its trial user), rlimits,
the optional bubblewrap sandbox and a watch on the disk use and file count of its folders.

Every command runs under its own supervisor (`supervise.py`, a child subreaper started in place of
the command, inside its cgroups, outside its sandbox and trial user), so whatever it starts stays
below the supervisor however it leaves its session; the supervisor ends all of it with the command.
At its time limit, on Ctrl-C, on going over a limit, and after it exits, the whole tree is killed.
Where the tree ran as a trial user inside its own cgroup it cannot leave that cgroup, so the cgroup's
process list is the whole tree and nothing else is read; otherwise the process group plus every
process that still carries this command's marker variable (a scan of /proc, which also catches
grandchildren that called `setsid`).

What the harness cut or refused is part of the result: bytes of output dropped over the cap, kills by
the out-of-memory killer (with the limit), forks refused at the process limit, and a stop at the disk or
file-count cap.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, cast

from agentbench import supervise
from agentbench.sandbox import Confinement, Limits, TrialUser, confine_argv, setpriv_path
from agentbench.waiting import ended_within

MARKER_VARIABLE = "AGENTBENCH_PROCESS_MARKER"
"""Environment variable carried by every process AgentBench starts, to find them all again."""

RUN_MARKER_VARIABLE = "AGENTBENCH_RUN_MARKER"
"""Environment variable carried by every process of one run (see `Confinement.run_marker`)."""

DEFAULT_MAX_OUTPUT_BYTES = 20 * 1024 * 1024
"""Keep at most this many bytes of each of stdout and stderr; the rest is read and dropped."""

KILL_GRACE_SECONDS = 2.0
"""Time between SIGTERM and SIGKILL."""

PIPE_CLOSE_GRACE_SECONDS = 5.0
"""How long to wait, after the tree is killed, for its output pipes to reach end-of-file."""

JOIN_FAILED_STATUS = 125
"""Exit status when the tree could not join its cgroups (it is then never started)."""


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
    output_dropped_bytes: int = 0
    """Bytes of stdout and stderr read and dropped over the cap."""
    oom_kills: int = 0
    """Processes of the tree the kernel's out-of-memory killer stopped (cgroup memory limit)."""
    memory_limit_mb: int | None = None
    """The tree's memory limit, where a memory cgroup enforced one."""
    limit_hit: str | None = None
    """What limit stopped or refused the tree, in words (disk use, file count, memory, file size,
    CPU time, process count); None when none did."""
    stopped: str | None = None
    """Why the harness ended it early (its `stop_when` watch said so), else None."""

    @property
    def ok(self) -> bool:
        """Exited 0 within its limit."""
        return self.returncode == 0 and not self.timed_out

    @property
    def oom_killed(self) -> bool:
        """Whether the out-of-memory killer stopped any process of the tree."""
        return self.oom_kills > 0


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
    """Run `argv` to its end or time limit, then kill what it left (`stop_when`: see `StopWhen`)."""
    for path in (stdout_path, stderr_path):
        path.parent.mkdir(parents=True, exist_ok=True)
    tree = _Tree.make(confinement)
    start = time.monotonic()
    try:
        full = (confine_argv(argv, confinement, cwd, env.get("PATH", ""), namespaces=mount_namespaces())
                if confinement else list(argv))
        proc = _spawn_supervised(tree.join_argv, full, cwd, {**env, **tree.tags(confinement)}, stdin_path,
                                 pass_fds)
    except OSError as exc:
        tree.remove()
        return _not_started(argv, exc, stdout_path, stderr_path)
    guard = _guard_of(confinement).started(proc.pid, tree.groups)
    stop = _Stop(stop_when, lambda: tree.kill(proc.pid))
    pumps = [_Pump(pipe, path, max_output_bytes, stop)
             for pipe, path in ((proc.stdout, stdout_path), (proc.stderr, stderr_path))]
    watch = _DiskWatch.start_for(confinement, lambda: tree.kill(proc.pid))
    try:
        timed_out = not ended_within(proc.pid, timeout_s)
    finally:
        counts = _finish(proc, tree, watch, pumps)
        guard.ended(proc.pid)
    dropped = sum(p.dropped for p in pumps)
    returncode = None if timed_out else proc.returncode
    return ProcessResult(
        argv=tuple(argv), returncode=returncode, timed_out=timed_out,
        duration_s=time.monotonic() - start, stdout_path=stdout_path, stderr_path=stderr_path,
        output_truncated=dropped > 0, output_dropped_bytes=dropped, oom_kills=counts.oom_kills,
        memory_limit_mb=tree.memory_limit_mb,
        limit_hit=_limit_text(watch.hit if watch else None, counts, confinement, returncode),
        stopped=stop.reason,
    )


def _finish(proc: subprocess.Popen[bytes], tree: _Tree, watch: _DiskWatch | None,
            pumps: list[_Pump]) -> _Counts:
    """Stop the watch, kill what is left of the tree, drain its output, read and drop its cgroups."""
    if watch:
        watch.stop()
    tree.kill(proc.pid)
    proc.wait()
    supervise.kill_escapees()  # NOTE: any command's, should its supervisor have been killed
    for pump in pumps:
        # NOTE: a process that escaped the kill (possible only without a trial user) may hold the
        # pipe open for ever; its output is then left to the daemon pump thread.
        pump.join(timeout=PIPE_CLOSE_GRACE_SECONDS)
    counts = tree.counts()
    tree.remove()
    return counts


def _not_started(argv: Sequence[str], exc: OSError, stdout_path: Path, stderr_path: Path) -> ProcessResult:
    stdout_path.write_bytes(b"")
    stderr_path.write_text(f"could not start {argv[0]!r}: {exc}\n", encoding="utf-8")
    return ProcessResult(argv=tuple(argv), returncode=None, timed_out=False, duration_s=0.0,
                         stdout_path=stdout_path, stderr_path=stderr_path,
                         start_error=f"{type(exc).__name__}: {exc}")


SUPERVISOR = Path(__file__).with_name("supervise.py")
"""The per-command supervisor (a child subreaper that ends every descendant, see `supervise`)."""

SUPERVISOR_SLACK_SECONDS = 5.0
"""How much longer than its grace the harness lets a supervisor take to end its tree."""


def _spawn_supervised(
    wrap: Callable[[list[str]], list[str]], argv: list[str], cwd: Path, env: Mapping[str, str],
    stdin_path: Path | None, pass_fds: tuple[int, ...],
) -> subprocess.Popen[bytes]:
    """Start `argv` under its supervisor (the whole wrapped by `wrap`); raise OSError as a direct
    start would when `argv` cannot start."""
    read, write = os.pipe()
    try:
        supervised = [sys.executable, "-I", "-S", str(SUPERVISOR), str(os.getpid()), str(write),
                      str(KILL_GRACE_SECONDS), "--", *argv]
        proc = _spawn(wrap(supervised), cwd, env, stdin_path, (*pass_fds, write))
    finally:
        os.close(write)
    with os.fdopen(read, "rb") as status:
        words = status.readline(4096).decode(errors="replace").split(" ", 2)
    if words[0] == "error":
        proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            if pipe:
                pipe.close()
        code = int(words[1]) if len(words) > 1 and words[1].isdigit() else 0
        raise OSError(code, words[2].strip() if len(words) > 2 else "could not start")
    return proc


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
    """Copies one pipe to a file, keeping at most `cap` bytes and draining (and counting) the rest;
    every line also goes to the `stop` watch."""

    def __init__(self, pipe: IO[bytes] | None, path: Path, cap: int, stop: _Stop) -> None:
        super().__init__(daemon=True)
        self.pipe, self.path, self.cap, self.stop = pipe, path, cap, stop
        self.dropped = 0
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
                room = max(self.cap - kept, 0)
                if room:
                    out.write(chunk[:room])
                    kept += min(room, len(chunk))
                self.dropped += max(len(chunk) - room, 0)
            if pending:
                self.stop.feed(pending)


@dataclass(frozen=True, slots=True)
class _Counts:
    """What a tree's cgroups counted while it ran."""

    oom_kills: int = 0
    forks_refused: int = 0


@dataclass(frozen=True, slots=True)
class _Tree:
    """One command's process tree: its marker, its cgroups, and how its survivors are found."""

    marker: str
    groups: tuple[Path, ...]
    contained: bool
    """The tree runs as a trial user inside its cgroups, so it cannot leave them: the cgroups'
    process lists are the whole tree and /proc is never scanned."""
    memory_limit_mb: int | None = None
    process_limit: int | None = None

    @classmethod
    def make(cls, confinement: Confinement | None) -> _Tree:
        marker = uuid.uuid4().hex
        if confinement is None:
            return cls(marker, (), contained=False)
        limits = confinement.limits
        groups = _make_cgroups(marker, limits)
        has_memory = any(_is_memory_group(g) for g in groups)
        return cls(marker, groups, contained=bool(groups) and confinement.user is not None,
                   memory_limit_mb=limits.memory_mb if has_memory else None,
                   process_limit=limits.processes if groups else None)

    @property
    def needle(self) -> bytes:
        return f"{MARKER_VARIABLE}={self.marker}".encode()

    def tags(self, confinement: Confinement | None) -> dict[str, str]:
        tags = {MARKER_VARIABLE: self.marker}
        if confinement and confinement.run_marker:
            tags[RUN_MARKER_VARIABLE] = confinement.run_marker
        return tags

    def join_argv(self, argv: list[str]) -> list[str]:
        """Wrap argv in a shell that moves itself into the cgroups (as root), then execs: no race
        with forks, and the tree never runs outside them (it is not started if a move fails)."""
        if not self.groups:
            return argv
        moves = " && ".join(f'echo $$ > "{group}/cgroup.procs"' for group in self.groups)
        script = (f'{moves} && exec "$@"; echo "agentbench: could not join the cgroups of this '
                  f'command" >&2; exit {JOIN_FAILED_STATUS}')
        return ["/bin/sh", "-c", script, "agentbench-confine", *argv]

    def members(self, pgid: int | None) -> set[int]:
        """Live processes of the tree (the cgroups alone when the tree cannot leave them)."""
        found = _cgroup_members(self.groups)
        if self.contained:
            return found
        return found | _live_members(pgid, self.needle)

    def kill(self, pgid: int) -> int:
        return _kill(pgid, lambda: self.members(pgid))

    def counts(self) -> _Counts:
        return _Counts(oom_kills=sum(_oom_kills(g) for g in self.groups if _is_memory_group(g)),
                       forks_refused=sum(_event(g / "pids.events", "max") for g in self.groups))

    def remove(self) -> None:
        _remove_cgroups(self.groups)


def _limit_text(watch_hit: str | None, counts: _Counts, confinement: Confinement | None,
                returncode: int | None) -> str | None:
    """Every limit that stopped or refused the tree, in words."""
    limits = confinement.limits if confinement else Limits()
    found = [watch_hit] if watch_hit else []
    if counts.oom_kills:
        found.append(f"out of memory: the kernel killed {counts.oom_kills} process(es) at the "
                     f"{limits.memory_mb} MiB memory limit")
    if counts.forks_refused:
        found.append(f"process limit: {counts.forks_refused} fork(s) refused at {limits.processes} "
                     "processes")
    if returncode == -signal.SIGXFSZ and confinement:
        found.append(f"file size: a file went over the {limits.file_size_mb} MiB limit (SIGXFSZ)")
    if returncode == -signal.SIGXCPU and confinement:
        found.append(f"CPU time: over the {limits.cpu_seconds} s limit (SIGXCPU)")
    return "; ".join(found) or None


def kill_tree(pgid: int, marker: str | None = None) -> int:
    """Kill a process group and every process carrying `marker`; return how many were signalled."""
    needle = f"{MARKER_VARIABLE}={marker}".encode() if marker else None
    return _kill(pgid, lambda: _live_members(pgid, needle))


def kill_marked(variable: str, value: str) -> int:
    """Kill every process whose environment holds `variable=value` (e.g. all of a run's processes)."""
    needle = f"{variable}={value}".encode()
    return _kill(None, lambda: _live_members(None, needle))


def _kill(pgid: int | None, members: Callable[[], set[int]]) -> int:
    """SIGTERM, then SIGKILL what is left. A command's supervisor ends its own tree on SIGTERM
    (after the same grace), so it is given that time and some more before it is killed."""
    victims = members()
    _signal_all(pgid, victims, signal.SIGTERM)
    _signal_all(pgid, victims, signal.SIGCONT)  # a stopped process (or supervisor) can then end
    _wait_gone(members, KILL_GRACE_SECONDS + SUPERVISOR_SLACK_SECONDS)
    stragglers = members()
    _signal_all(pgid, stragglers, signal.SIGKILL)
    if stragglers:
        _wait_gone(members, KILL_GRACE_SECONDS)  # NOTE: a killed process shows as alive a while under load
    return len(victims | stragglers)


def _wait_gone(members: Callable[[], set[int]], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and members():
        time.sleep(0.02)


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


class RunGuard:
    """A watchdog process that kills what is left of a run once the harness is gone, however it went.

    It runs in its own session and reads a pipe whose only writer is the harness (the descriptor is
    close-on-exec, so no command inherits it). The harness writes one line per command tree it
    starts (its process group and cgroups) and one when the tree is over. At end-of-file (the harness
    exited, or was killed with SIGKILL) the watchdog kills every tree still listed, by its cgroups
    and its process group, and every process carrying the run's marker, then removes the cgroups.
    """

    def __init__(self, marker: str) -> None:
        self.marker = marker
        read, self._fd = os.pipe()
        package = Path(__file__).resolve().parent.parent
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(package)}
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "agentbench.reaper", marker], stdin=read,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                start_new_session=True, close_fds=True)
        finally:
            os.close(read)

    def started(self, pgid: int, groups: tuple[Path, ...]) -> RunGuard:
        """A command tree of the run began (process group `pgid`, in `groups`); returns self."""
        self._send(" ".join(["tree", str(pgid), *map(str, groups)]))
        return self

    def ended(self, pgid: int) -> None:
        """That tree is over and killed."""
        self._send(f"done {pgid}")

    def _send(self, line: str) -> None:
        # NOTE: one write(2) of under PIPE_BUF bytes is atomic, so threads need no lock.
        with contextlib.suppress(OSError):
            os.write(self._fd, (line + "\n").encode(errors="surrogateescape")[:4000])

    def close(self) -> None:
        """End the watch: the watchdog makes its last sweep (nothing should be left) and exits."""
        with contextlib.suppress(OSError):
            os.close(self._fd)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=KILL_GRACE_SECONDS + 3)


_GUARDS: dict[str, RunGuard] = {}
"""Open run guards by run marker (a command whose confinement carries the marker reports to it)."""


class _NoGuard:
    """Where no guard watches the run: nothing to tell."""

    def started(self, pgid: int, groups: tuple[Path, ...]) -> _NoGuard:
        """Nothing; returns self."""
        return self

    def ended(self, pgid: int) -> None:
        """Nothing."""


def _guard_of(confinement: Confinement | None) -> RunGuard | _NoGuard:
    guard = _GUARDS.get(confinement.run_marker or "") if confinement else None
    return guard or _NoGuard()


@contextlib.contextmanager
def guarded(marker: str) -> Iterator[RunGuard]:
    """Watch the run tagged `marker` for as long as the block runs (see `RunGuard`)."""
    guard = RunGuard(marker)
    _GUARDS[marker] = guard
    try:
        yield guard
    finally:
        _GUARDS.pop(marker, None)
        guard.close()


def reap(marker: str, trees: Mapping[int, tuple[Path, ...]]) -> int:
    """Kill every listed tree (cgroups and process group) and every process carrying the run
    `marker`; remove the cgroups. Returns how many processes were signalled."""
    groups = tuple(g for listed in trees.values() for g in listed)
    needle = f"{RUN_MARKER_VARIABLE}={marker}".encode()

    def members() -> set[int]:
        found = _cgroup_members(groups) | _live_members(None, needle)
        for pgid in trees:
            found |= _live_members(pgid, None)
        return found

    killed = _kill(None, members) + supervise.kill_escapees()
    _remove_cgroups(groups)
    return killed


def kill_user(user: TrialUser) -> int:
    """Kill every process running as `user` (as that user: `kill -KILL -1`, atomic against forks).

    Returns how many such processes were alive before. Needs root and `setpriv`.
    """
    alive = user_processes(user.uid)
    exe = setpriv_path()
    if alive and exe:
        subprocess.run([exe, f"--reuid={user.uid}", f"--regid={user.gid}", "--clear-groups",
                        "--", "/bin/sh", "-c", "kill -KILL -1"],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=30, check=False, env={"PATH": "/usr/bin:/bin"})
    return len(alive)


def user_processes(uid: int) -> set[int]:
    """Live processes whose real, effective or saved uid is `uid` (/proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("State", "").split()[:1] in (["Z"], ["X"]):
            continue
        if str(uid) in fields.get("Uid", "").split()[:3]:
            found.add(int(entry.name))
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
        _enable_v2_controllers(CGROUP_ROOT / "agentbench")
        wanted = [(CGROUP_ROOT / "agentbench" / marker,
                   {"pids.max": limits.processes, "memory.max": _mb(limits.memory_mb)})]
    made = []
    for path, settings in wanted:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        made.append(path)
        try:
            for name, value in settings.items():
                if value is not None:
                    (path / name).write_text(str(value))
        except OSError:
            continue
    return tuple(made)


def _enable_v2_controllers(parent: Path) -> None:
    """Let `parent`'s children have pids and memory limits (cgroup v2 delegates controllers down)."""
    with contextlib.suppress(OSError):
        parent.mkdir(exist_ok=True)
    for folder in (parent.parent, parent):
        for controller in ("+pids", "+memory"):
            with contextlib.suppress(OSError):
                (folder / "cgroup.subtree_control").write_text(controller)


def _mb(value: int | None) -> int | None:
    return None if value is None else value * 1024 * 1024


def _is_memory_group(group: Path) -> bool:
    return (group / "memory.events").exists() or (group / "memory.oom_control").exists()


def _event(path: Path, name: str) -> int:
    """The counter `name` of a cgroup's flat `key value` file (0 when absent)."""
    try:
        for line in path.read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == name:
                return int(value)
    except (OSError, ValueError):
        pass
    return 0


def _oom_kills(group: Path) -> int:
    """Processes the OOM killer stopped in a memory cgroup (v2 memory.events, v1 memory.oom_control)."""
    if (group / "memory.events").exists():
        return _event(group / "memory.events", "oom_kill")
    return _event(group / "memory.oom_control", "oom_kill")


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


@functools.cache
def mount_namespaces() -> bool:
    """Whether commands can run in a private mount namespace here (root, with `unshare`): probed
    once per process."""
    exe = shutil.which("unshare")
    if os.geteuid() != 0 or exe is None:
        return False
    try:
        done = subprocess.run([exe, "--mount", "--propagation", "private", "true"],
                              capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def cgroups_available() -> bool:
    """Whether this process may create cgroups (to label a trial's isolation)."""
    probe = _make_cgroups(f"probe-{uuid.uuid4().hex}", Limits())
    _remove_cgroups(probe)
    return bool(probe)


class _DiskWatch(threading.Thread):
    """Measures the disk use and file count of a tree's folders while it runs; over a cap, it
    records why and stops the tree (through `on_hit`)."""

    FIRST_CHECK_S = 0.25
    """Commands shorter than this are never measured."""

    def __init__(self, folders: tuple[Path, ...], limits: Limits, on_hit: Callable[[], object]) -> None:
        super().__init__(daemon=True)
        self.folders, self.limits, self.on_hit = folders, limits, on_hit
        self.hit: str | None = None
        self._stopping = threading.Event()
        self.start()

    @classmethod
    def start_for(cls, confinement: Confinement | None, on_hit: Callable[[], object]) -> _DiskWatch | None:
        if confinement is None or not confinement.watched_folders:
            return None
        limits = confinement.limits
        if limits.disk_mb is None and limits.files is None:
            return None
        return cls(tuple(map(Path, confinement.watched_folders)), limits, on_hit)

    def run(self) -> None:
        interval = self.FIRST_CHECK_S
        while not self._stopping.wait(interval):
            began = time.monotonic()
            self.hit = over_limits(self.folders, self.limits, self._stopping)
            if self.hit:
                self.on_hit()
                return
            interval = min(1.0, max(self.FIRST_CHECK_S, 4 * (time.monotonic() - began)))

    def stop(self) -> None:
        self._stopping.set()
        self.join()


def over_limits(folders: Sequence[Path], limits: Limits, stop: threading.Event | None = None) -> str | None:
    """Which of the disk-use and file-count caps `folders` are over together, in words (None: neither).

    Counts every entry (files, folders, links; links are never followed) and, once per inode, the
    larger of its apparent and allocated size. Stops counting as soon as a cap is passed.
    """
    max_bytes = None if limits.disk_mb is None else limits.disk_mb * 1024 * 1024
    usage = _Usage(max_bytes, limits.files, stop)
    for folder in folders:
        usage.walk(Path(folder))
        if usage.over:
            break
    names = ", ".join(Path(f).name for f in folders)
    if usage.too_deep:
        return f"folders nested too deep to measure in the {usage.top(usage.entries_in)} ({names})"
    if limits.files is not None and usage.entries > limits.files:
        return f"more than {limits.files} files in the {usage.top(usage.entries_in)} ({names})"
    if max_bytes is not None and usage.bytes > max_bytes:
        return (f"disk use over {limits.disk_mb} MiB in the {usage.top(usage.bytes_in)} "
                f"({usage.bytes // (1024 * 1024)} MiB in {names})")
    return None


class _Usage:
    """A running count of entries and bytes under some folders, stopping once over a cap."""

    def __init__(self, max_bytes: int | None, max_entries: int | None, stop: threading.Event | None) -> None:
        self.max_bytes, self.max_entries, self.stop = max_bytes, max_entries, stop
        self.bytes = self.entries = 0
        self.too_deep = False
        self.bytes_in: dict[str, int] = {}
        self.entries_in: dict[str, int] = {}
        self._inodes: set[tuple[int, int]] = set()

    @property
    def over(self) -> bool:
        return (self.too_deep or (self.max_bytes is not None and self.bytes > self.max_bytes)
                or (self.max_entries is not None and self.entries > self.max_entries))

    @staticmethod
    def top(counts: dict[str, int]) -> str:
        """The folder holding the most."""
        return max(counts, key=lambda k: counts[k], default="watched folders")

    def walk(self, folder: Path) -> None:
        if folder.is_symlink() or not folder.is_dir():
            return
        bytes_before, entries_before = self.bytes, self.entries
        pending = [str(folder)]
        while pending and not self.over and not (self.stop and self.stop.is_set()):
            pending.extend(self._scan(pending.pop()))
        self.bytes_in[folder.name] = self.bytes - bytes_before
        self.entries_in[folder.name] = self.entries - entries_before

    def _scan(self, path: str) -> list[str]:
        subfolders = []
        try:
            with os.scandir(path) as entries:
                for entry in entries:
                    self.entries += 1
                    if entry.is_dir(follow_symlinks=False):
                        subfolders.append(entry.path)
                    self._add(entry)
        except OSError as exc:
            self.too_deep = self.too_deep or exc.errno == errno.ENAMETOOLONG
        return subfolders

    def _add(self, entry: os.DirEntry[str]) -> None:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            return
        key = (st.st_dev, st.st_ino)
        if key not in self._inodes:
            self._inodes.add(key)
            self.bytes += max(st.st_size, st.st_blocks * 512)
