"""The harness side of the pytest probe: load it into a pytest run and judge what it reported.

The probe (`probe/agentbench_probe.py`) is copied under a fresh random module name into a folder the
harness just created, loaded with `-p <name>` through PYTEST_ADDOPTS (after any `-p no:...` an ini
file adds, so it cannot be switched off that way), and reports over a pipe (`channel`). `tally` turns
the events into counts: every collected test is in the total; a test passed only when every phase
passed both as produced (innermost report wrapper, the call's exception) and as reported. Anything
inconsistent (outcomes rewritten, events not from the probe, a session that never finished without
being killed, an exit status that disagrees) voids the counts: nothing passed, and the reason is kept.
"""

from __future__ import annotations

import secrets
import shutil
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentbench.toolchains.channel import Stream

PROBE_SOURCE = Path(__file__).parent / "probe" / "agentbench_probe.py"
"""The plugin's source, copied for each run under a random module name."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Probe:
    """One installed copy of the probe."""

    folder: Path
    """Holds the module (put it on PYTHONPATH)."""
    module: str
    """Its random module name."""
    nonce: str
    """Secret every event of this run must carry."""

    def variables(self, key: str) -> dict[str, str]:
        """What the pytest process needs in its environment to load the probe and find its key pipe
        (`channel.key_pipe`: the channel's descriptor and the secret are never in the environment)."""
        return {"PYTEST_ADDOPTS": f"-p {self.module} -p no:xdist -p no:randomly",
                "AGENTBENCH_PROBE_KEY": key}

    def key(self, write_fd: int, trace: Sequence[Path] = ()) -> dict[str, Any]:
        """What the key pipe tells the probe (`trace`: record which lines of files under these
        folders run, the harness's second coverage collector)."""
        key: dict[str, Any] = {"fd": write_fd, "nonce": self.nonce}
        if trace:
            key["trace"] = sorted({str(p) for p in trace} | {str(p.resolve()) for p in trace})
        return key

    @property
    def file(self) -> Path:
        """The module's path (the probe says which file it was loaded from)."""
        return self.folder / f"{self.module}.py"


def install_probe(folder: Path) -> Probe:
    """Copy the probe into `folder` (a fresh harness folder) under a random module name."""
    probe = Probe(folder=folder, module=f"agentbench_probe_{secrets.token_hex(8)}",
                  nonce=secrets.token_hex(16))
    shutil.copyfile(PROBE_SOURCE, probe.file)
    return probe


@dataclass(frozen=True, slots=True, kw_only=True)
class Tally:
    """Counts established from one command's events."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    collected: int = 0
    collection_errors: int = 0
    files: tuple[str, ...] = ()
    outcomes: tuple[tuple[str, str], ...] = ()
    tampering: tuple[str, ...] = ()
    problem: str | None = None
    hooks: tuple[str, ...] = ()
    lines: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """(file, lines) the probe's own line collector saw run (only when asked to trace)."""


@dataclass(slots=True)
class _Session:
    pid: Any
    collected: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    errors: int = 0
    tests: dict[str, dict[str, Any]] = field(default_factory=dict)
    exitstatus: int | None = None
    hooks: list[str] = field(default_factory=list)
    lines: dict[str, set[int]] = field(default_factory=dict)


def tally(stream: Stream, probe: Probe, *, returncode: int | None, timed_out: bool,
          direct: bool) -> Tally:
    """Judge one command's event stream (see the module docstring)."""
    tampering: list[str] = []
    events = _authentic(stream, probe, tampering)
    if not any(e.get("e") == "hello" and e.get("file") == str(probe.file) for e in events):
        return Tally(problem="pytest never loaded the harness's probe (the command did not run "
                             "pytest, or the run's own code stopped it)", tampering=tuple(tampering))
    sessions = _sessions(events, tampering)
    if not sessions or any(not s.collected and not s.errors and s.exitstatus is None for s in sessions):
        return Tally(problem="pytest ended before collecting (killed, crashed or exited early)",
                     tampering=tuple(tampering))
    unfinished = [s for s in sessions if s.exitstatus is None]
    if unfinished and not timed_out:
        tampering.append("a pytest session ended without finishing (os._exit or a crash) and was "
                         "not killed by the harness")
    if direct and len(sessions) == 1 and sessions[0].exitstatus is not None:
        _check_exit(sessions[0], returncode, tampering)
    return _count(sessions, tampering)


def _authentic(stream: Stream, probe: Probe, tampering: list[str]) -> list[dict[str, Any]]:
    if stream.flooded:
        tampering.append("the result channel was flooded")
    if stream.garbage:
        tampering.append(f"{stream.garbage} line(s) on the result channel were not probe events")
    forged = [e for e in stream.events if e.get("nonce") != probe.nonce]
    if forged:
        tampering.append(f"{len(forged)} event(s) on the result channel did not carry the run's secret")
    return [e for e in stream.events if e.get("nonce") == probe.nonce]


def _sessions(events: Iterable[Mapping[str, Any]], tampering: list[str]) -> list[_Session]:
    """Top-level sessions by id (a session started inside another one, e.g. pytester's, is ignored)."""
    sessions: dict[str, _Session] = {}
    open_by_pid: dict[Any, str] = {}
    ignored: set[str] = set()
    for event in events:
        sid, kind = str(event.get("sid")), event.get("e")
        if kind == "session":
            if event.get("pid") in open_by_pid:
                ignored.add(sid)
            else:
                sessions[sid] = _Session(pid=event.get("pid"))
                open_by_pid[event.get("pid")] = sid
        elif sid in sessions:
            _apply(sessions[sid], event, tampering)
            if kind == "finish":
                open_by_pid.pop(sessions[sid].pid, None)
        elif sid not in ignored and kind != "hello":
            tampering.append(f"a '{kind}' event for an unknown session")
    return list(sessions.values())


def _apply(session: _Session, event: Mapping[str, Any], tampering: list[str]) -> None:
    kind = event.get("e")
    if kind == "collected":
        session.collected = [str(i) for i in event.get("ids", [])]
        session.files = [str(f) for f in event.get("files", [])]
        session.errors = len(event.get("errors", []))
        session.hooks = [" ".join(map(str, h)) for h in event.get("hooks", [])]
    elif kind == "test":
        test_id = str(event.get("id"))
        if test_id in session.tests or test_id not in session.collected:
            tampering.append(f"an unexpected or repeated outcome for {test_id!r}")
        session.tests[test_id] = dict(event)
    elif kind == "lines":
        files = event.get("files")
        for name, lines in (files.items() if isinstance(files, dict) else ()):
            if isinstance(lines, list):
                session.lines.setdefault(str(name), set()).update(n for n in lines if isinstance(n, int))
    elif kind == "finish":
        if session.exitstatus is not None:
            tampering.append("a session finished twice")
        session.exitstatus = int(event.get("exitstatus", -1))


def _check_exit(session: _Session, returncode: int | None, tampering: list[str]) -> None:
    failed = any(_outcome(t, tampering=[]) == "failed" for t in session.tests.values())
    failed = failed or len(session.tests) < len(session.collected) or session.errors > 0
    if returncode is not None and returncode != session.exitstatus:
        tampering.append(f"pytest's exit status {returncode} disagrees with its session's "
                         f"{session.exitstatus}")
    elif session.exitstatus == 0 and failed:
        tampering.append("pytest exited 0 although tests failed")
    elif session.exitstatus == 1 and not failed:
        tampering.append("pytest exited 1 although every test passed")


def _outcome(test: Mapping[str, Any], tampering: list[str]) -> str:
    """`passed`, `failed` or `skipped` for one test's phases (see the module docstring)."""
    raw = {str(p[0]): (str(p[1]), bool(p[2])) for p in test.get("raw", [])}
    reported = {str(p[0]): str(p[1]) for p in test.get("reported", [])}
    test_id = test.get("id")
    for when, outcome in reported.items():
        if outcome == "passed" and raw.get(when, ("missing", False)) != ("passed", False):
            tampering.append(f"{test_id}: the {when} phase was reported passed but produced "
                             f"{raw.get(when, ('no report', False))[0]}")
    if not test.get("innermost", False):
        tampering.append(f"{test_id}: a plugin registered during the run wrapped the test reports")
    if "failed" in reported.values():
        return "failed"
    clean = all(r == ("passed", False) for r in raw.values())
    if clean and raw.get("call") == ("passed", False) and reported.get("call") == "passed":
        return "passed"
    if "skipped" in reported.values():
        return "skipped"
    return "failed"


def _count(sessions: list[_Session], tampering: list[str]) -> Tally:
    outcomes: list[tuple[str, str]] = []
    for session in sessions:
        for test_id in session.collected:
            test = session.tests.get(test_id)
            outcomes.append((test_id, _outcome(test, tampering) if test else "failed"))
    counts = Counter(o for _, o in outcomes)
    return Tally(
        passed=counts["passed"], failed=counts["failed"], skipped=counts["skipped"],
        collected=len(outcomes), collection_errors=sum(s.errors for s in sessions),
        files=tuple(sorted({f for s in sessions for f in s.files})), outcomes=tuple(outcomes),
        tampering=tuple(dict.fromkeys(tampering)),
        hooks=tuple(dict.fromkeys(h for s in sessions for h in s.hooks)),
        lines=_lines(sessions),
    )


def _lines(sessions: list[_Session]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    merged: dict[str, set[int]] = {}
    for session in sessions:
        for name, lines in session.lines.items():
            merged.setdefault(name, set()).update(lines)
    return tuple((name, tuple(sorted(lines))) for name, lines in sorted(merged.items()))
