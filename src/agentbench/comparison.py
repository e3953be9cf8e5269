"""Comparison of agents' results: a frozen `Comparison` value built from `RunRecord`s, pure.

This is the layer between the results store and the reports: `compare` and `report` read results
files, hand the records to `build_comparison`, and render the value it returns. It owns the choices
a reader has to trust: which trials count (scored trials only, as in the seed's aggregate), which
challenges a paired verdict uses (those both agents have), when a winner is named (the permutation
test's p-value, Holm-adjusted across pairs, is below alpha *and* the difference's interval excludes
zero), and the plain-language notes about anything odd in the inputs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import fmean

from agentbench import stats
from agentbench.errors import ResultsFileError
from agentbench.models import TIERS, RunRecord, ScoreBreakdown, TrialRecord
from agentbench.stats import Interval, PowerEstimate, Summary

COMPONENTS: tuple[str, ...] = (
    "build", "tests", "coverage", "quality", "completeness", "efficiency", "acceptance",
)
"""Score components, in the seed's order (acceptance last: zero weight in the seed rubric)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CompareOptions:
    """Knobs of a comparison."""

    confidence: float = stats.DEFAULT_CONFIDENCE
    """Confidence level of every interval."""
    alpha: float = 0.05
    """Significance level of the verdicts."""
    power_gap: float | None = None
    """Gap in points for the power estimate (`compare --power 5`); None for no estimate."""
    target_power: float = 0.8
    """Power the estimate aims for."""
    seed: int = stats.DEFAULT_SEED
    """Seed of the Monte Carlo permutation test."""


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
    """Cost, where the agent reported it."""
    run_id: str
    """The run folder's name."""
    logs_dir: str
    """The trial folder, relative to the run folder."""
    note: str = ""
    """The error, else the agent's final message (untrusted text: escape it), cut to 200 chars."""


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
    hidden_solved: tuple[tuple[int, bool], ...]
    """(trial number, passed every hidden test) for each trial with a hidden-test result."""

    @property
    def solved(self) -> int:
        """Trials that passed every hidden test."""
        return sum(ok for _, ok in self.hidden_solved)

    @property
    def attempts(self) -> int:
        """Trials with a hidden-test result."""
        return len(self.hidden_solved)


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
class AgentSummary:
    """One agent's results, summed up."""

    label: str
    """Name shown in reports (the agent's name, with the run ID if two files share it)."""
    agent: str
    """Adapter name from the results file."""
    run_id: str
    """The run the results come from."""
    rubric: str
    """Rubric the compared scores were computed with."""
    created_at: str
    """When the results file was written."""
    aggregate: float | None
    """The seed's aggregate: mean over challenges of the per-challenge mean (None: nothing scored)."""
    challenges: int
    """Challenges with at least one scored trial."""
    trials: int
    """Scored trials."""
    trials_per_challenge: int
    """Fewest scored trials of any of its challenges."""
    interval: Interval | None
    """Confidence interval of the aggregate (None with a single trial per challenge)."""
    components: tuple[tuple[str, float], ...]
    """Mean points per component; they add up to the aggregate."""
    hidden_rate: float | None
    """Mean hidden-test pass rate over challenges that have hidden tests."""
    solved: int
    """Trials that passed every hidden test."""
    attempts: int
    """Trials with a hidden-test result."""
    pass_at: tuple[tuple[int, float], ...]
    """(k, pass@k) of the hidden tests, for k from 1 to the fewest attempts per challenge."""
    mean_time_s: float | None
    """Mean agent wall-clock seconds per trial."""
    mean_cost_usd: float | None
    """Mean cost per trial, over trials that reported one."""
    total_cost_usd: float | None
    """Total cost of the trials that reported one."""
    mean_input_tokens: float | None
    """Mean input tokens per trial, over trials that reported them."""
    mean_output_tokens: float | None
    """Mean output tokens per trial, over trials that reported them."""
    statuses: tuple[tuple[str, int], ...]
    """How many trials ended in each status."""
    tiers: tuple[TierScore, ...]
    """Mean score per tier."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HiddenTest:
    """McNemar's exact test on paired trials' hidden-test pass/fail."""

    a_only: int
    """Pairs where only A passed every hidden test."""
    b_only: int
    """Pairs where only B did."""
    both: int
    """Pairs where both did."""
    neither: int
    """Pairs where neither did."""
    p_value: float
    """Two-sided exact p-value."""
    winner: str | None
    """The agent that passes significantly more often, if any."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """A paired comparison of two agents over the challenges both have."""

    a: str
    """First agent's label."""
    b: str
    """Second agent's label."""
    challenges: int
    """Shared challenges compared."""
    trials: int
    """Fewest scored trials in any compared (agent, challenge) cell."""
    difference: float
    """A's aggregate minus B's, over the shared challenges."""
    interval: Interval | None
    """Confidence interval of `difference` (None with a single trial per challenge)."""
    p_value: float
    """Stratified permutation test's two-sided p-value."""
    p_adjusted: float
    """Holm-adjusted p-value across all pairs (equal to p_value for a single pair)."""
    winner: str | None
    """The agent that is significantly ahead, if any."""
    hidden: HiddenTest | None
    """Hidden-test pass/fail comparison (None when no paired trial has hidden tests)."""
    power: PowerEstimate | None
    """Trials needed to detect the requested gap (None unless one was asked for)."""
    text: str
    """The verdict on the 0-100 score in words."""
    hidden_text: str
    """The verdict on the hidden tests in words."""
    power_text: str | None
    """The power estimate in words (None unless one was asked for)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    """Everything `compare` and `report` show, computed once."""

    rubric: str
    """Rubric of the compared scores."""
    confidence: float
    """Confidence level of the intervals."""
    alpha: float
    """Significance level of the verdicts."""
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

    def cell(self, agent: str, challenge_id: str) -> Cell | None:
        """The cell of one agent on one challenge, None when it has no scored trial."""
        for cell in self.cells:
            if cell.agent == agent and cell.challenge_id == challenge_id:
                return cell
        return None

    @property
    def tiers(self) -> tuple[str, ...]:
        """The tiers present, easy to hard first, custom ones after."""
        present = {tier_of(c) for c in self.challenges}
        return tuple(t for t in TIERS if t in present) + tuple(sorted(present - set(TIERS)))


def tier_of(challenge_id: str) -> str:
    """The tier of a challenge ID (`easy/password-gen` -> `easy`)."""
    return challenge_id.split("/", 1)[0] if "/" in challenge_id else "other"


def build_comparison(
    runs: Sequence[RunRecord],
    *,
    sources: Sequence[str] = (),
    options: CompareOptions = CompareOptions(),
) -> Comparison:
    """Compare agents' runs: per-cell statistics, aggregates with intervals, paired verdicts.

    Raises:
        ResultsFileError: no run given, the same results given twice, or the runs share no
            challenge at all.
    """
    if not runs:
        raise ResultsFileError("<none>", "no results to compare", "pass one or more results files")
    where = ", ".join(sources) or "results"
    labels = _labels(runs, where)
    rubric, notes = _pick_rubric(runs)
    pick = _Pick(use_seed=rubric == "seed")
    cells = tuple(c for label, run in zip(labels, runs, strict=True)
                  for c in _cells(label, run.trials, pick))
    challenges = tuple(dict.fromkeys(t.challenge_id for run in runs for t in run.trials))
    agents = tuple(_agent_summary(label, run, cells, rubric, options)
                   for label, run in zip(labels, runs, strict=True))
    notes += _input_notes(agents, runs, cells, where)
    verdicts = _verdicts(agents, cells, options)
    return Comparison(
        rubric=rubric, confidence=options.confidence, alpha=options.alpha, agents=agents,
        challenges=challenges, cells=cells, verdicts=verdicts,
        trials=tuple(_trial_row(label, run.run_id, t, pick)
                     for label, run in zip(labels, runs, strict=True) for t in run.trials),
        notes=notes,
    )


def _labels(runs: Sequence[RunRecord], where: str) -> tuple[str, ...]:
    counts = Counter(run.agent for run in runs)
    labels = tuple(run.agent if counts[run.agent] == 1 else f"{run.agent} ({run.run_id})"
                   for run in runs)
    twice = [label for label, n in Counter(labels).items() if n > 1]
    if twice:
        raise ResultsFileError(where, f"the results of {twice[0]!r} are given twice",
                               "pass each results file once")
    return labels


def _pick_rubric(runs: Sequence[RunRecord]) -> tuple[str, tuple[str, ...]]:
    rubrics = sorted({run.rubric for run in runs})
    if len(rubrics) == 1:
        return rubrics[0], ()
    return "seed", (f"the results were scored with different rubrics ({', '.join(rubrics)}); "
                    "every agent is compared on the seed rubric",)


@dataclass(frozen=True, slots=True)
class _Pick:
    """Which score of a trial counts: None if unscored, the seed score when rubrics are mixed."""

    use_seed: bool

    def __call__(self, trial: TrialRecord) -> ScoreBreakdown | None:
        if not trial.scored:
            return None
        if self.use_seed and trial.score is not None and trial.score.rubric != "seed":
            return trial.seed_score
        return trial.score


def _hidden(trial: TrialRecord) -> tuple[int, int] | None:
    if trial.measurements is None or trial.measurements.acceptance is None:
        return None
    tests = trial.measurements.acceptance.tests
    return tests.passed, tests.total


def _solved(trial: TrialRecord) -> bool | None:
    hidden = _hidden(trial)
    return None if hidden is None else hidden[1] > 0 and hidden[0] == hidden[1]


def _cells(label: str, trials: Sequence[TrialRecord], pick: _Pick) -> Iterable[Cell]:
    by_challenge: dict[str, list[tuple[TrialRecord, ScoreBreakdown]]] = {}
    for trial in sorted(trials, key=lambda t: t.trial):
        score = pick(trial)
        if score is not None:
            by_challenge.setdefault(trial.challenge_id, []).append((trial, score))
    for challenge_id, scored in by_challenge.items():
        yield _cell(label, challenge_id, scored)


def _cell(label: str, challenge_id: str,
          scored: Sequence[tuple[TrialRecord, ScoreBreakdown]]) -> Cell:
    totals = tuple(score.total for _, score in scored)
    rates = [r.acceptance_rate for r, _ in scored if r.acceptance_rate is not None]
    solved = tuple((r.trial, ok) for r, ok in ((r, _solved(r)) for r, _ in scored) if ok is not None)
    return Cell(
        agent=label, challenge_id=challenge_id, scores=totals, summary=stats.summarize(totals),
        components=tuple((name, fmean([getattr(s, name) for _, s in scored]))
                         for name in COMPONENTS),
        hidden_rate=fmean(rates) if rates else None, hidden_solved=solved,
    )


def _mean_or_none(values: Iterable[float | int | None]) -> float | None:
    known = [float(v) for v in values if v is not None]
    return fmean(known) if known else None


def _agent_summary(label: str, run: RunRecord, all_cells: Sequence[Cell], rubric: str,
                   options: CompareOptions) -> AgentSummary:
    cells = [c for c in all_cells if c.agent == label]
    scored = [t for t in run.trials if t.scored]
    adapters = [t.adapter for t in scored if t.adapter is not None]
    costs = [a.cost_usd for a in adapters if a.cost_usd is not None]
    hidden = [c.hidden_rate for c in cells if c.hidden_rate is not None]
    return AgentSummary(
        label=label, agent=run.agent, run_id=run.run_id, rubric=rubric, created_at=run.created_at,
        aggregate=fmean([c.summary.mean for c in cells]) if cells else None,
        challenges=len(cells), trials=sum(c.summary.n for c in cells),
        trials_per_challenge=min((c.summary.n for c in cells), default=0),
        interval=(stats.stratified_interval([c.scores for c in cells], options.confidence)
                  if cells else None),
        components=tuple((name, fmean([dict(c.components)[name] for c in cells]) if cells else 0.0)
                         for name in COMPONENTS),
        hidden_rate=fmean(hidden) if hidden else None,
        solved=sum(c.solved for c in cells), attempts=sum(c.attempts for c in cells),
        pass_at=_pass_at(cells),
        mean_time_s=_mean_or_none(a.time_taken_seconds for a in adapters),
        mean_cost_usd=fmean(costs) if costs else None,
        total_cost_usd=sum(costs) if costs else None,
        mean_input_tokens=_mean_or_none(a.input_tokens for a in adapters),
        mean_output_tokens=_mean_or_none(a.output_tokens for a in adapters),
        statuses=tuple(sorted(Counter(t.status.value for t in run.trials).items())),
        tiers=_tiers(cells),
    )


def _pass_at(cells: Sequence[Cell]) -> tuple[tuple[int, float], ...]:
    graded = [c for c in cells if c.attempts > 0]
    if not graded:
        return ()
    most = min(c.attempts for c in graded)
    return tuple((k, fmean([stats.pass_at_k(c.attempts, c.solved, k) for c in graded]))
                 for k in range(1, most + 1))


def _tiers(cells: Sequence[Cell]) -> tuple[TierScore, ...]:
    by_tier: dict[str, list[float]] = {}
    for cell in cells:
        by_tier.setdefault(tier_of(cell.challenge_id), []).append(cell.summary.mean)
    order = [t for t in TIERS if t in by_tier] + sorted(set(by_tier) - set(TIERS))
    return tuple(TierScore(tier=t, score=fmean(by_tier[t]), challenges=len(by_tier[t]))
                 for t in order)


def _trial_row(label: str, run_id: str, trial: TrialRecord, pick: _Pick) -> TrialRow:
    score, hidden = pick(trial), _hidden(trial)
    return TrialRow(
        agent=label, challenge_id=trial.challenge_id, trial=trial.trial, status=trial.status.value,
        score=None if score is None else score.total,
        hidden_passed=None if hidden is None else hidden[0],
        hidden_total=None if hidden is None else hidden[1],
        time_s=trial.adapter.time_taken_seconds if trial.adapter else None,
        cost_usd=trial.adapter.cost_usd if trial.adapter else None,
        run_id=run_id, logs_dir=trial.logs_dir, note=_note(trial),
    )


def _note(trial: TrialRecord) -> str:
    text = trial.error or (trial.adapter.final_message if trial.adapter else "") or ""
    return text if len(text) <= 200 else text[:199] + "\u2026"


def _input_notes(agents: Sequence[AgentSummary], runs: Sequence[RunRecord],
                 cells: Sequence[Cell], where: str) -> tuple[str, ...]:
    notes: list[str] = []
    for agent, run in zip(agents, runs, strict=True):
        left_out = Counter(t.status.value for t in run.trials if not t.scored)
        if left_out:
            shown = ", ".join(f"{n} {status}" for status, n in sorted(left_out.items()))
            notes.append(f"{agent.label}: {sum(left_out.values())} trial(s) left out of the "
                         f"scores ({shown})")
        if agent.aggregate is None:
            notes.append(f"{agent.label} has no scored trial, so it has no score")
        elif agent.interval is None:
            notes.append(f"{agent.label}: a challenge has a single scored trial, so its aggregate "
                         "has no confidence interval (run with --trials 2 or more)")
    notes.extend(_challenge_notes(agents, cells, where))
    if len(agents) == 1:
        notes.append("one results file: there is nothing to compare it with")
    return tuple(notes)


def _challenge_notes(agents: Sequence[AgentSummary], cells: Sequence[Cell],
                     where: str) -> list[str]:
    sets = {a.label: {c.challenge_id for c in cells if c.agent == a.label}
            for a in agents if a.aggregate is not None}
    if len(sets) < 2:
        return []
    common = set.intersection(*sets.values())
    if not common:
        raise ResultsFileError(
            where, "these results share no challenge, so they cannot be compared",
            "run every agent on the same challenges (the same --tier, --challenge or --all)")
    notes = [f"{label} also has {len(own - common)} challenge(s) the others lack: "
             f"{', '.join(sorted(own - common))}" for label, own in sets.items() if own - common]
    if notes:
        notes.append(f"the agents ran different challenges, so their aggregates are not like for "
                     f"like; each paired verdict uses only the challenges both agents have "
                     f"({len(common)} shared by all)")
    return notes


def _verdicts(agents: Sequence[AgentSummary], cells: Sequence[Cell],
              options: CompareOptions) -> tuple[Verdict, ...]:
    by_key = {(c.agent, c.challenge_id): c for c in cells}
    scored = [a.label for a in agents if a.aggregate is not None]
    pairs = [(a, b) for i, a in enumerate(scored) for b in scored[i + 1:]]
    raw = [_pair(a, b, by_key, options) for a, b in pairs]
    tests = [r for r in raw if r is not None]
    adjusted = stats.holm([t.p_value for t in tests])
    return tuple(_decide(t, p, len(tests), options) for t, p in zip(tests, adjusted, strict=True))


@dataclass(frozen=True, slots=True, kw_only=True)
class _PairTest:
    a: str
    b: str
    strata: tuple[tuple[Cell, Cell], ...]
    difference: float
    interval: Interval | None
    p_value: float


def _pair(a: str, b: str, by_key: Mapping[tuple[str, str], Cell],
          options: CompareOptions) -> _PairTest | None:
    shared = [(by_key[a, cid], by_key[b, cid]) for (agent, cid) in by_key
              if agent == a and (b, cid) in by_key]
    if not shared:
        return None
    strata = [(ca.scores, cb.scores) for ca, cb in shared]
    return _PairTest(
        a=a, b=b, strata=tuple(shared), difference=stats.stratified_difference(strata),
        interval=stats.difference_interval(strata, options.confidence),
        p_value=stats.permutation_test(strata, seed=options.seed),
    )


def _hidden_test(test: _PairTest, alpha: float) -> HiddenTest | None:
    counts: Counter[tuple[bool, bool]] = Counter()
    for ca, cb in test.strata:
        b_solved = dict(cb.hidden_solved)
        counts.update((ok, b_solved[n]) for n, ok in ca.hidden_solved if n in b_solved)
    if not counts:
        return None
    a_only, b_only = counts[True, False], counts[False, True]
    p = stats.mcnemar_exact(a_only, b_only)
    winner = None if p >= alpha or a_only == b_only else (test.a if a_only > b_only else test.b)
    return HiddenTest(a_only=a_only, b_only=b_only, both=counts[True, True],
                      neither=counts[False, False], p_value=p, winner=winner)


def _power(test: _PairTest, trials: int, options: CompareOptions) -> PowerEstimate | None:
    gap = options.power_gap
    if gap is None:
        return None
    if trials < 2:
        return PowerEstimate(gap=gap, trials_needed=None, power_now=None, trials_now=trials,
                             target_power=options.target_power, alpha=options.alpha)
    variances = [((ca.summary.sd or 0.0) ** 2, (cb.summary.sd or 0.0) ** 2)
                 for ca, cb in test.strata]
    return stats.trials_for_gap(variances, gap=gap, trials_now=trials, alpha=options.alpha,
                                power=options.target_power)


def _decide(test: _PairTest, p_adjusted: float, pairs: int, options: CompareOptions) -> Verdict:
    trials = min(min(ca.summary.n, cb.summary.n) for ca, cb in test.strata)
    holds = p_adjusted < options.alpha and test.difference != 0 and (
        test.interval is None or not test.interval.contains(0.0))
    winner = (test.a if test.difference > 0 else test.b) if holds else None
    verdict = Verdict(
        a=test.a, b=test.b, challenges=len(test.strata), trials=trials,
        difference=test.difference, interval=test.interval, p_value=test.p_value,
        p_adjusted=p_adjusted, winner=winner, hidden=_hidden_test(test, options.alpha),
        power=_power(test, trials, options), text="", hidden_text="", power_text=None,
    )
    return replace(verdict, text=_score_words(verdict, pairs), hidden_text=_hidden_words(verdict),
                   power_text=_power_words(verdict))


def format_p(p: float) -> str:
    """`p=0.004`, or `p<0.001` for smaller values."""
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


def format_interval(interval: Interval | None, sign: float = 1.0) -> str:
    """`95% CI 2.0 to 10.3` (bounds multiplied by `sign`), or why there is none."""
    if interval is None:
        return "no CI with a single trial per challenge"
    low, high = sorted((interval.low * sign, interval.high * sign))
    return f"{interval.confidence:.0%} CI {low:.1f} to {high:.1f}"


def _score_words(v: Verdict, pairs: int) -> str:
    p_text = format_p(v.p_adjusted) + (f" (Holm-adjusted over {pairs} pairs)" if pairs > 1 else "")
    where = f"{v.challenges} shared challenge{'s' * (v.challenges != 1)}"
    if v.winner is not None:
        loser, sign = (v.b, 1.0) if v.winner == v.a else (v.a, -1.0)
        text = (f"{v.winner} is ahead of {loser} by {abs(v.difference):.1f} points, "
                f"{format_interval(v.interval, sign)}, {p_text}, over {where}")
    else:
        trial_word = "trial" if v.trials == 1 else "trials"
        text = (f"no significant difference between {v.a} and {v.b} at {v.trials} {trial_word} "
                f"per challenge ({v.a} minus {v.b}: {v.difference:+.1f} points, "
                f"{format_interval(v.interval)}, {p_text}, over {where})")
    return text


def _hidden_words(v: Verdict) -> str:
    h = v.hidden
    if h is None:
        return "no paired trials with hidden tests"
    pairs = h.a_only + h.b_only + h.both + h.neither
    counts = (f"{v.a} passed all hidden tests in {h.a_only + h.both} of {pairs} paired trials, "
              f"{v.b} in {h.b_only + h.both}; McNemar exact {format_p(h.p_value)}")
    if h.winner is None:
        return f"{counts}: no significant difference"
    return f"{counts}: {h.winner} passes more often"


def _power_words(v: Verdict) -> str | None:
    p = v.power
    if p is None:
        return None
    goal = f"to detect a {p.gap:g}-point gap between {v.a} and {v.b} with {p.target_power:.0%} power"
    if p.trials_needed is None or p.power_now is None:
        return f"{goal}: unknown, the spread needs 2 or more trials per challenge to estimate"
    trials = "trial" if p.trials_needed == 1 else "trials"
    return (f"{goal} (alpha={p.alpha:g}): {p.trials_needed} {trials} per challenge "
            f"(now {p.trials_now}, power about {p.power_now:.0%})")
