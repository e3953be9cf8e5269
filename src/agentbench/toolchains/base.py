"""The `Toolchain` seam: everything language-specific about measuring a trial, behind one Protocol.

A toolchain owns, for its language: the run-wide assets (e.g. Python's cached template environment),
the trial's environment, the build check, running the agent's test commands and counting their
results through a channel the harness owns, coverage of every product source file, which files are
tests, the hidden tests, and linting a challenge. `metrics` keeps the language-free parts
(completeness, quality banding, the order of the steps) and asks the toolchain for the rest.

The trust boundary (see docs/scoring-integrity.md): anything the agent or its commands can write is
attacker-controlled. A toolchain reads outcomes only from channels it opened before any agent code
ran, creates every folder it writes with a fresh random name, and never follows a link.
"""

from __future__ import annotations

import re
import shlex
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

from agentbench import diskroom, process
from agentbench.errors import Interrupted
from agentbench.models import (
    AcceptanceMeasurement,
    AcceptanceSpec,
    BuildMeasurement,
    Challenge,
    CommandResult,
    CoverageMeasurement,
    TestMeasurement,
)
from agentbench.sandbox import Confinement, Limits, NoSandbox, Sandbox, TrialUser
from agentbench.toolchains.canaries import HiddenCatalog, Role, judge, log_canaries
from agentbench.users import give, share
from agentbench.workspace import TrialDirs, cache_dir

MAX_SCANNED_BYTES = 4 * 1024 * 1024
"""A larger product file is not scanned for text aimed at the harness (`marked_files`)."""
_SHELL_EXPANSION = re.compile(r"[$`*?~]")


@dataclass(frozen=True, slots=True, kw_only=True)
class MeasureContext:
    """Where one trial is measured and where its logs go."""

    dirs: TrialDirs
    """The trial's folders (workspace, home and tmp are the agent's; `base` holds them)."""
    trial_dir: Path
    """The trial's folder in the run directory (logs are written under `logs/`)."""
    assets: Path
    """What the toolchain prepared once per run (Python: the template's site-packages)."""
    command_timeout_s: float = 600.0
    """Limit for each setup or test command."""
    expected_acceptance_tests: int | None = None
    """Hidden tests collected on the reference solution (None: unknown)."""
    hidden_catalog: HiddenCatalog | None = None
    """What the reference run established: the hidden tests' ids and their verified canaries."""
    sandbox: Sandbox = field(default_factory=NoSandbox)
    """How setup, test and hidden-test commands are confined."""
    limits: Limits = field(default_factory=Limits)
    """Resource limits of every command."""
    run_marker: str | None = None
    """The run's process marker (Ctrl-C kills every process carrying it)."""
    interrupted: threading.Event | None = None
    """Set when the run is interrupted: no further command starts (`run_command` raises)."""
    hidden: tuple[Path, ...] = ()
    """What no command of the trial may see (`Confinement.hidden`)."""
    side_by_side: bool = False
    """The run leaves a core free: independent steps may run at the same time (`metrics.measure`)."""
    snapshot: Path | None = None
    """The snapshot being measured, which no trial process can write (set on the own steps' context
    by `metrics.fresh_workspace`; None: not known)."""
    @property
    def user(self) -> TrialUser | None:
        """The unprivileged user the trial's commands run as (None: AgentBench's own user)."""
        return self.dirs.user

    def confinement(self, *writable: Path, readable: tuple[Path, ...] = ()) -> Confinement:
        """Commands may write the workspace, home, temp and the given folders only."""
        d = self.dirs
        return self.confine((d.workspace, d.home, d.tmp, *writable), readable)

    def confine(self, writable: tuple[Path, ...], readable: tuple[Path, ...] = ()) -> Confinement:
        """The confinement of a command that may write `writable` only (as the trial's user)."""
        return Confinement(sandbox=self.sandbox, limits=self.limits, run_marker=self.run_marker,
                           writable=writable, readable=(self.assets, *readable), user=self.user,
                           hidden=self.hidden)

    def let_read(self, *folders: Path) -> None:
        """Let the trial's commands read (not write) harness folders made with `private_dir`."""
        share(self.user, folders)

    def let_write(self, *folders: Path) -> None:
        """Give harness folders (and what is in them) to the trial's commands to write."""
        give(self.user, folders)

    def logs(self) -> Path:
        """The trial's log folder (created)."""
        path = self.trial_dir / "logs"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def private_dir(self, prefix: str) -> Path:
        """A fresh folder with a random name for the harness's own files (never an existing path)."""
        return Path(tempfile.mkdtemp(prefix=f"{prefix}-", dir=self.dirs.base))


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceFiles:
    """The agent's source files of the toolchain's language, split into product code and tests."""

    product: tuple[Path, ...] = ()
    """Product source files (absolute paths in the workspace)."""
    tests: tuple[Path, ...] = ()
    """Test files (absolute paths in the workspace)."""
    root: Path | None = None
    """The folder they were listed in (the snapshot, when measuring; None: the workspace)."""

    def rebased(self, root: Path) -> SourceFiles:
        """The same files in a copy of their folder at `root`."""
        old = self.root
        if old is None:
            return self
        return SourceFiles(product=tuple(root / p.relative_to(old) for p in self.product),
                           tests=tuple(root / p.relative_to(old) for p in self.tests), root=root)


@dataclass(frozen=True, slots=True, kw_only=True)
class OwnTests:
    """The agent's own tests as run by the harness."""

    tests: TestMeasurement
    """Counts established by the harness."""
    coverage_data: Path | None = None
    """Where the run left coverage data for `Toolchain.coverage` (None: none was collected)."""
    confirmed_lines: Mapping[str, frozenset[int]] | None = None
    """Lines (by resolved file path) a second, independent collector saw run, which coverage
    claims are checked against (None: no such cross-check)."""
    confirmed_data: Path | None = None
    """A harness-private file holding a second, independent collector's raw data, for a toolchain
    that resolves it only at coverage time (None: none)."""
    groundwork: Path | None = None
    """A harness-private file holding what the toolchain worked out from the snapshot alone while
    the tests ran, for `Toolchain.coverage` (None: it is worked out at coverage time)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HiddenRun:
    """The hidden tests as run by the harness."""

    measurement: AcceptanceMeasurement
    """What is scored."""
    outcomes: tuple[tuple[str, str], ...] = ()
    """(test id, outcome) per collected test, for flakiness checks and the trial's log."""


@runtime_checkable
class Toolchain(Protocol):
    """What AgentBench needs from a language. Third parties register one under the entry-point
    group `agentbench.toolchains` (the entry point's name is the language)."""

    name: str
    """The language's canonical name, as written in a challenge's `language` field.

    Optional attribute `hidden_alongside` (default False): True when the hidden run shares nothing
    with the build and own tests (no cache handed from one to the other), so `metrics.measure` may
    run it beside them."""
    aliases: tuple[str, ...]
    """Other names accepted in `language` (lower case)."""

    def prepare_run(self, cache: Path, log_dir: Path, announce: Callable[[str], None]) -> Path:
        """Build (once, cached) what every trial of a run shares; return its folder.

        Calls `announce` with one line before a build that takes a while (the first run)."""
        ...

    def prepare(self, challenge: Challenge, ctx: MeasureContext) -> Path:
        """Make the trial's environment in a fresh folder (`ctx.private_dir`); return that folder.

        The agent's setup and test commands may write in it (e.g. packages they install)."""
        ...

    def sources(self, workspace: Path) -> SourceFiles:
        """The workspace's source files, product code told from tests."""
        ...

    def build(self, challenge: Challenge, ctx: MeasureContext, work: Path,
              sources: SourceFiles) -> BuildMeasurement:
        """Check that the project builds (setup commands, or the language's own build)."""
        ...

    def run_tests(self, challenge: Challenge, ctx: MeasureContext, work: Path) -> OwnTests:
        """Run the agent's test commands, counting results through a harness-owned channel."""
        ...

    def coverage(self, own: OwnTests, sources: SourceFiles, ctx: MeasureContext) -> CoverageMeasurement:
        """Coverage of every product source file by the agent's tests."""
        ...

    def run_hidden(self, spec: AcceptanceSpec, ctx: MeasureContext, project: Path) -> HiddenRun:
        """Run the hidden tests against a copy of `project`."""
        ...

    def survey_hidden(self, spec: AcceptanceSpec, reference: Path,
                      ctx: MeasureContext) -> HiddenCatalog | None:
        """Run the hidden tests (and candidate canaries) on the reference solution: the tests'
        ids and the canaries that fail there (None when that fails)."""
        ...

    def lint(self, challenge: Challenge) -> tuple[str, ...]:
        """Language-specific problems of a challenge (for `agentbench validate`)."""
        ...


def command_argv(command: str) -> list[str]:
    """Split a challenge command into argv; one using shell syntax runs under `/bin/sh -c`."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens = list(lexer)
    operators = any(t and all(c in "();<>|&" for c in t) for t in tokens)
    if operators or _SHELL_EXPANSION.search(command):
        return ["/bin/sh", "-c", command]
    return shlex.split(command)


@dataclass(frozen=True, slots=True, kw_only=True)
class CommandSpec:
    """One command to run for a trial."""

    command: str
    """The command as written (shown in records)."""
    env: Mapping[str, str]
    """Its complete environment."""
    log_name: str
    """Logs go to `logs/<log_name>.log` and `.err`."""
    argv: tuple[str, ...] = ()
    """The argv to run (default: `command` split by `command_argv`)."""
    timeout_s: float | None = None
    """Its time limit (default: the context's command limit)."""
    cwd: Path | None = None
    """Its folder (default: the workspace)."""
    pass_fds: tuple[int, ...] = ()
    """Descriptors it inherits."""
    stdin_path: Path | None = None
    """A file fed to its standard input (default: /dev/null)."""


def run_command(spec: CommandSpec, ctx: MeasureContext, confinement: Confinement) -> CommandResult:
    """Run one command, logging to the trial's log folder (Interrupted once the run was interrupted)."""
    if ctx.interrupted is not None and ctx.interrupted.is_set():
        raise Interrupted
    logs = ctx.logs()
    result = process.run(
        list(spec.argv) or command_argv(spec.command), cwd=spec.cwd or ctx.dirs.workspace,
        env=spec.env, timeout_s=spec.timeout_s or ctx.command_timeout_s,
        stdout_path=logs / f"{spec.log_name}.log", stderr_path=logs / f"{spec.log_name}.err",
        confinement=confinement, pass_fds=spec.pass_fds, stdin_path=spec.stdin_path,
    )
    command = CommandResult(
        command=spec.command, returncode=result.returncode, timed_out=result.timed_out,
        duration_s=round(result.duration_s, 3), log=f"logs/{spec.log_name}.log",
        ending=ending_of(result, spec.timeout_s or ctx.command_timeout_s),
    )
    if not command.ok:  # NOTE: on a machine out of disk even without the trials' files: infra_error
        diskroom.raise_if_short((*confinement.writable, ctx.logs()), own_uid=ctx.user is None,
                                during=f"'{spec.command}' failed")
    return command


def ending_of(result: process.ProcessResult, timeout_s: float) -> str:
    """Why a process ended, in words (see `CommandResult.ending`)."""
    if result.start_error is not None:
        ending = f"could not start: {result.start_error}"
    elif result.timed_out:
        ending = f"killed at its {timeout_s:g} s time limit"
    elif result.stopped is not None:
        ending = f"stopped by the harness: {result.stopped}"
    elif result.returncode is not None and result.returncode < 0:
        ending = f"killed by signal {_signal_name(-result.returncode)}"
    elif result.returncode is not None and result.returncode > 128:
        ending = (f"exited with status {result.returncode} (a process it waited for was killed by "
                  f"signal {_signal_name(result.returncode - 128)})")
    else:
        ending = f"exited with status {result.returncode}"
    notes = [ending]
    if result.limit_hit:
        notes.append(f"limit: {result.limit_hit}")
    if result.output_dropped_bytes:
        notes.append(f"output cap hit ({result.output_dropped_bytes:,} bytes dropped)")
    return "; ".join(notes)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def read_log(ctx: MeasureContext, result: CommandResult) -> str:
    """The stdout log of a command (decoded leniently)."""
    return (ctx.trial_dir / result.log).read_text(encoding="utf-8", errors="replace")


class Counted(Protocol):
    """What one test command's harness-read tally gives `combine_counts` (every toolchain's has it)."""

    @property
    def passed(self) -> int: ...
    @property
    def failed(self) -> int: ...
    @property
    def skipped(self) -> int: ...
    @property
    def collected(self) -> int: ...
    @property
    def tampering(self) -> tuple[str, ...]: ...
    @property
    def problem(self) -> str | None: ...


def combine_counts(tallies: Sequence[Counted], commands: tuple[CommandResult, ...],
                   test_files: tuple[str, ...]) -> TestMeasurement:
    """Add up the tallies of several test commands; any unestablished or forged count voids them all
    (no test passes, the would-be passes count as failed, `problem` says why)."""
    tampering = tuple(t for tally in tallies for t in tally.tampering)
    problem = next((t.problem for t in tallies if t.problem), None)
    if tampering and problem is None:
        problem = "test outcomes were rewritten or forged: " + tampering[0]
    passed = sum(t.passed for t in tallies)
    return TestMeasurement(
        passed=0 if problem else passed,
        failed=sum(t.failed for t in tallies) + (passed if problem else 0),
        skipped=sum(t.skipped for t in tallies), collected=sum(t.collected for t in tallies),
        source="probe" if tallies else "none", commands=commands, test_files=test_files,
        tampering=tampering, problem=problem,
    )


def write_coverage_report(ctx: MeasureContext, per_file: Mapping[str, tuple[int, int]],
                          problem: str | None, unit: str = "statements") -> None:
    """The trial's `coverage.json` ({file: {covered, <unit>}}, problem) and `logs/coverage.log`
    (covered/total per file), the same for every language; `unit` names what was counted."""
    import json

    report = {"files": {name: {"covered": c, unit: t} for name, (c, t) in per_file.items()},
              "problem": problem}
    (ctx.trial_dir / "coverage.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    lines = [f"{c:5d}/{t:<5d} {name}" for name, (c, t) in sorted(per_file.items())]
    (ctx.logs() / "coverage.log").write_text(
        "\n".join([*(lines or ["no product file"]), *([problem] if problem else [])]) + "\n",
        encoding="utf-8", errors="backslashreplace")


def hidden_measurement(judged: Counted, result: CommandResult, voiding: Sequence[str],
                       uncollected: int) -> TestMeasurement:
    """The hidden tests' count: tests that never ran (`uncollected`: short of the reference's count)
    fail; any sign of forging (`voiding`) or an unestablished count makes every one fail."""
    problem = judged.problem or (f"hidden test outcomes were forged: {voiding[0]}" if voiding else None)
    return TestMeasurement(
        passed=0 if problem else judged.passed,
        failed=judged.failed + uncollected + (judged.passed if problem else 0),
        skipped=judged.skipped, collected=judged.collected + uncollected, source="probe",
        commands=(result,), tampering=tuple(voiding), problem=problem,
    )


class Judged(Counted, Protocol):
    """A hidden run's harness-read tally, with the (id, outcome) of each test it saw."""

    @property
    def outcomes(self) -> tuple[tuple[str, str], ...]: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class _Counts:
    passed: int
    failed: int
    skipped: int
    tampering: tuple[str, ...]
    problem: str | None

    @property
    def collected(self) -> int:
        """Every counted test (as the toolchains' tallies count it)."""
        return self.passed + self.failed + self.skipped


def judged_hidden_run(judged: Judged, result: CommandResult, resolve: Callable[[str], Role | None],
                      voiding: Sequence[str], ctx: MeasureContext) -> HiddenRun:
    """The hidden run as the canaries judge it (`toolchains.canaries.judge`, logged to
    `hidden-canaries.json`): counted over the reference's tests (or, without the survey's catalog,
    the real tests reported); a forged outcome voids the run like the `voiding` found before."""
    catalog = ctx.hidden_catalog
    expected = catalog.tests if catalog else [r.original for i, _ in judged.outcomes
                                              if (r := resolve(i)) and r.canary is None]
    verdict = judge(judged.outcomes, resolve, expected, catalog.counted() if catalog else None)
    voided = [*voiding, *verdict.forged]
    log_canaries(ctx.logs() / "hidden-canaries.json", resolve, judged.outcomes, verdict)
    counted = _Counts(passed=verdict.passed, failed=verdict.failed - verdict.missing,
                      skipped=verdict.skipped, tampering=judged.tampering, problem=judged.problem)
    tests = hidden_measurement(counted, result, voided, verdict.missing)
    return HiddenRun(measurement=AcceptanceMeasurement(tests=tests, tampering=tuple(voided),
                                                       uncollected=verdict.missing),
                     outcomes=verdict.outcomes)


def marked_files(files: Iterable[Path], markers: Sequence[bytes],
                 max_bytes: int = MAX_SCANNED_BYTES) -> list[Path]:
    """The `files` (of at most `max_bytes`; unreadable ones passed over) holding any of `markers`:
    text aimed at the harness's own channel, which no product file has a reason to contain."""
    hits = []
    for path in files:
        try:
            if path.stat().st_size > max_bytes:
                continue
            text = path.read_bytes()
        except OSError:
            continue
        if any(marker in text for marker in markers):
            hits.append(path)
    return hits


def print_assets(build: Callable[[Path, Path, Callable[[str], None]], Path], name: str) -> None:
    """`python -m agentbench.toolchains.<name>`: build (or find) the toolchain's cached assets with
    `build(cache, logs, announce)`, announcing progress on stderr, and print their folder."""
    with tempfile.TemporaryDirectory(prefix=f"agentbench-{name}-") as logs:
        root = build(cache_dir(), Path(logs), _announce)
    sys.stdout.write(f"{root}\n")


def _announce(line: str) -> None:
    sys.stderr.write(line + "\n")
