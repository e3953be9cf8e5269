"""The frozen values a comparison is made of: options, cells, agent summaries, verdicts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from agentbench import stats
from agentbench.comparison.behaviour import AgentBehaviour
from agentbench.models import TIERS
from agentbench.stats import Interval, PowerEstimate, Summary

COMPONENTS: tuple[str, ...] = (
    "build", "tests", "coverage", "quality", "completeness", "efficiency", "acceptance",
)
"""Score components, in the seed's order (acceptance last: zero weight in the seed rubric)."""

OVER_CHALLENGES = "challenges"
"""View: inference over challenges like these (challenges are a sample; trials nested in them)."""

CONDITIONAL = "conditional"
"""View: inference on these challenges only (the challenge set is fixed; only trials vary)."""

SCORE_FIELDS: tuple[str, ...] = ("score", "seed_score", "verified_score")
"""`TrialRecord` fields a comparison can read its scores from (`CompareOptions.score`); a field
named `<rubric>_score` holds that rubric's score."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CompareOptions:
    """Knobs of a comparison."""

    confidence: float = stats.DEFAULT_CONFIDENCE
    """Confidence level of every interval."""
    alpha: float = 0.05
    """Significance level of each family of verdicts (Holm-corrected)."""
    power_gap: float | None = None
    """Gap in points for the power estimate (`compare --power 5`); None for no estimate."""
    target_power: float = 0.8
    """Power the estimate aims for."""
    seed: int = stats.DEFAULT_SEED
    """Seed of every Monte Carlo test."""
    condition_on_challenges: bool = False
    """Use the conditional view (these challenges only) instead of inference over challenges."""
    score: str = "score"
    """The `TrialRecord` field whose score is compared: `score` (the run's rubric) or
    `seed_score`. When the runs used different rubrics, `score` falls back to `seed_score`."""

    def __post_init__(self) -> None:
        if self.score not in SCORE_FIELDS:
            raise ValueError(f"score must be one of {', '.join(SCORE_FIELDS)}, got {self.score!r}")

    @property
    def view(self) -> str:
        """`OVER_CHALLENGES` or `CONDITIONAL`."""
        return CONDITIONAL if self.condition_on_challenges else OVER_CHALLENGES


@dataclass(frozen=True, slots=True, kw_only=True)
class TrialRow:
    """One trial as the reports list it."""

    agent: str
    """Agent label."""
    challenge_id: str
    """`tier/name`."""
    trial: int
    """Trial number."""
    status: str
    """How the trial ended."""
    score: float | None
    """Its score (None when left out of the scores)."""
    hidden_passed: int | None
    """Hidden acceptance tests passed (None: the challenge has none)."""
    hidden_total: int | None
    """Hidden acceptance tests counted."""
    time_s: float | None
    """The agent's wall-clock time."""
    cost_usd: float | None
    """Cost in dollars (None: unknown, never 0)."""
    run_id: str
    """The run folder's name."""
    logs_dir: str
    """The trial folder, relative to the run folder."""
    note: str = ""
    """The error, else the agent's final message (untrusted text: escape it), cut to 200 chars."""
    input_tokens: int | None = None
    """Input tokens, where the agent reported them."""
    output_tokens: int | None = None
    """Output tokens, where the agent reported them."""
    lines_added: int | None = None
    """Lines the agent added against the starting tree (None: no diff recorded)."""
    lines_removed: int | None = None
    """Lines the agent removed against the starting tree (None: no diff recorded)."""
    protected_changed: int = 0
    """Protected files the agent changed (measured as given)."""
    resolved: bool | None = None
    """Every FAIL_TO_PASS and PASS_TO_PASS test passed (None: the challenge names no sets)."""
    pass_1: bool | None = None
    """Under `--attempts 2`: whether the first attempt passed (None: one attempt)."""
    pass_2: bool | None = None
    """Under `--attempts 2`: whether the last attempt passed (None: one attempt)."""
    cost_source: str = "unknown"
    """Where the cost comes from: `cli`, `price-table` or `unknown` (`models.COST_SOURCES`)."""
    tokens_source: str | None = None
    """Where the tokens come from: `cli`, `meter` or `meter-partial` (`models.TOKEN_SOURCES`);
    None: no tokens known."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Cell:
    """One agent on one challenge, over its scored trials."""

    agent: str
    """Agent label."""
    challenge_id: str
    """`tier/name`."""
    scores: tuple[float, ...]
    """The scored trials' totals, in trial order."""
    summary: Summary
    """Mean and spread of `scores`."""
    components: tuple[tuple[str, float], ...]
    """Mean points per component."""
    hidden_rate: float | None
    """Mean hidden-test pass rate (None: the challenge has no hidden tests)."""
    outcomes: tuple[float, ...]
    """1.0 for each scored trial that passed every hidden test, 0.0 for one that did not (trials
    without a hidden-test result are absent)."""

    @property
    def solved(self) -> int:
        """Trials that passed every hidden test."""
        return round(sum(self.outcomes))

    @property
    def attempts(self) -> int:
        """Trials with a hidden-test result."""
        return len(self.outcomes)

    @property
    def solve_rate(self) -> float | None:
        """Share of trials that passed every hidden test (None: no hidden-test result)."""
        return self.solved / self.attempts if self.outcomes else None


@dataclass(frozen=True, slots=True, kw_only=True)
class TierScore:
    """An agent's mean score over one tier's challenges."""

    tier: str
    """`easy`, `medium`, `hard` (or the ID prefix of a custom tier)."""
    score: float
    """Mean over the tier's challenges of the per-challenge mean."""
    challenges: int
    """Challenges of this tier the agent has scores for."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LanguageScore:
    """An agent's mean score over one language's challenges."""

    language: str
    """The challenges' language (`python`, `typescript`, `go`...)."""
    score: float
    """Mean over the language's challenges of the per-challenge mean."""
    challenges: int
    """Challenges of this language the agent has scores for."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentSummary:
    """One agent's results, summed up."""

    label: str
    """Name shown in reports: the agent's name, plus its model, CLI version or run ID when another
    results file has the same agent."""
    agent: str
    """Adapter name from the results file."""
    model: str | None
    """Model the run asked for (from its run plan; None: the CLI's default or unknown)."""
    cli_version: str | None
    """Version of the agent's CLI as its trials recorded it (several joined with `/`)."""
    run_id: str
    """The run the results come from."""
    rubric: str
    """Rubric the compared scores were computed with."""
    created_at: str
    """When the results file was written."""
    rank: int | None
    """1 for the best like-for-like score `rank_score` (ties share a rank); None without a
    score."""
    aggregate: float | None
    """The seed's aggregate: mean over challenges of the per-challenge mean (None: nothing scored)."""
    challenges: int
    """Challenges with at least one scored trial."""
    trials: int
    """Scored trials."""
    trials_per_challenge: int
    """Fewest scored trials of any of its challenges."""
    trials_most: int
    """Most scored trials of any of its challenges."""
    single_trial_challenges: tuple[str, ...]
    """Challenges with exactly one scored trial (they still count, with their one score)."""
    interval: Interval | None
    """Confidence interval of the aggregate in the comparison's view (None: see the notes)."""
    components: tuple[tuple[str, float], ...]
    """Mean points per component; they add up to the aggregate."""
    hidden_rate: float | None
    """Mean hidden-test pass rate over challenges that have hidden tests."""
    solve_rate: float | None
    """Mean over challenges of the share of trials that passed every hidden test."""
    solved: int
    """Trials that passed every hidden test."""
    attempts: int
    """Trials with a hidden-test result."""
    pass_at: tuple[tuple[int, float], ...]
    """(k, pass@k) of the hidden tests, for k from 1 to the fewest attempts per challenge."""
    mean_time_s: float | None
    """Mean agent wall-clock seconds per scored trial."""
    median_time_s: float | None
    """Median agent wall-clock seconds per scored trial."""
    p90_time_s: float | None
    """90th percentile of the agent's wall-clock seconds per scored trial."""
    mean_cost_usd: float | None
    """Mean cost per trial, over scored trials that reported one."""
    median_cost_usd: float | None
    """Median cost per trial, over scored trials that reported one."""
    p90_cost_usd: float | None
    """90th percentile of the cost per trial, over scored trials that reported one."""
    total_cost_usd: float | None
    """Total cost of the scored trials that reported one."""
    points_per_dollar: float | None
    """Aggregate score divided by the mean cost per trial (None: a scored trial's cost is
    unknown, or the cost is zero)."""
    cost_sources: tuple[tuple[str, int], ...] = ()
    """Scored trials per cost source (`cli`, `price-table`, `unknown`); costs above are over the
    trials whose cost is known."""
    token_sources: tuple[tuple[str, int], ...] = ()
    """Scored trials with tokens per token source (`cli`: the CLI's report, `meter`: the harness's
    metering proxy, `meter-partial`: a lower bound); the two are not like for like."""
    run_cost_usd: float | None = None
    """Cost per run: the known costs of every trial of the agent's run, scored or not (None: none
    known)."""
    run_cost_unknown: int = 0
    """Trials of the run whose cost is unknown (left out of `run_cost_usd`)."""
    mean_input_tokens: float | None
    """Mean input tokens per trial, over trials that reported them."""
    mean_output_tokens: float | None
    """Mean output tokens per trial, over trials that reported them."""
    statuses: tuple[tuple[str, int], ...]
    """How many trials ended in each status."""
    tiers: tuple[TierScore, ...]
    """Mean score per tier."""
    languages: tuple[LanguageScore, ...] = ()
    """Per language, where the trials say it (records of schema 2 and later)."""
    rank_score: float | None = None
    """The like-for-like score the ranking orders by: the agent's predicted mean over every
    challenge of the comparison from an additive model (agent + challenge difficulty) fitted to
    all scored cells (`comparison.ranking`); equals `aggregate` when every agent has every
    challenge."""
    missing_challenges: tuple[str, ...] = ()
    """Challenges of the comparison on which this agent has no scored trial."""
    rank_notes: tuple[str, ...] = ()
    """What its ranking line must say: challenges it has no score on (and why), and every agent
    it is ranked above although it trails it on their shared challenges."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PairedTest:
    """One paired comparison of two agents on one measure, challenge by challenge."""

    measure: str
    """`score` (points, 0-100) or `hidden` (share of trials passing every hidden test, 0-1)."""
    challenges: int
    """Shared challenges compared."""
    a_value: float
    """A's mean over those challenges."""
    b_value: float
    """B's mean over those challenges."""
    difference: float
    """A minus B: the mean over shared challenges of the per-challenge difference."""
    interval: Interval | None
    """Confidence interval of `difference` in the comparison's view (None: cannot be computed)."""
    p_value: float
    """Two-sided p-value before the correction."""
    p_adjusted: float
    """Holm-adjusted p-value over the family (every pair tested on this measure)."""
    family: int
    """Verdicts in the family the correction covers."""
    wins: int
    """Shared challenges on which A's mean is above B's."""
    losses: int
    """Shared challenges on which A's mean is below B's."""
    ties: int
    """Shared challenges on which they are equal."""
    decidable: bool
    """Whether the test could give a significant result at all with this many challenges (and
    trials, in the conditional view) after the correction."""
    smallest_p: float
    """The smallest p-value the test can give with this design, before the correction."""
    winner: str | None
    """The agent that is significantly ahead, if any."""
    blocked_by: str = ""
    """Why no verdict is possible: `informative` (too few challenges on which the agents differ),
    `trials` (conditional view: too few trials for any test to reach alpha); empty when one is."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """A paired comparison of two agents over the challenges both have."""

    a: str
    """First agent's label."""
    b: str
    """Second agent's label."""
    trials: int
    """Fewest scored trials in any compared (agent, challenge) cell."""
    score: PairedTest
    """The 0-100 score compared."""
    hidden: PairedTest | None
    """Hidden-test solve rates compared (None when no shared challenge has hidden-test results)."""
    power: PowerEstimate | None
    """What it takes to detect the requested gap (None unless one was asked for)."""
    text: str
    """The verdict on the score in words."""
    hidden_text: str
    """The verdict on the hidden tests in words."""
    power_text: str | None
    """The power estimate in words (None unless one was asked for)."""

    @property
    def winner(self) -> str | None:
        """The agent significantly ahead on the score, if any."""
        return self.score.winner


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    """Everything `compare` and `report` show, computed once."""

    rubric: str
    """Rubric of the compared scores."""
    score_field: str
    """The `TrialRecord` field the scores were read from."""
    view: str
    """`challenges` (over challenges like these) or `conditional` (these challenges only)."""
    population: str
    """What the verdicts generalise to, in words (`over challenges like these`...)."""
    confidence: float
    """Confidence level of the intervals."""
    alpha: float
    """Significance level of each family of verdicts."""
    agents: tuple[AgentSummary, ...]
    """One summary per results file, in the order given."""
    challenges: tuple[str, ...]
    """Every challenge any agent has, in first-seen order."""
    cells: tuple[Cell, ...]
    """Per (agent, challenge) statistics."""
    verdicts: tuple[Verdict, ...]
    """One per pair of agents with scores on shared challenges."""
    trials: tuple[TrialRow, ...]
    """Every trial, scored or not."""
    notes: tuple[str, ...]
    """Plain-language notes about the inputs (differing challenges, rubrics, missing trials...)."""
    behaviour: tuple[AgentBehaviour, ...] = ()
    """What each agent did, from its trials' trajectories, with its `expect:` checks (empty when
    no trajectory was read); never part of a score."""

    def cell(self, agent: str, challenge_id: str) -> Cell | None:
        """The cell of one agent on one challenge, None when it has no scored trial."""
        for cell in self.cells:
            if cell.agent == agent and cell.challenge_id == challenge_id:
                return cell
        return None

    def verdict(self, a: str, b: str) -> Verdict | None:
        """The verdict of a pair, in either order (None when the pair was not compared)."""
        for v in self.verdicts:
            if (v.a, v.b) in ((a, b), (b, a)):
                return v
        return None

    @property
    def ranked(self) -> tuple[AgentSummary, ...]:
        """Agents best like-for-like score first (no score last; ties keep the given order)."""
        return tuple(sorted(self.agents, key=lambda a: (a.rank is None, a.rank or 0)))

    @property
    def tiers(self) -> tuple[str, ...]:
        """The tiers present, easy to hard first, custom ones after."""
        present = {tier_of(c) for c in self.challenges}
        return tuple(t for t in TIERS if t in present) + tuple(sorted(present - set(TIERS)))


    @property
    def languages(self) -> tuple[str, ...]:
        """The languages present, the one with most challenges first."""
        counts: Counter[str] = Counter()
        for agent in self.agents:
            for score in agent.languages:
                counts[score.language] += score.challenges
        return tuple(sorted(counts, key=lambda name: (-counts[name], name)))


def tier_of(challenge_id: str) -> str:
    """The tier of a challenge ID (`easy/password-gen` -> `easy`)."""
    return challenge_id.split("/", 1)[0] if "/" in challenge_id else "other"
