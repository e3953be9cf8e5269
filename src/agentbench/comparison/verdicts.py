"""Paired verdicts: every pair of agents, challenge by challenge, each family Holm-corrected.

Two families: the 0-100 score, and the hidden-test solve rate (the share of a challenge's trials
that passed every hidden test). In the default view each pair's per-challenge differences get a t
interval over challenges and a sign-flip test; in the conditional view (`--condition-on-challenges`)
the trials of each challenge are the replicates (Welch interval, within-challenge permutation test).
A winner is named only when the test can reach significance at all with the shared challenges
after the correction, its Holm-adjusted p-value is below alpha, and the interval excludes zero.
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
    difference: float
    a_value: float
    b_value: float
    interval: Interval | None
    p_value: float
    smallest_p: float


def _raw(measure: str, samples: Strata, options: CompareOptions) -> _Raw:
    """Difference, interval and p-value of one measure, in the comparison's view."""
    frozen = tuple((tuple(a), tuple(b)) for a, b in samples)
    a_means = [fmean(a) for a, _ in samples]
    b_means = [fmean(b) for _, b in samples]
    diffs = [x - y for x, y in zip(a_means, b_means, strict=True)]
    if options.view == CONDITIONAL:
        interval = stats.difference_interval(samples, options.confidence)
        p = stats.permutation_test(samples, seed=options.seed)
        smallest = min(1.0, 2.0 / stats.permutation_arrangements(samples))
    else:
        interval = stats.mean_interval(diffs, options.confidence)
        p = stats.sign_flip_test(diffs, seed=options.seed)
        smallest = stats.sign_flip_min_p(len(diffs))
    return _Raw(measure=measure, samples=frozen, difference=fmean(diffs), a_value=fmean(a_means),
                b_value=fmean(b_means), interval=interval, p_value=p, smallest_p=smallest)


def _paired(raw: _Raw, a: str, b: str, p_adjusted: float, family: int,
            alpha: float) -> PairedTest:
    diffs = [fmean(x) - fmean(y) for x, y in raw.samples]
    decidable = raw.smallest_p * family < alpha
    holds = (decidable and p_adjusted < alpha and abs(raw.difference) > _TIE
             and (raw.interval is None or not raw.interval.contains(0.0)))
    return PairedTest(
        measure=raw.measure, challenges=len(raw.samples), a_value=raw.a_value,
        b_value=raw.b_value, difference=raw.difference, interval=raw.interval,
        p_value=raw.p_value, p_adjusted=p_adjusted, family=family,
        wins=sum(d > _TIE for d in diffs), losses=sum(d < -_TIE for d in diffs),
        ties=sum(abs(d) <= _TIE for d in diffs), decidable=decidable,
        smallest_p=raw.smallest_p,
        winner=(a if raw.difference > 0 else b) if holds else None,
    )


def _corrected(pairs: Sequence[tuple[str, str]], raws: Sequence[_Raw | None],
               alpha: float) -> list[PairedTest | None]:
    """Holm over the pairs that have this measure; None where a pair has none."""
    present = [(pair, raw) for pair, raw in zip(pairs, raws, strict=True) if raw is not None]
    adjusted = iter(stats.holm([raw.p_value for _, raw in present]))
    family = len(present)
    return [None if raw is None else _paired(raw, a, b, next(adjusted), family, alpha)
            for (a, b), raw in zip(pairs, raws, strict=True)]


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
    family = blocked[0].score.family
    level = options.alpha / family
    if options.view == CONDITIONAL:
        return (f"{len(blocked)} of {len(verdicts)} pair(s) cannot reach significance with their "
                f"trials: the smallest possible p-value must be below {level:.2g} "
                f"(alpha {options.alpha:g} over {family} pair(s)); run more trials",)
    needed = stats.min_challenges(options.alpha, family)
    return (f"{len(blocked)} of {len(verdicts)} pair(s) share too few challenges for any verdict: "
            f"with {family} pair(s) the sign-flip test needs at least {needed} shared challenges "
            f"(its smallest p-value, 2/2^C, must be below {options.alpha:g}/{family} = "
            f"{level:.2g}); their verdicts only describe the differences",)

