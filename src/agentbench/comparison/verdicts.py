"""Paired verdicts: every pair of agents, challenge by challenge, each family Holm-corrected.

Two families: the 0-100 score, and the hidden-test solve rate (the share of a challenge's trials
that passed every hidden test). In the default view each pair's per-challenge differences get a paired t test over challenges
(C - 1 degrees of freedom; it can name a winner with 10 challenges when the evidence is
overwhelming, which no exact test can after a correction for many pairs); in the conditional view
(`--condition-on-challenges`) the trials of each challenge are the replicates (Welch t test). When
nothing varied, the p-value is the exact sign-flip (or permutation) test's.

A winner is named only when the design can give a verdict at all (at least
`stats.MIN_INFORMATIVE` challenges on which the agents differ; in the conditional view, enough
trials for an exact test to reach alpha) and the Holm-adjusted p-value is below alpha. Each
interval is the same t test inverted at the level Holm's step-down used for that pair
(`stats.holm_levels`), so it excludes 0 exactly when a winner is named, and with no winner the
intervals are Bonferroni-simultaneous.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean, variance

from agentbench import stats
from agentbench.comparison.model import (
    CONDITIONAL,
    AgentSummary,
    Cell,
    CompareOptions,
    PairedTest,
    Verdict,
)
from agentbench.comparison.words import hidden_words, power_words, score_words
from agentbench.stats import Interval, PowerEstimate

_TIE = 1e-9

Strata = Sequence[tuple[Sequence[float], Sequence[float]]]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Raw:
    """One measure of one pair, before the correction."""

    measure: str
    samples: tuple[tuple[tuple[float, ...], tuple[float, ...]], ...]
    a_value: float
    b_value: float
    test: stats.TTest | None
    difference: float
    smallest_p: float
    blocked_by: str
    """What would block a verdict: `informative` or `trials` (see `PairedTest.blocked_by`)."""
    enough: bool
    """Whether this design can give a verdict at all (enough informative challenges, or in the
    conditional view enough trials for an exact test to reach alpha)."""

    @property
    def p_value(self) -> float:
        return 1.0 if self.test is None else self.test.p


def _raw(measure: str, samples: Strata, options: CompareOptions) -> _Raw:
    """Difference, t test and p-value of one measure, in the comparison's view."""
    frozen = tuple((tuple(a), tuple(b)) for a, b in samples)
    a_means = [fmean(a) for a, _ in samples]
    b_means = [fmean(b) for _, b in samples]
    diffs = [x - y for x, y in zip(a_means, b_means, strict=True)]
    test: stats.TTest | None
    if options.view == CONDITIONAL:
        test = stats.difference_test(samples, seed=options.seed)
        smallest = min(1.0, 2.0 / stats.permutation_arrangements(samples))
        enough = smallest < options.alpha
    else:
        informative = sum(abs(d) > _TIE for d in diffs)
        test = stats.paired_t_test(diffs, seed=options.seed) if len(diffs) > 1 else None
        smallest = stats.sign_flip_min_p(max(1, informative))
        enough = informative >= stats.MIN_INFORMATIVE
    return _Raw(measure=measure, samples=frozen, a_value=fmean(a_means), b_value=fmean(b_means),
                test=test, difference=fmean(diffs), smallest_p=smallest, enough=enough,
                blocked_by="trials" if options.view == CONDITIONAL else "informative")


def _paired(raw: _Raw, names: tuple[str, str], p_adjusted: float, family: int,
            level: float, alpha: float) -> PairedTest:
    """The corrected test; its interval is drawn at 1 - `level` (Holm-consistent), so it excludes 0
    exactly when a winner is named."""
    a, b = names
    diffs = [fmean(x) - fmean(y) for x, y in raw.samples]
    interval: Interval | None = None
    if raw.enough and raw.test is not None:
        interval = raw.test.interval(1.0 - level)
        if raw.test.se <= 0.0 and raw.test.p >= level:
            interval = None  # NOTE: nothing varied and the exact test cannot exclude 0: no CI
    holds = (raw.enough and p_adjusted < alpha and abs(raw.difference) > _TIE
             and interval is not None and not interval.contains(0.0))
    return PairedTest(
        measure=raw.measure, challenges=len(raw.samples), a_value=raw.a_value,
        b_value=raw.b_value, difference=raw.difference, interval=interval,
        p_value=raw.p_value, p_adjusted=p_adjusted, family=family,
        wins=sum(d > _TIE for d in diffs), losses=sum(d < -_TIE for d in diffs),
        ties=sum(abs(d) <= _TIE for d in diffs), decidable=raw.enough,
        smallest_p=raw.smallest_p, blocked_by="" if raw.enough else raw.blocked_by,
        winner=(a if raw.difference > 0 else b) if holds else None,
    )


def _corrected(pairs: Sequence[tuple[str, str]], raws: Sequence[_Raw | None],
               alpha: float) -> list[PairedTest | None]:
    """Holm over the pairs that have this measure; None where a pair has none. A pair that cannot
    give a verdict enters the family with p = 1 (it still counts as a comparison made)."""
    present = [(pair, raw) for pair, raw in zip(pairs, raws, strict=True) if raw is not None]
    ps = [raw.p_value if raw.enough else 1.0 for _, raw in present]
    adjusted = iter(stats.holm(ps))
    levels = iter(stats.holm_levels(ps, alpha))
    family = len(present)
    return [None if raw is None else _paired(raw, pair, next(adjusted), family, next(levels), alpha)
            for pair, raw in zip(pairs, raws, strict=True)]


def _shared(a: str, b: str, cells: Sequence[Cell]) -> list[tuple[Cell, Cell]]:
    """(A's cell, B's cell) for each challenge both have, in A's order."""
    theirs = {c.challenge_id: c for c in cells if c.agent == b}
    return [(c, theirs[c.challenge_id]) for c in cells
            if c.agent == a and c.challenge_id in theirs]


def build_verdicts(agents: Sequence[AgentSummary], cells: Sequence[Cell],
                   options: CompareOptions) -> tuple[Verdict, ...]:
    """One verdict per pair of scored agents that share a challenge."""
    scored = [a.label for a in agents if a.aggregate is not None]
    candidates = [(a, b) for i, a in enumerate(scored) for b in scored[i + 1:]]
    strata = {pair: _shared(*pair, cells) for pair in candidates}
    pairs = [pair for pair in candidates if strata[pair]]
    scores = _corrected(pairs, [_raw("score", [(x.scores, y.scores) for x, y in strata[p]],
                                     options) for p in pairs], options.alpha)
    hidden = _corrected(pairs, [_hidden_raw(strata[p], options) for p in pairs], options.alpha)
    verdicts = []
    for (a, b), score, hid in zip(pairs, scores, hidden, strict=True):
        if score is None:  # NOTE: every pair has a score test; this only narrows the type
            continue
        counts = [cell.summary.n for pair in strata[a, b] for cell in pair]
        typical = max(Counter(counts).items(), key=lambda item: (item[1], item[0]))[0]
        power = _power(strata[a, b], typical, len(pairs), options)
        trials = (str(min(counts)) if min(counts) == max(counts)
                  else f"{min(counts)}-{max(counts)}")
        verdicts.append(Verdict(
            a=a, b=b, trials=min(counts), score=score, hidden=hid, power=power,
            text=score_words(a, b, score, trials, _population(options, score.challenges)),
            hidden_text=hidden_words(a, b, hid, _population(options, hid.challenges if hid else 0)),
            power_text=None if power is None else power_words(a, b, power, options.view)))
    return tuple(verdicts)


def _population(options: CompareOptions, challenges: int) -> str:
    if options.view == CONDITIONAL:
        return f"on these {challenges} shared challenge{'s' * (challenges != 1)} only"
    return "over challenges like these"


def _hidden_raw(strata: Sequence[tuple[Cell, Cell]], options: CompareOptions) -> _Raw | None:
    graded = [(x.outcomes, y.outcomes) for x, y in strata if x.outcomes and y.outcomes]
    return _raw("hidden", graded, options) if graded else None


def _power(strata: Sequence[tuple[Cell, Cell]], trials: int, family: int,
           options: CompareOptions) -> PowerEstimate | None:
    if options.power_gap is None:
        return None
    goal = stats.PowerGoal(gap=options.power_gap, alpha=options.alpha, family=family,
                           power=options.target_power)
    samples = [(x.scores, y.scores) for x, y in strata]
    if options.view != CONDITIONAL:
        return stats.power_over_challenges(stats.difference_components(samples), goal,
                                           challenges=len(samples), trials=trials)
    pooled_a = stats.pooled_variance([a for a, _ in samples])
    pooled_b = stats.pooled_variance([b for _, b in samples])
    if pooled_a is None or pooled_b is None:
        return stats.power_over_challenges(
            stats.VarianceComponents(total=None, within=None, noise=None), goal,
            challenges=len(samples), trials=trials)
    variances = [(_cell_variance(a, pooled_a[0]), _cell_variance(b, pooled_b[0]))
                 for a, b in samples]
    return stats.trials_for_gap(variances, gap=goal.gap, trials_now=trials, alpha=goal.alpha,
                                family=family, power=goal.power)


def _cell_variance(scores: Sequence[float], pooled: float) -> float:
    return pooled if len(scores) < 2 else variance(scores)


def family_notes(verdicts: Sequence[Verdict], options: CompareOptions) -> tuple[str, ...]:
    """A note when some pair cannot reach significance at all, saying what it would take."""
    blocked = [v for v in verdicts if not v.score.decidable]
    if not blocked:
        return ()
    if options.view == CONDITIONAL:
        return (f"{len(blocked)} of {len(verdicts)} pair(s) cannot reach significance with their "
                f"trials: even an exact test's smallest possible p-value is not below alpha "
                f"{options.alpha:g}; run more trials",)
    return (f"{len(blocked)} of {len(verdicts)} pair(s) have too few informative challenges for "
            f"any verdict: a verdict needs at least {stats.MIN_INFORMATIVE} shared challenges on "
            f"which the two agents' scores differ (ties carry no evidence either way); their "
            f"verdicts only describe the differences",)
