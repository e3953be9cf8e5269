"""Statistics for comparing agents: pure functions on plain numbers, standard library only.

Each (agent, challenge) cell holds the scores of its repeated trials. Two questions can be asked of
them, and each has its own methods (docs/reporting.md states every one in a sentence):

**Over challenges like these** (the default). The challenges are a sample from a wider pool of
similar tasks, so the challenge is the unit of inference and the trials are nested in it: each
cell's trials are averaged first (repeated trials shrink the within-challenge noise of that mean),
then the challenge-level means are treated as the sample.

- `mean_interval`: Student t interval over the per-challenge means (C - 1 degrees of freedom); its
  standard error is the one clustered by challenge (Miller, "Adding Error Bars to Evals", 2024).
- `paired_t_test`: the verdicts' test, a t test over challenges on the per-challenge differences
  (C - 1 degrees of freedom), which can name a winner with few challenges when the evidence is
  overwhelming; `holm_levels` gives each pair the level its interval is drawn at so it agrees with
  Holm's decision; `MIN_INFORMATIVE`: the fewest differing challenges for any verdict.
- `sign_flip_test`: paired permutation test over challenges on the per-challenge differences; exact
  up to `EXACT_SIGN_FLIPS` challenges, seeded Monte Carlo beyond (the p-value when nothing varied).
- `difference_components` and `power_over_challenges`: the variance split into its
  challenge-to-challenge and trial-to-trial parts, and the power for more trials or more challenges.

**On these challenges only** (`--condition-on-challenges`). The challenge set is fixed and only
the trials vary:

- `stratified_interval` / `difference_interval`: Welch-Satterthwaite t intervals from the
  within-challenge variances (a single-trial cell borrows its agent's pooled variance);
- `difference_test`: the Welch t test of a difference (the verdicts' test in this view);
- `permutation_test`: trial labels reshuffled within each challenge, exact or seeded Monte Carlo;
- `trials_for_gap`: trials needed for a gap under that model.

Shared: `holm`, `pass_at_k`, and the t distribution (in `agentbench.tdist`, from the regularised
incomplete beta function, so no third-party library is needed; the tests check every function
against SciPy).
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist, fmean, stdev, variance

# NOTE: re-exported (`x as x`), so `stats.t_cdf` and friends keep working
from agentbench.tdist import incomplete_beta as incomplete_beta
from agentbench.tdist import t_cdf as t_cdf
from agentbench.tdist import t_quantile as t_quantile

DEFAULT_CONFIDENCE = 0.95
"""Confidence level of every interval unless a caller asks otherwise."""

DEFAULT_RESAMPLES = 10_000
"""Monte Carlo resamples when exact enumeration is too expensive."""

EXACT_LIMIT = 50_000
"""Largest number of arrangements the within-challenge permutation test enumerates exactly."""

EXACT_SIGN_FLIPS = 26
"""Most non-zero differences whose 2^n sign patterns the sign-flip test enumerates exactly."""

DEFAULT_SEED = 20_240_607
"""Fixed seed of every Monte Carlo test, so a report is reproducible."""

_EPS = 1e-12
_BLOCK = 8  # NOTE: Monte Carlo sign flips draw one of 2^8 precomputed partial sums per block
_MAX_TABLE = 4_000  # a stratum with more relabellings than this is sampled, not tabulated
_MAX_SPLIT = 30  # up to this many pooled trials, samples come from two tabulated halves


@dataclass(frozen=True, slots=True, kw_only=True)
class Summary:
    """Mean and spread of one sample (e.g. one agent's trials on one challenge)."""

    n: int
    """Number of values."""
    mean: float
    """Arithmetic mean."""
    sd: float | None
    """Sample standard deviation (n - 1 denominator); None for fewer than two values."""
    minimum: float
    """Smallest value."""
    maximum: float
    """Largest value."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Interval:
    """A confidence interval."""

    low: float
    """Lower bound."""
    high: float
    """Upper bound."""
    confidence: float
    """Confidence level, e.g. 0.95."""
    df: float
    """Degrees of freedom of the t distribution used (inf when the spread is zero)."""

    def contains(self, value: float) -> bool:
        """Whether `value` lies inside the interval (bounds included)."""
        return self.low <= value <= self.high

    @property
    def zero_width(self) -> bool:
        """Whether nothing varied, so the interval is a single point."""
        return self.high - self.low <= _EPS * max(1.0, abs(self.low), abs(self.high))


@dataclass(frozen=True, slots=True, kw_only=True)
class VarianceComponents:
    """The variance of per-challenge values split into its two sources."""

    total: float | None
    """Variance over challenges of the per-challenge values as observed (None: one challenge)."""
    within: float | None
    """Per-trial variance inside a challenge, pooled (for a difference: both agents' summed);
    None when no cell has two trials."""
    noise: float | None
    """Part of `total` that the current trials' noise explains: mean over challenges of
    within-variance / trials (None when `within` is)."""

    @property
    def between(self) -> float | None:
        """Variance of the true per-challenge values over challenges: total - noise, at least 0."""
        if self.total is None or self.noise is None:
            return None
        return max(0.0, self.total - self.noise)


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerEstimate:
    """What it takes to detect a given gap, after the correction for several pairs."""

    gap: float
    """The difference in points to detect."""
    target_power: float
    """Power the estimate aims for, e.g. 0.8."""
    alpha: float
    """Significance level of the family of verdicts."""
    pairs: int
    """Verdicts in the family: each pair is tested at alpha / pairs (Holm's first step)."""
    challenges_now: int
    """Shared challenges now."""
    trials_now: int
    """Trials per (agent, challenge) now (the smallest cell)."""
    power_now: float | None
    """Estimated power with the current challenges and trials (None: spread unknown)."""
    trials_needed: int | None
    """Trials per cell that reach the target with the current challenges (None: unknown, or
    unreachable by trials alone; see `trials_ceiling`)."""
    trials_ceiling: float | None
    """Power with unlimited trials on the current challenges (None: unknown)."""
    challenges_needed: int | None
    """Challenges that reach the target at the current trials (None: unknown or not applicable)."""
    between_sd: float | None
    """Challenge-to-challenge standard deviation of the true gap (None: unknown)."""
    within_sd: float | None
    """Trial-to-trial standard deviation of a difference of single trials (None: unknown)."""
    better: str
    """`challenges`, `trials` (whichever reaches the target with fewer trials per agent),
    `reached` (the target is met now) or `unknown`."""
    unknown_because: str = ""
    """Why the power is unknown, in words (empty when it is known)."""


def summarize(values: Sequence[float]) -> Summary:
    """Mean, sample standard deviation, minimum and maximum of a non-empty sample."""
    if not values:
        raise ValueError("cannot summarise an empty sample")
    return Summary(
        n=len(values),
        mean=fmean(values),
        sd=stdev(values) if len(values) > 1 else None,
        minimum=min(values),
        maximum=max(values),
    )


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), linear between order statistics (NumPy's default)."""
    if not values:
        raise ValueError("cannot take a percentile of an empty sample")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


# --- over challenges like these -------------------------------------------------------------------

def within(interval: Interval | None, low: float = 0.0, high: float = 100.0) -> Interval | None:
    """`interval` cut to the range its quantity can take (a score's 0-100): a t interval is symmetric
    and can pass the scale's ends, which no mean of scores can."""
    if interval is None:
        return None
    return replace(interval, low=min(max(interval.low, low), high), high=max(min(interval.high, high), low))


def mean_interval(values: Sequence[float],
                  confidence: float = DEFAULT_CONFIDENCE) -> Interval | None:
    """Student t interval for the mean of `values` (one per challenge): mean +- t * sd / sqrt(C).

    With per-challenge means this is the aggregate's interval over challenges; with per-challenge
    differences, the paired interval. None with fewer than two values (no spread to estimate).
    """
    if len(values) < 2:
        return None
    centre, df = fmean(values), len(values) - 1
    half = t_quantile(0.5 + confidence / 2.0, df) * stdev(values) / math.sqrt(len(values))
    if half <= _EPS * max(1.0, abs(centre)):
        half = 0.0
    return Interval(low=centre - half, high=centre + half, confidence=confidence, df=df)


MIN_INFORMATIVE = 6
"""Fewest challenges on which two agents differ for any verdict over challenges: with fewer, not
even a test that assumes no distribution (the sign-flip test) could reach p < 0.05 (2/2^5 =
0.0625), so tied challenges cannot be outweighed by a t statistic's assumptions."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TTest:
    """A t test of one estimate: its standard error and degrees of freedom, and the p-value."""

    estimate: float
    """The estimated difference."""
    se: float
    """Its standard error (0: nothing varied)."""
    df: float
    """Degrees of freedom of the t distribution."""
    p: float
    """Two-sided p-value of estimate = 0 (from the t distribution; when `se` is 0, from an exact
    test the caller supplies, since a t statistic is infinite then)."""

    def interval(self, confidence: float) -> Interval:
        """The t interval at `confidence`: the values the same test would not reject at level
        1 - confidence (so it excludes 0 exactly when p < 1 - confidence, up to rounding)."""
        half = 0.0 if self.se <= 0.0 else t_quantile(0.5 + confidence / 2.0, self.df) * self.se
        return Interval(low=self.estimate - half, high=self.estimate + half,
                        confidence=confidence, df=self.df if self.se > 0.0 else math.inf)


def t_p_value(estimate: float, se: float, df: float) -> float:
    """Two-sided p-value of a t statistic estimate / se on df degrees of freedom (se > 0)."""
    return min(1.0, 2.0 * t_cdf(-abs(estimate) / se, df))


def paired_t_test(differences: Sequence[float], *, seed: int = DEFAULT_SEED) -> TTest:
    """One-sample t test over challenges of the per-challenge differences (C - 1 degrees of freedom).

    When every difference is the same the spread is 0 and a t statistic would be infinite; the
    p-value is then the exact sign-flip test's (2 / 2^n for n equal non-zero differences, 1 for
    none), which assumes nothing about a spread that was never seen.
    """
    if len(differences) < 2:
        raise ValueError("need at least two differences")
    centre = fmean(differences)
    se = stdev(differences) / math.sqrt(len(differences))
    if se <= _EPS * max(1.0, abs(centre)):
        return TTest(estimate=centre, se=0.0, df=len(differences) - 1,
                     p=sign_flip_test(differences, seed=seed))
    return TTest(estimate=centre, se=se, df=len(differences) - 1,
                 p=t_p_value(centre, se, len(differences) - 1))


def holm_levels(p_values: Sequence[float], alpha: float) -> tuple[float, ...]:
    """Per hypothesis, the level whose interval agrees with Holm's step-down decision at `alpha`.

    A hypothesis rejected at step k (k = 1 for the smallest p) gets alpha / (m - k + 1), the level
    its p-value passed; every other gets alpha / m (Bonferroni), which its p-value cannot pass
    (any p below alpha / m is rejected at or before its step). So an interval at 1 - level
    excludes 0 exactly when the hypothesis is rejected, and with no rejection the intervals are
    Bonferroni-simultaneous.
    """
    m = len(p_values)
    levels = [alpha / max(1, m)] * m
    for step, i in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        if p_values[i] >= alpha / (m - step):
            break
        levels[i] = alpha / (m - step)
    return tuple(levels)


def sign_flip_min_p(n: int) -> float:
    """Smallest two-sided p-value the sign-flip test can give with n challenges: 2 / 2^n."""
    if n < 1:
        raise ValueError(f"need at least one challenge, got {n}")
    return min(1.0, 2.0 ** (1 - n))


def min_challenges(alpha: float, family: int = 1) -> int:
    """Fewest challenges for which the sign-flip test can pass Holm's first step (p < alpha/family)."""
    n = 1
    while sign_flip_min_p(n) * family >= alpha:
        n += 1
    return n


def _signed_sums(values: Sequence[float]) -> list[float]:
    """All 2^n sums of +-v; bit j of an index set means value j was subtracted."""
    sums = [0.0]
    for v in values:
        sums = [s + v for s in sums] + [s - v for s in sums]
    return sums


def sign_flip_test(
    differences: Sequence[float],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    exact_max: int = EXACT_SIGN_FLIPS,
) -> float:
    """Two-sided p-value of the paired sign-flip (permutation) test of mean(differences) = 0.

    Under the null hypothesis each challenge's difference is as likely to have either sign, so the
    p-value is the share of the 2^n sign patterns whose |sum| is at least the observed |sum|.
    Challenges with a zero difference change no sum and are left out. Exact (meet in the middle:
    2 x 2^(n/2) sums and a binary search) up to `exact_max` non-zero differences, otherwise
    (1 + hits) / (1 + resamples) from a seeded Monte Carlo sample.
    """
    if not differences:
        raise ValueError("need at least one difference")
    values = [d for d in differences if d != 0.0]
    observed = abs(math.fsum(values))
    threshold = observed - 1e-9 * max(1.0, math.fsum(abs(v) for v in values))
    if threshold <= 0.0:
        return 1.0
    if len(values) <= exact_max:
        half = len(values) // 2
        left, right = _signed_sums(values[:half]), sorted(_signed_sums(values[half:]))
        hits = sum(len(right) - bisect.bisect_left(right, threshold - a)
                   + bisect.bisect_right(right, -threshold - a) for a in left)
        return hits / 2.0 ** len(values)
    rng = random.Random(seed)
    tables = [_signed_sums(values[i:i + _BLOCK]) for i in range(0, len(values), _BLOCK)]
    totals = map(math.fsum, zip(*(rng.choices(t, k=resamples) for t in tables), strict=True))
    hits = sum(1 for s in totals if abs(s) >= threshold)
    return (1 + hits) / (1 + resamples)


def pooled_variance(cells: Sequence[Sequence[float]]) -> tuple[float, int] | None:
    """Within-cell variance pooled over cells with two or more values, and its degrees of freedom."""
    df = sum(len(c) - 1 for c in cells if len(c) > 1)
    if df == 0:
        return None
    return math.fsum((len(c) - 1) * variance(c) for c in cells if len(c) > 1) / df, df


def difference_components(pairs: Sequence[tuple[Sequence[float], Sequence[float]]]
                          ) -> VarianceComponents:
    """Variance components of per-challenge differences mean(a) - mean(b), one pair per challenge.

    `within` is the sum of both agents' pooled within-cell variances (the variance of a difference
    of two single trials); `noise` the mean over challenges of var_a / n_a + var_b / n_b.
    """
    diffs = [fmean(a) - fmean(b) for a, b in pairs]
    total = variance(diffs) if len(diffs) > 1 else None
    pooled_a = pooled_variance([a for a, _ in pairs])
    pooled_b = pooled_variance([b for _, b in pairs])
    if pooled_a is None or pooled_b is None:
        return VarianceComponents(total=total, within=None, noise=None)
    va, vb = pooled_a[0], pooled_b[0]
    noise = fmean([va / len(a) + vb / len(b) for a, b in pairs])
    return VarianceComponents(total=total, within=va + vb, noise=noise)


def _power_t(gap: float, variance_of_mean: float, df: float, alpha_each: float) -> float:
    """Power of a two-sided t test at level alpha_each when the true gap is `gap` (normal shift)."""
    if variance_of_mean <= 0.0:
        return 1.0
    q = t_quantile(1.0 - alpha_each / 2.0, df)
    shift = gap / math.sqrt(variance_of_mean)
    unit = NormalDist()
    return unit.cdf(shift - q) + unit.cdf(-shift - q)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Design:
    gap: float
    alpha: float
    family: int
    between: float | None
    within: float | None
    total: float

    def power(self, challenges: int, trials: int | None) -> float:
        """Power with `challenges` challenges and `trials` per cell (None: today's trials)."""
        if challenges < MIN_INFORMATIVE:
            return 0.0
        if trials is None or self.between is None or self.within is None:
            per_challenge = self.total
        else:
            per_challenge = self.between + self.within / trials
        return _power_t(self.gap, per_challenge / challenges, challenges - 1,
                        self.alpha / self.family)


def _smallest(lo: int, hi: int, reaches: Callable[[int], bool]) -> int | None:
    """Smallest n in [lo, hi] with reaches(n) true (reaches is monotone), None if none."""
    if not reaches(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if reaches(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerGoal:
    """What a power estimate aims for."""

    gap: float
    """The true difference in points to detect."""
    alpha: float = 0.05
    """Significance level of the family of verdicts."""
    family: int = 1
    """Verdicts in the family (each pair is tested at alpha / family, Holm's first step)."""
    power: float = 0.8
    """The probability of detecting the gap to aim for."""


def power_over_challenges(components: VarianceComponents, goal: PowerGoal, *, challenges: int,
                          trials: int) -> PowerEstimate:
    """Power of the over-challenges verdict, and the trials or challenges that reach the goal.

    The mean difference over C challenges with n trials per cell has variance
    (between + within / n) / C; each pair is tested at alpha / family (Holm's first step) with a
    t quantile on C - 1 degrees of freedom, and a design with fewer than `MIN_INFORMATIVE`
    challenges has none (no verdict is given there). A zero observed spread gives an unknown power,
    never certainty. More trials shrink only the within part; more challenges shrink
    both, so with a large `between` more trials alone may never reach the target.
    """
    if goal.gap <= 0:
        raise ValueError(f"gap must be positive, got {goal.gap}")
    unknown = PowerEstimate(
        gap=goal.gap, target_power=goal.power, alpha=goal.alpha, pairs=goal.family,
        challenges_now=challenges, trials_now=trials, power_now=None, trials_needed=None,
        trials_ceiling=None, challenges_needed=None, between_sd=None, within_sd=None,
        better="unknown")
    if components.total is None or challenges < 2:
        return unknown
    if components.total <= 0.0:
        # NOTE: differences that never varied say nothing about how much they can vary; a power
        # computed from a zero spread would claim certainty.
        return replace(unknown, unknown_because=(
            "the differences did not vary from challenge to challenge, so their spread (and the "
            "power) cannot be estimated from them"))
    design = _Design(gap=goal.gap, alpha=goal.alpha, family=goal.family, total=components.total,
                     between=components.between, within=components.within)
    now = design.power(challenges, None)
    more_challenges = _smallest(max(2, challenges), 1_000_000,
                                lambda c: design.power(c, None) >= goal.power)
    ceiling = more_trials = None
    if design.between is not None:
        ceiling = design.power(challenges, 10**12)
        more_trials = _smallest(1, 100_000, lambda n: design.power(challenges, n) >= goal.power)
    return PowerEstimate(
        gap=goal.gap, target_power=goal.power, alpha=goal.alpha, pairs=goal.family,
        challenges_now=challenges, trials_now=trials, power_now=now, trials_needed=more_trials,
        trials_ceiling=ceiling, challenges_needed=more_challenges,
        between_sd=None if design.between is None else math.sqrt(design.between),
        within_sd=None if design.within is None else math.sqrt(design.within),
        better=_better(now >= goal.power, challenges, trials, more_trials, more_challenges),
    )


def _better(reached: bool, challenges: int, trials: int, more_trials: int | None,
            more_challenges: int | None) -> str:
    """Which route reaches the target with fewer trials per agent."""
    if reached:
        return "reached"
    if more_challenges is None:
        return "trials" if more_trials is not None else "unknown"
    if more_trials is None:
        return "challenges"
    return "trials" if challenges * more_trials <= more_challenges * trials else "challenges"


def additive_means(cells: Sequence[tuple[str, str, float]], *, sweeps: int = 500) -> dict[str, float]:
    """Each agent's like-for-like mean from (agent, challenge, mean score) cells, some missing.

    Fits score = agent effect + challenge effect by least squares (alternating means, which
    converge for a connected design) and returns, per agent, its effect plus the mean challenge
    effect: its predicted mean over every challenge present. When every agent has every
    challenge this is exactly its plain mean; when one lacks hard challenges it is not flattered,
    and with two agents the difference is exactly the mean difference on their shared challenges.
    """
    agents = list(dict.fromkeys(a for a, _, _ in cells))
    challenges = list(dict.fromkeys(c for _, c, _ in cells))
    by_agent = {a: [(c, y) for x, c, y in cells if x == a] for a in agents}
    by_challenge = {c: [(a, y) for a, x, y in cells if x == c] for c in challenges}
    effect = dict.fromkeys(challenges, 0.0)
    skill = dict.fromkeys(agents, 0.0)
    for _ in range(sweeps):
        skill = {a: fmean([y - effect[c] for c, y in by_agent[a]]) for a in agents}
        moved = {c: fmean([y - skill[a] for a, y in by_challenge[c]]) for c in challenges}
        change = max(abs(moved[c] - effect[c]) for c in challenges)
        effect = moved
        if change < 1e-10:
            break
    skill = {a: fmean([y - effect[c] for c, y in by_agent[a]]) for a in agents}
    centre = fmean(effect.values())
    return {a: skill[a] + centre for a in agents}


# --- on these challenges only ---------------------------------------------------------------------

def _welch_se(parts: Sequence[tuple[float, Sequence[float], int]]) -> tuple[float, float] | None:
    """(standard error, Welch-Satterthwaite df) of sum(weight * mean(sample)); se 0 when nothing
    varied (df inf then).

    `parts` holds (weight, sample, pool): a sample of one value takes the pooled variance of the
    other samples of its pool (its agent), entering the degrees of freedom once per pool.
    """
    terms: list[tuple[float, float]] = []
    for pool in sorted({p for _, _, p in parts}):
        members = [(w, s) for w, s, p in parts if p == pool]
        terms += [(w * w * variance(s) / len(s), len(s) - 1) for w, s in members if len(s) > 1]
        singles = [w for w, s in members if len(s) == 1]
        if singles:
            pooled = pooled_variance([s for _, s in members])
            if pooled is None:
                return None
            terms.append((math.fsum(w * w for w in singles) * pooled[0], pooled[1]))
    total = math.fsum(v for v, _ in terms)
    if total <= 0.0:
        return 0.0, math.inf
    return math.sqrt(total), total**2 / math.fsum(v * v / nu for v, nu in terms)


def _welch(estimate: float, parts: Sequence[tuple[float, Sequence[float], int]],
           confidence: float) -> Interval | None:
    """t interval for sum(weight * mean(sample)), Welch-Satterthwaite degrees of freedom."""
    found = _welch_se(parts)
    if found is None:
        return None
    se, df = found
    if se * se <= _EPS * max(1.0, estimate * estimate):
        return Interval(low=estimate, high=estimate, confidence=confidence, df=math.inf)
    half = t_quantile(0.5 + confidence / 2.0, df) * se
    return Interval(low=estimate - half, high=estimate + half, confidence=confidence, df=df)


def difference_test(strata: Sequence[tuple[Sequence[float], Sequence[float]]], *,
                    seed: int = DEFAULT_SEED) -> TTest | None:
    """Welch t test of mean over strata of (mean(a) - mean(b)), on these strata only.

    None when an agent has no stratum with two values; when nothing varied at all the p-value is
    the exact within-stratum permutation test's.
    """
    if not strata:
        raise ValueError("need at least one stratum")
    weight = 1.0 / len(strata)
    estimate = stratified_difference(strata)
    found = _welch_se([(weight, a, 0) for a, _ in strata] + [(weight, b, 1) for _, b in strata])
    if found is None:
        return None
    se, df = found
    if se * se <= _EPS * max(1.0, estimate * estimate):
        return TTest(estimate=estimate, se=0.0, df=math.inf,
                     p=permutation_test(strata, seed=seed))
    return TTest(estimate=estimate, se=se, df=df, p=t_p_value(estimate, se, df))


def stratified_interval(groups: Sequence[Sequence[float]],
                        confidence: float = DEFAULT_CONFIDENCE) -> Interval | None:
    """Interval for the mean of group means, conditional on the groups (the challenges).

    Each group is one challenge's trial scores. The standard error is sqrt(sum(s_c^2 / n_c)) / C,
    with Welch-Satterthwaite degrees of freedom; a one-trial group uses the pooled variance of the
    others. None when no group has two values.
    """
    if not groups:
        raise ValueError("need at least one group")
    weight = 1.0 / len(groups)
    estimate = fmean([fmean(g) for g in groups])
    return _welch(estimate, [(weight, g, 0) for g in groups], confidence)


def difference_interval(strata: Sequence[tuple[Sequence[float], Sequence[float]]],
                        confidence: float = DEFAULT_CONFIDENCE) -> Interval | None:
    """Conditional interval for mean over strata of (mean(a) - mean(b)).

    With one stratum this is Welch's two-sample interval. None when an agent has no stratum with
    two values.
    """
    if not strata:
        raise ValueError("need at least one stratum")
    weight = 1.0 / len(strata)
    parts = [(weight, a, 0) for a, _ in strata] + [(weight, b, 1) for _, b in strata]
    return _welch(stratified_difference(strata), parts, confidence)


def stratified_difference(strata: Sequence[tuple[Sequence[float], Sequence[float]]]) -> float:
    """Mean over strata of mean(a) - mean(b)."""
    return fmean([fmean(a) - fmean(b) for a, b in strata])


def _stratum_table(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """mean(a') - mean(b') for every way to relabel a stratum's pooled values (equally likely)."""
    pooled, total = [*a, *b], math.fsum([*a, *b])
    out = []
    for picked in itertools.combinations(pooled, len(a)):
        sum_a = math.fsum(picked)
        out.append(sum_a / len(a) - (total - sum_a) / len(b))
    return out


def permutation_arrangements(strata: Sequence[tuple[Sequence[float], Sequence[float]]]) -> int:
    """Number of relabellings the stratified permutation test would enumerate exactly."""
    return math.prod(math.comb(len(a) + len(b), len(a)) for a, b in strata)


def _sums_by_size(values: Sequence[float]) -> list[list[float]]:
    """sums[j]: the sum of every j-element subset of `values` (2^n subsets in all)."""
    sums: list[list[float]] = [[0.0]]
    for v in values:
        grown: list[list[float]] = [[] for _ in range(len(sums) + 1)]
        for j, bucket in enumerate(sums):
            grown[j].extend(bucket)
            grown[j + 1].extend(s + v for s in bucket)
        sums = grown
    return sums


def _split_sampler(pooled: Sequence[float], k: int, rng: random.Random,
                   resamples: int) -> list[float]:
    """Sums of `resamples` uniformly random k-subsets of `pooled`, drawn without enumerating them.

    The values are split in two halves; a random k-subset takes j from the first half with
    probability C(h, j) C(n - h, k - j) / C(n, k), then a uniform j-subset of it and a uniform
    (k - j)-subset of the other half, whose sums are tabulated by size.
    """
    half = len(pooled) // 2
    left, right = _sums_by_size(pooled[:half]), _sums_by_size(pooled[half:])
    sizes = [j for j in range(k + 1) if j < len(left) and k - j < len(right)]
    weights = [math.comb(half, j) * math.comb(len(pooled) - half, k - j) for j in sizes]
    random_ = rng.random
    return [left[j][int(random_() * len(left[j]))] + right[k - j][int(random_() * len(right[k - j]))]
            for j in rng.choices(sizes, weights=weights, k=resamples)]


def _sampled_stratum(a: Sequence[float], b: Sequence[float], rng: random.Random,
                     resamples: int) -> list[float]:
    """One relabelled difference per resample for a stratum too large to enumerate with the rest."""
    if math.comb(len(a) + len(b), len(a)) <= _MAX_TABLE:
        return rng.choices(_stratum_table(a, b), k=resamples)
    pooled, total = [*a, *b], math.fsum([*a, *b])
    if len(pooled) <= _MAX_SPLIT:
        sums = _split_sampler(pooled, len(a), rng, resamples)
    else:
        sums = [math.fsum(rng.sample(pooled, len(a))) for _ in range(resamples)]
    return [s / len(a) - (total - s) / len(b) for s in sums]


def permutation_test(
    strata: Sequence[tuple[Sequence[float], Sequence[float]]],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    exact_limit: int = EXACT_LIMIT,
) -> float:
    """Two-sided p-value of a permutation test of mean(a) - mean(b), stratified.

    Under the null hypothesis the two agents' trial scores are exchangeable within each challenge, so
    labels are shuffled within strata only. The p-value is the share of arrangements whose statistic
    is at least as extreme as the observed one: exact when there are at most `exact_limit`
    arrangements, otherwise (1 + hits) / (1 + resamples) from a seeded Monte Carlo sample (each
    stratum's relabellings tabulated once and drawn from, so a resample costs one lookup per
    stratum).
    """
    if not strata or any(not a or not b for a, b in strata):
        raise ValueError("every stratum needs at least one value on each side")
    observed = abs(math.fsum(fmean(a) - fmean(b) for a, b in strata))
    threshold = observed - 1e-9 * max(1.0, observed)
    if permutation_arrangements(strata) <= exact_limit:
        sums = [0.0]
        for a, b in strata:
            table = _stratum_table(a, b)
            sums = [s + v for s in sums for v in table]
        return sum(1 for s in sums if abs(s) >= threshold) / len(sums)
    rng = random.Random(seed)
    columns = [_sampled_stratum(a, b, rng, resamples) for a, b in strata]
    hits = sum(1 for s in map(math.fsum, zip(*columns, strict=True)) if abs(s) >= threshold)
    return (1 + hits) / (1 + resamples)


def _min_trials_for_permutation(challenges: int, alpha: float) -> int:
    """Fewest trials per cell for which the exact permutation test can reach p < alpha at all."""
    n = 1
    while 2.0 / math.comb(2 * n, n) ** challenges >= alpha:
        n += 1
    return n


def trials_for_gap(
    variances: Sequence[tuple[float, float]],
    *,
    gap: float,
    trials_now: int,
    alpha: float = 0.05,
    family: int = 1,
    power: float = 0.8,
) -> PowerEstimate:
    """Conditional view: trials per challenge that detect a `gap`-point difference on these challenges.

    `variances` holds, per challenge, the two agents' per-trial score variances. With n trials per
    cell the difference of aggregates has variance V/n, V = sum(var_a + var_b) / C^2, so a two-sided
    z-test at alpha / family reaches the target power at n = V (z_{1-alpha/2/family} + z_power)^2 /
    gap^2. The answer is never below the fewest trials at which the exact permutation test can
    reach that level at all (and the power now is 0 below that floor).
    """
    if gap <= 0:
        raise ValueError(f"gap must be positive, got {gap}")
    if not variances:
        raise ValueError("need at least one challenge")
    level = alpha / family
    floor = _min_trials_for_permutation(len(variances), level)
    per_trial = math.fsum(va + vb for va, vb in variances) / len(variances) ** 2
    if per_trial <= 0.0:
        return PowerEstimate(
            gap=gap, target_power=power, alpha=alpha, pairs=family,
            challenges_now=len(variances), trials_now=trials_now, power_now=None,
            trials_needed=None, trials_ceiling=None, challenges_needed=None, between_sd=None,
            within_sd=None, better="unknown", unknown_because=(
                "no trial score varied within a challenge, so the spread between trials (and "
                "the power) cannot be estimated"))
    z_alpha, z_power = NormalDist().inv_cdf(1 - level / 2), NormalDist().inv_cdf(power)
    needed = math.ceil(per_trial * (z_alpha + z_power) ** 2 / gap**2 - 1e-9)
    now = 0.0 if trials_now < floor else _power_t(gap, per_trial / trials_now, math.inf, level)
    return PowerEstimate(
        gap=gap, target_power=power, alpha=alpha, pairs=family, challenges_now=len(variances),
        trials_now=trials_now, power_now=now, trials_needed=max(floor, needed),
        trials_ceiling=1.0, challenges_needed=None, between_sd=None,
        within_sd=math.sqrt(per_trial * len(variances)),
        better="reached" if now >= power else "trials",
    )


def holm(p_values: Sequence[float]) -> tuple[float, ...]:
    """Holm-Bonferroni adjusted p-values (step-down), in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return tuple(adjusted)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n trials of which c passed: 1 - C(n - c, k) / C(n, k) (Chen et al.)."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)
