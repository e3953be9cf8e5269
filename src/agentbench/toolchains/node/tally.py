"""The harness side of the node:test reporter: install it for one run, and judge what it reported.

The reporter (`js/reporter.mjs`) is copied for every command under a random name into a folder the
harness just made and loaded with `--test-reporter`. It reports over a pipe (`channel`) whose write
end the test runner inherits; the descriptor number, the pipe's inode and a secret come through a key
pipe (`channel.key_pipe`), never in the environment. `tally` turns the events
into counts: every reported test is in the total; a skipped or todo test is not a passed one; a
test file that failed to run counts as one failed test; a file that reported no test counts nothing.
Anything inconsistent (events without the run's secret, a runner that never finished without being
killed, an exit status that disagrees with the outcomes) voids the counts, with the reason kept.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentbench.toolchains.channel import Stream

REPORTER_SOURCE = Path(__file__).parent / "js" / "reporter.mjs"


@dataclass(frozen=True, slots=True, kw_only=True)
class Reporter:
    """One installed copy of the reporter."""

    file: Path
    """The module (in a fresh harness folder)."""
    nonce: str
    """Secret every event of this run must carry."""

    def key(self, write_fd: int) -> dict[str, Any]:
        """What the key pipe (`channel.key_pipe`) tells the reporter: never in the environment."""
        return {"fd": write_fd, "nonce": self.nonce, "inode": str(os.fstat(write_fd).st_ino)}

    @staticmethod
    def variables(key: str) -> dict[str, str]:
        """What the test runner needs in its environment to find its key pipe."""
        return {"AGENTBENCH_REPORTER_KEY": key}

    def flags(self) -> tuple[str, ...]:
        """The runner's reporters: this one (its own output discarded to stderr), then `spec`."""
        return (f"--test-reporter={self.file}", "--test-reporter-destination=stderr",
                "--test-reporter=spec", "--test-reporter-destination=stdout")


def install_reporter(folder: Path) -> Reporter:
    """Copy the reporter into `folder` (a fresh harness folder) under a random name."""
    reporter = Reporter(file=folder / f"agentbench-reporter-{secrets.token_hex(8)}.mjs",
                        nonce=secrets.token_hex(16))
    shutil.copyfile(REPORTER_SOURCE, reporter.file)
    return reporter


@dataclass(frozen=True, slots=True, kw_only=True)
class Tally:
    """Counts established from one command's events."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    files: tuple[str, ...] = ()
    """Absolute paths of the files whose tests were counted."""
    outcomes: tuple[tuple[str, str], ...] = ()
    tampering: tuple[str, ...] = ()
    problem: str | None = None
    empty_files: tuple[str, ...] = ()
    """Test files that reported no test (not counted)."""

    @property
    def collected(self) -> int:
        """Every counted test."""
        return self.passed + self.failed + self.skipped


@dataclass(slots=True)
class _Run:
    cwd: str
    tests: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False


NOT_LOADED = ("node's test runner never loaded the harness's reporter (run `node --test` directly as "
              "the test command, without a reporter of its own; npm scripts do not pass the channel)")


def tally(stream: Stream, reporter: Reporter, *, returncode: int | None, timed_out: bool,
          direct: bool) -> Tally:
    """Judge one command's event stream (see the module docstring)."""
    tampering: list[str] = []
    runs = _runs(_authentic(stream, reporter, tampering), reporter, tampering)
    if not runs:
        return Tally(problem=NOT_LOADED, tampering=tuple(tampering))
    if any(not r.finished for r in runs) and not timed_out:
        tampering.append("a test run ended without finishing (process.exit or a crash) and was not "
                         "killed by the harness")
    judged = _count(runs)
    failed = judged.failed > 0
    if direct and len(runs) == 1 and runs[0].finished and returncode is not None and not timed_out:
        if returncode == 0 and failed:
            tampering.append("node exited 0 although tests failed")
        elif returncode != 0 and not failed:
            tampering.append(f"node exited {returncode} although no test failed")
    return Tally(passed=judged.passed, failed=judged.failed, skipped=judged.skipped, files=judged.files,
                 outcomes=judged.outcomes, empty_files=judged.empty_files,
                 tampering=tuple(dict.fromkeys(tampering)))


def _authentic(stream: Stream, reporter: Reporter, tampering: list[str]) -> list[dict[str, Any]]:
    if stream.flooded:
        tampering.append("the result channel was flooded")
    if stream.garbage:
        tampering.append(f"{stream.garbage} line(s) on the result channel were not reporter events")
    forged = [e for e in stream.events if e.get("nonce") != reporter.nonce]
    if forged:
        tampering.append(f"{len(forged)} event(s) on the result channel did not carry the run's secret")
    return [e for e in stream.events if e.get("nonce") == reporter.nonce]


def _runs(events: list[dict[str, Any]], reporter: Reporter, tampering: list[str]) -> list[_Run]:
    runs: dict[Any, _Run] = {}
    for event in events:
        pid, kind = event.get("pid"), event.get("e")
        if kind == "hello":
            if event.get("file") == str(reporter.file) and pid not in runs:
                runs[pid] = _Run(cwd=str(event.get("cwd", "")))
        elif pid not in runs:
            tampering.append(f"a '{kind}' event from a process that never loaded the reporter")
        elif kind == "test":
            runs[pid].tests.append(event)
        elif kind == "finish":
            runs[pid].finished = True
    return list(runs.values())


def outcome(test: Mapping[str, Any]) -> str:
    """`passed`, `failed` or `skipped` for one reported test."""
    if test.get("outcome") != "pass":
        return "failed"
    return "skipped" if test.get("skip") or test.get("todo") else "passed"


def test_id(test: Mapping[str, Any], cwd: str) -> str:
    """`file:line:column name`, the file relative to the runner's folder."""
    file = str(test.get("file", ""))
    if cwd and file.startswith(cwd.rstrip("/") + "/"):
        file = file[len(cwd.rstrip("/")) + 1:]
    return f"{file}:{test.get('line', 0)}:{test.get('column', 0)} {test.get('name', '')}"


def _load_failure(test: dict[str, Any]) -> dict[str, Any]:
    """node reports a test file that failed to load (e.g. its import of the product failed) as a
    failed test named by the file's path, without a file: give it its file (it fails either way)."""
    name = str(test.get("name", ""))
    if not test.get("file") and outcome(test) == "failed" and name.startswith("/"):
        return {**test, "file": name, "name": "(the test file failed to load)"}
    return test


def _count(runs: list[_Run]) -> Tally:
    outcomes: list[tuple[str, str]] = []
    files: set[str] = set()
    empty: list[str] = []
    for run in runs:
        for test in map(_load_failure, run.tests):
            if test.get("type") == "suite":
                continue
            if test.get("whole_file") and test.get("outcome") == "pass":
                empty.append(str(test.get("file")))
                continue
            outcomes.append((test_id(test, run.cwd), outcome(test)))
            files.add(str(test.get("file")))
    counts = Counter(o for _, o in outcomes)
    return Tally(passed=counts["passed"], failed=counts["failed"], skipped=counts["skipped"],
                 files=tuple(sorted(files)), outcomes=tuple(outcomes), empty_files=tuple(empty))
