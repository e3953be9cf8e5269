"""Immutable data models of the whole pipeline: challenge, adapter result, measurements, scores, records.

Every model is a frozen, slotted dataclass holding only immutable values (tuples, not lists). Cheap
invariants are checked in ``__post_init__``; parsing and validation of user input happen at the
boundaries (``loader`` for YAML, ``records`` for JSON). This module imports only the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

TIERS: tuple[str, ...] = ("easy", "medium", "hard")
"""The challenge tiers, in order of difficulty."""

SCORE_COMPONENTS: tuple[str, ...] = (
    "build", "tests", "coverage", "quality", "completeness", "efficiency", "acceptance")
"""The rubric's components, in the seed's order (acceptance: AgentBench's hidden tests)."""


def _check_range(name: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Rubric:
    """The seed's `scoring_rubric` block."""

    min_files: int = 0
    """Minimum number of files the agent should create."""
    must_have_tests: bool = False
    """Whether the agent is expected to write tests."""
    must_have_readme: bool = False
    """Whether the agent is expected to write a README."""
    max_time_minutes: int = 30
    """Efficiency baseline: a trial taking this long earns no efficiency points."""
    criteria: tuple[str, ...] = ()
    """Human-readable criteria (documentation for reviewers; not scored automatically)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AcceptanceSpec:
    """Hidden acceptance tests: copied into the workspace only after the agent has finished."""

    files_dir: Path
    """Folder holding the hidden test files."""
    command: tuple[str, ...] = ()
    """Extra arguments for pytest (empty: the harness's protected default invocation)."""
    time_limit_seconds: int = 300
    """Wall-clock limit for the acceptance run."""
    must_fail: tuple[str, ...] = ()
    """Hidden tests (`file::test`, `file::Class::test`) written to fail on any correct product: run as
    canaries (Python; `validate` proves they fail on the reference)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Expectations:
    """A challenge's optional `expect:` block: behaviour checked on each trial's trajectory,
    reported apart and never part of any score."""

    ran_tests: bool | None = None
    """The agent ran a test suite itself (True) or did not (False); None: not checked."""
    max_turns: int | None = None
    """At most this many model turns."""
    max_tool_calls: int | None = None
    """At most this many tool calls."""
    max_shell_commands: int | None = None
    """At most this many shell commands."""
    max_files_written: int | None = None
    """At most this many distinct files written."""
    max_seconds_to_first_write: float | None = None
    """The first file written within this many seconds of the start."""


EXPECTATION_FIELDS: tuple[str, ...] = ("ran_tests", "max_turns", "max_tool_calls",
                                       "max_shell_commands", "max_files_written",
                                       "max_seconds_to_first_write")
"""The keys an `expect:` block may hold, in report order."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StartingWorkspace:
    """What a brownfield challenge's workspace starts as: a folder of files, or one git commit."""

    folder: Path | None = None
    """A folder whose files the workspace starts with (None: a git repository and commit)."""
    repo: Path | None = None
    """A git repository (None: a folder)."""
    commit: str | None = None
    """The full SHA of the commit in `repo` whose tree the workspace starts as."""

    @property
    def is_git(self) -> bool:
        """Whether the workspace starts as a git checkout (a fresh repository of one commit)."""
        return self.repo is not None


@dataclass(frozen=True, slots=True, kw_only=True)
class Challenge:
    """One coding challenge, loaded from YAML."""

    id: str
    """`tier/name`, derived from the file path, e.g. `easy/password-gen`."""
    tier: str
    """One of TIERS."""
    name: str
    """Human-readable name."""
    language: str
    """Primary programming language."""
    prompt: str
    """The full prompt given to the agent."""
    expected_files: tuple[str, ...]
    """Files the agent should create, relative to the workspace."""
    test_commands: tuple[str, ...]
    """Commands that run the agent's own test suite."""
    scoring_rubric: Rubric
    """Scoring criteria and constraints."""
    time_limit_minutes: int = 30
    """Wall-clock limit for the agent."""
    setup_commands: tuple[str, ...] = ()
    """Commands run before testing (the build step)."""
    source_path: Path = Path()
    """The YAML file this challenge was loaded from."""
    reference_dir: Path | None = None
    """Folder with the reference solution, if the challenge ships one."""
    acceptance: AcceptanceSpec | None = None
    """Hidden acceptance tests, if the challenge ships them."""
    expect: Expectations | None = None
    """Behaviour expected of an agent (`expect:`), reported apart from the score; None: none."""
    workspace: StartingWorkspace | None = None
    """What the workspace starts as (`workspace:`); None: an empty folder (greenfield)."""
    protected: tuple[str, ...] = ()
    """Globs of workspace paths the agent must leave alone (`protected:`): measured as given."""
    fail_to_pass: tuple[str, ...] = ()
    """Hidden test IDs that fail on the starting tree and must pass after the change."""
    pass_to_pass: tuple[str, ...] = ()
    """Hidden test IDs that pass on the starting tree and must keep passing."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AdapterResult:
    """What an agent adapter reports about one run (the seed's fields first, extras with defaults)."""

    time_taken_seconds: float
    """Wall-clock time the agent took."""
    prompts_used: int
    """Prompts or turns the agent used."""
    success: bool
    """Whether the agent finished without error (not whether its code is right)."""
    timed_out: bool = False
    """Whether the agent was killed at its time limit."""
    input_tokens: int | None = None
    """Input tokens consumed, where the agent reports them."""
    output_tokens: int | None = None
    """Output tokens produced, where the agent reports them."""
    cost_usd: float | None = None
    """Cost in US dollars, where the agent reports it."""
    final_message: str = ""
    """The agent's final message (untrusted text: escape before display)."""
    error: str | None = None
    """Why the agent failed, if it did."""
    version: str | None = None
    """The agent CLI's version, where known."""
    infra_error: bool = False
    """The failure is the infrastructure's, not the agent's: the model endpoint was unreachable or
    answered 5xx, 429 or 401/403, or the CLI could not start; the trial is retried and left out of
    the scores."""
    output_dropped_bytes: int = 0
    """Bytes of the agent's stdout and stderr the harness read and dropped over its output cap."""
    limit_hit: str | None = None
    """The limit that stopped or refused the agent's processes, in words (disk use, file count,
    out-of-memory kill with the limit, file size, process count); None when none did."""
    model: str | None = None
    """The model the trial used: the CLI's own report where it gives one, else the model the run
    or the agents config set (None: the CLI's default, unknown)."""
    cost_source: str | None = None
    """Where `cost_usd` comes from (one of COST_SOURCES): `cli` (the CLI reported it),
    `price-table` (computed from the tokens and AgentBench's price table), `unknown` (no cost;
    never shown as 0). None in records from before it was kept: read with `cost_source_of`."""
    cache_read_tokens: int | None = None
    """Input tokens read from the provider's prompt cache (part of `input_tokens`), where reported."""
    cache_write_tokens: int | None = None
    """Input tokens written to the provider's prompt cache (part of `input_tokens`), where reported."""
    tokens_source: str | None = None
    """Where the token counts come from (one of TOKEN_SOURCES): `cli` (the CLI's own report),
    `meter` (the harness's metering proxy: every call the endpoint answered), `meter-partial` (the
    meter, but some answers carried no usage: a lower bound). None: `cli` (older records)."""


TOKEN_SOURCES: tuple[str, ...] = ("cli", "meter", "meter-partial")
"""Where a trial's token counts come from."""

COST_SOURCES: tuple[str, ...] = ("cli", "price-table", "unknown")
"""Where a trial's cost comes from."""


def cost_source_of(result: AdapterResult) -> str:
    """Where `result.cost_usd` comes from. An older record (no `cost_source`) with a cost: `cli`,
    except $0 for a run that used tokens (a CLI's missing price, e.g. OpenCode's): `unknown`."""
    if result.cost_usd is None:
        return "unknown"
    if result.cost_source is None and result.cost_usd == 0 \
            and (result.input_tokens or result.output_tokens):
        return "unknown"
    return result.cost_source or "cli"


def known_cost(result: AdapterResult | None) -> float | None:
    """A trial's cost in dollars, None when unknown (never 0 for an unknown cost)."""
    if result is None or cost_source_of(result) == "unknown":
        return None
    return result.cost_usd


class TrialStatus(StrEnum):
    """How a trial ended: the failure taxonomy of the trial record."""

    COMPLETED = "completed"
    """The agent finished and its work was measured."""
    AGENT_ERROR = "agent_error"
    """The agent exited with an error; its work was still measured."""
    TIMEOUT = "timeout"
    """The agent was killed at its time limit (counts as the agent's failure)."""
    INFRA_ERROR = "infra_error"
    """The harness or the machine failed; left out of the scores."""
    VERIFIER_ERROR = "verifier_error"
    """Measuring the work failed in the harness; left out of the scores."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CommandResult:
    """One setup, test or acceptance command as it ran."""

    command: str
    """The command line as written in the challenge."""
    returncode: int | None
    """Exit status (None when it was killed)."""
    timed_out: bool
    """Whether it was killed at its time limit."""
    duration_s: float
    """Wall-clock seconds."""
    log: str
    """Log file, relative to the trial folder."""
    ending: str = ""
    """Why it ended, in words: `exited with status N`, `killed at its N s time limit`, `killed by
    signal SIGKILL`, `could not start: ...`, `stopped by the harness: ...`, with any limit that
    stopped or refused its processes and the output cap (empty in older records)."""

    @property
    def ok(self) -> bool:
        """Whether the command exited 0 in time."""
        return self.returncode == 0 and not self.timed_out


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildMeasurement:
    """Did the project build: every setup command succeeded."""

    success: bool
    """True when every setup command exited 0 (or, with none, the code compiles)."""
    commands: tuple[CommandResult, ...] = ()
    """The setup commands as they ran."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TestMeasurement:
    """Outcome of a test run, as established by the harness (never by the run's own report).

    Every collected test is in the total: a skipped, xfailed or never-finished test is not a passed
    one. When the harness cannot establish the counts, or finds them forged, `problem` says why and
    nothing counts as passed.
    """

    __test__ = False  # NOTE: tells pytest this "Test..." class is not a test case

    passed: int = 0
    """Tests that passed (every phase)."""
    failed: int = 0
    """Tests that failed or errored, or were collected and never finished."""
    skipped: int = 0
    """Tests skipped or xfailed (in the total, not passed)."""
    collected: int = 0
    """Tests collected (0 in records older than schema 2: the total is then the sum of outcomes)."""
    source: str = "none"
    """Where the counts came from: `probe` (the harness's event stream), `none`, or, in records
    older than schema 2, `junit`/`summary`."""
    commands: tuple[CommandResult, ...] = ()
    """The test commands as they ran."""
    test_files: tuple[str, ...] = ()
    """Workspace files that collected at least one test."""
    tampering: tuple[str, ...] = ()
    """Signs that the run's own code rewrote or forged outcomes (each one voids the counts)."""
    problem: str | None = None
    """Why the counts could not be established or were rejected (then nothing counts as passed)."""

    def __post_init__(self) -> None:
        for name in ("passed", "failed", "skipped", "collected"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0")

    @property
    def total(self) -> int:
        """Tests counted: every collected test (at least passed + failed + skipped)."""
        return max(self.collected, self.passed + self.failed + self.skipped)

    @property
    def pass_rate(self) -> float:
        """passed / total, 0.0 when no test ran."""
        return self.passed / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class CoverageMeasurement:
    """Line coverage of the agent's (non-test) code while its tests ran, by coverage.py."""

    covered_lines: int = 0
    """Statements executed."""
    total_lines: int = 0
    """Statements in the agent's product code, every source file counted (imported or not)."""
    files: int = 0
    """Product source files measured."""
    problem: str | None = None
    """Why coverage could not be measured, if it could not."""

    @property
    def ratio(self) -> float:
        """covered / total, 0.0 when there is no code."""
        return self.covered_lines / self.total_lines if self.total_lines else 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class QualityMeasurement:
    """Cyclomatic complexity of the agent's functions, by lizard (see `metrics.quality`)."""

    average_complexity: float | None = None
    """Mean cyclomatic complexity per function, exact (None: no function to assess): the seed's."""
    weighted_complexity: float | None = None
    """Mean cyclomatic complexity weighted by each function's lines of code: the verified rubric's."""
    functions: int = 0
    """Functions analysed."""
    files: int = 0
    """Source files analysed."""
    unanalysed: tuple[str, ...] = ()
    """Product files too large (or unreadable) to analyse: any makes quality the worst band."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CompletenessMeasurement:
    """Which items of the completeness checklist are met.

    The items are each expected file (a non-empty regular file inside the workspace), then, when the
    rubric asks for them, `min_files` (that many source files), `must_have_tests` (a test file that
    collects at least one test) and `must_have_readme` (a non-empty README).
    """

    found: tuple[str, ...] = ()
    """Items met (expected files by path; rubric items as `[min_files]`, `[tests]`, `[readme]`)."""
    missing: tuple[str, ...] = ()
    """Items not met, each with the reason in parentheses when it is not plain absence."""

    @property
    def ratio(self) -> float:
        """found / expected, 0.0 when nothing is expected."""
        total = len(self.found) + len(self.missing)
        return len(self.found) / total if total else 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeSets:
    """A brownfield challenge's FAIL_TO_PASS and PASS_TO_PASS hidden tests, as they ended."""

    fail_to_pass: int = 0
    """FAIL_TO_PASS tests the challenge names."""
    fail_to_pass_passed: int = 0
    """Of those, the ones that passed."""
    pass_to_pass: int = 0
    """PASS_TO_PASS tests the challenge names."""
    pass_to_pass_passed: int = 0
    """Of those, the ones that passed."""
    failing: tuple[str, ...] = ()
    """IDs of named tests that did not pass (missing ones included), for the record."""

    @property
    def resolved(self) -> bool:
        """Every FAIL_TO_PASS and PASS_TO_PASS test passed (SWE-bench's "resolved")."""
        return (self.fail_to_pass_passed == self.fail_to_pass
                and self.pass_to_pass_passed == self.pass_to_pass)


@dataclass(frozen=True, slots=True, kw_only=True)
class AcceptanceMeasurement:
    """The hidden acceptance tests, run after the agent finished."""

    tests: TestMeasurement = field(default_factory=TestMeasurement)
    """Their outcome."""
    tampering: tuple[str, ...] = ()
    """Files the agent left that could sway a naive test run (neutralised), and any sign of forged
    outcomes (which voids the hidden tests: see `tests.problem`)."""
    uncollected: int = 0
    """Hidden tests that were not even collected (counted as failed in `tests`)."""
    sets: ChangeSets | None = None
    """FAIL_TO_PASS / PASS_TO_PASS outcomes (None: the challenge names no such sets)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StepFailure:
    """A step of measuring that raised: its components count zero (see `metrics.steps`)."""

    step: str
    """Which step (`sources`, `hidden tests`, `build`, `own tests`, `coverage`, `quality`, ...)."""
    error: str
    """The exception, `Type: message`."""
    traceback: str = ""
    """Its traceback (the last lines; the whole one is in `logs/verifier-exception.log`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Measurements:
    """Everything measured about one trial's workspace."""

    build: BuildMeasurement
    """Build verification."""
    tests: TestMeasurement
    """The agent's own tests."""
    coverage: CoverageMeasurement
    """Line coverage while the agent's tests ran."""
    quality: QualityMeasurement
    """Cyclomatic complexity."""
    completeness: CompletenessMeasurement
    """Expected files."""
    acceptance: AcceptanceMeasurement | None = None
    """Hidden acceptance tests (None when the challenge has none)."""
    removed_symlinks: tuple[str, ...] = ()
    """Symlinks the agent left in its workspace (`name -> target`): none is measured (the snapshot
    keeps regular files only)."""
    failures: tuple[StepFailure, ...] = ()
    """Steps of measuring that raised on this workspace (their components count zero). Kept in a
    scored record only when the harness's measuring of the challenge's reference works in this
    run: the failure arose from the agent's files (see `agentbench.blame`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreBreakdown:
    """A 0-100 score and the points of each component."""

    rubric: str
    """Which rubric weighted it (`seed` or `verified`)."""
    build: float
    """Build points."""
    tests: float
    """Own-tests pass-rate points."""
    coverage: float
    """Coverage points."""
    quality: float
    """Quality points."""
    completeness: float
    """Completeness points."""
    efficiency: float
    """Efficiency points."""
    acceptance: float = 0.0
    """Hidden-acceptance points (zero weight in both built-in rubrics)."""
    scale: float = 1.0
    """Factor every component was multiplied by (verified rubric: the hidden-test pass rate)."""

    def __post_init__(self) -> None:
        _check_range("total", self.total, 0.0, 100.0 + 1e-9)
        _check_range("scale", self.scale, 0.0, 1.0)

    @property
    def total(self) -> float:
        """The 0-100 score: the sum of the components."""
        return float(sum(getattr(self, name) for name in SCORE_COMPONENTS))


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeSummary:
    """What the agent changed against the starting tree (the diff is `changes.diff` in the trial)."""

    files_changed: int = 0
    """Files added, modified or deleted."""
    lines_added: int = 0
    """Lines added in text files."""
    lines_removed: int = 0
    """Lines removed from text files."""
    binary_files: tuple[str, ...] = ()
    """Changed files that are not text (listed, not diffed)."""
    protected: tuple[str, ...] = ()
    """Protected paths the agent changed, each with what it did; measured as given, never as changed."""
    git_dir: tuple[str, ...] = ()
    """What the agent wrote in the starting repository's `.git` (put back before measuring)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AttemptSummary:
    """An earlier attempt of a trial run with `--attempts 2` (the record itself is the last one)."""

    attempt: int
    """1-based attempt number."""
    passed: bool
    """Whether the attempt passed: every FAIL_TO_PASS and PASS_TO_PASS test, else every hidden
    test, else (no hidden tests) every visible test."""
    visible_passed: int = 0
    """Visible tests (the challenge's test commands) that passed."""
    visible_total: int = 0
    """Visible tests counted."""
    hidden_passed: int | None = None
    """Hidden tests that passed (None: none)."""
    hidden_total: int | None = None
    """Hidden tests counted."""
    agent_seconds: float = 0.0
    """The agent's wall-clock time in this attempt."""
    retried: bool = False
    """Whether the agent was given the visible tests' output and another attempt."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TrialRecord:
    """One agent on one challenge, once: what happened and how it scored."""

    agent: str
    """Adapter name."""
    challenge_id: str
    """`tier/name`."""
    trial: int
    """1-based trial number for this (agent, challenge)."""
    status: TrialStatus
    """How the trial ended."""
    adapter: AdapterResult | None
    """What the adapter reported (None when it never ran)."""
    measurements: Measurements | None
    """What was measured (None on infrastructure errors)."""
    seed_score: ScoreBreakdown | None
    """The seed rubric's score (None when left out of the scores)."""
    score: ScoreBreakdown | None
    """The score under the run's rubric (the seed's by default)."""
    verified_score: ScoreBreakdown | None = None
    """The verified rubric's score (None without hidden tests or when left out of the scores)."""
    agent_seconds: float | None = None
    """Wall-clock seconds of the agent as timed by the harness (what efficiency is scored on; the
    adapter's own figure stays in `adapter.time_taken_seconds`, for information)."""
    language: str | None = None
    """The challenge's language (canonical toolchain name; None in records older than schema 2)."""
    cut: tuple[str, ...] = ()
    """What the harness cut or refused in this trial, each with its reason (output dropped, files
    not archived, limits hit)."""
    started_at: str
    """ISO-8601 UTC start time."""
    duration_s: float
    """Wall-clock seconds for the whole trial, harness included."""
    logs_dir: str
    """The trial folder, relative to the run folder."""
    isolation: str = "process-group"
    """Which isolation tier the trial had."""
    error: str | None = None
    """What went wrong, for any status but completed."""
    changes: ChangeSummary | None = None
    """What the agent changed against the starting tree (None: not recorded)."""
    attempts: tuple[AttemptSummary, ...] = ()
    """Earlier attempts under `--attempts 2` (empty: one attempt, this record)."""

    def __post_init__(self) -> None:
        if self.trial < 1:
            raise ValueError(f"trial must be >= 1, got {self.trial}")

    @property
    def scored(self) -> bool:
        """Whether this trial counts in the scores (infrastructure and verifier errors do not)."""
        return self.score is not None and self.status not in (
            TrialStatus.INFRA_ERROR,
            TrialStatus.VERIFIER_ERROR,
        )

    @property
    def acceptance_rate(self) -> float | None:
        """Hidden-test pass rate, None when the challenge has none."""
        if self.measurements is None or self.measurements.acceptance is None:
            return None
        return self.measurements.acceptance.tests.pass_rate


@dataclass(frozen=True, slots=True, kw_only=True)
class RunRecord:
    """One agent's results over a set of challenges: the seed's `results/<agent>.json`."""

    agent: str
    """Adapter name."""
    run_id: str
    """The run these trials belong to."""
    rubric: str
    """The rubric `score` was computed with."""
    created_at: str
    """ISO-8601 UTC time the file was written."""
    agentbench_version: str
    """Version of AgentBench that wrote it."""
    trials: tuple[TrialRecord, ...]
    """Every trial of this agent in the run."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentConfig:
    """Per-agent settings from the agents config file (no code edits needed)."""

    name: str
    """The agent's name as used with `--agent`."""
    adapter: str | None = None
    """Adapter to use when `name` is not itself an adapter (e.g. `command`)."""
    executable: str | None = None
    """Path or name of the agent's executable (default: the adapter's own)."""
    args: tuple[str, ...] = ()
    """Extra arguments appended to the adapter's command line."""
    env: tuple[tuple[str, str], ...] = ()
    """Extra environment variables (e.g. a base URL for a proxy or a local model)."""
    model: str | None = None
    """Default model (`--model` overrides it)."""
    command: tuple[str, ...] = ()
    """Command template for the `command` adapter ({prompt_file}, {workspace}, {model}, {prompt})."""
    stdin: str | None = None
    """For the `command` adapter: `prompt` to feed the prompt on standard input."""
    prices: tuple[ModelPrice, ...] = ()
    """Prices from the agents config's `[prices."MODEL"]` tables (over the shipped price table)."""
    meter: bool = False
    """Count tokens with the harness's metering proxy between the CLI and its endpoint (which then
    holds the API key), not from the CLI's own report (`agentbench.adapters.meter`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PriceTier:
    """Prices (US dollars per million tokens) of a request whose input is over `above` tokens."""

    above: int
    """The tier applies to a request whose input tokens (cache included) exceed this."""
    input: float
    output: float
    cache_read: float | None = None
    """Price of a cached input token read (None: charged as input)."""
    cache_write: float | None = None
    """Price of an input token written to the cache (None: charged as input)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelPrice:
    """A model's prices in US dollars per million tokens; `tiers` where they change past a
    context length (the highest tier whose `above` the request's input exceeds applies)."""

    model: str
    input: float
    output: float
    cache_read: float | None = None
    cache_write: float | None = None
    tiers: tuple[PriceTier, ...] = ()
    aliases: tuple[str, ...] = ()
    """Other names of the model (dated snapshots, provider names)."""
    source: str = ""
    """Where the prices come from (the shipped table's page and date, or the agents config)."""
