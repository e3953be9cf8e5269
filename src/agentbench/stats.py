"""Statistics for comparing agents: pure functions on plain numbers, standard library only.

The benchmark's unit of replication is the *trial*: each (agent, challenge) cell holds the scores of
its repeated trials, and the challenge set is fixed. From that design follow the methods here:

- the aggregate (the seed's mean over challenges of the per-challenge mean) gets a Student-t interval
  whose standard error adds each challenge's sampling variance, with Welch-Satterthwaite degrees of
  freedom (`stratified_interval`);
- two agents are compared challenge by challenge (the challenge is the pairing block): the difference
  of aggregates gets the same kind of interval and a p-value from a permutation test that reshuffles
  trial labels only *within* each challenge (`permutation_test`), exact when the arrangements are few
  and Monte Carlo with a fixed seed otherwise;
- hidden acceptance pass/fail of paired trials gets McNemar's exact (binomial) test;
- pass@k is the unbiased estimator of Chen et al. (2021);
- `trials_for_gap` answers "how many trials do I need to detect a gap of G points?".

The Student-t distribution is computed from the regularised incomplete beta function (a continued
fraction), so no third-party library is needed; the tests check every function against SciPy.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist, fmean, stdev

DEFAULT_CONFIDENCE = 0.95
"""Confidence level of every interval unless a caller asks otherwise."""

DEFAULT_RESAMPLES = 10_000
"""Monte Carlo permutations when exact enumeration is too expensive."""

EXACT_LIMIT = 50_000
"""Largest number of arrangements the permutation test enumerates exactly."""

DEFAULT_SEED = 20_240_607
"""Fixed seed of the Monte Carlo permutation test, so a report is reproducible."""

_EPS = 1e-12


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


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerEstimate:
    """How many trials per challenge a comparison needs to detect a given gap."""

    gap: float
    """The difference in points to detect."""
    trials_needed: int | None
    """Trials per (agent, challenge) for the target power; None when the spread is unknown."""
    power_now: float | None
    """Estimated power at the current number of trials; None when the spread is unknown."""
    trials_now: int
    """Trials per (agent, challenge) now (the smallest cell)."""
    target_power: float
    """Power the estimate aims for, e.g. 0.8."""
    alpha: float
    """Two-sided significance level."""


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


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _lgamma_ratio(z: float, s: float) -> float:
    """ln Gamma(z + s) - ln Gamma(z) without the cancellation of two huge lgamma values."""
    if z < 1e3:
        return math.lgamma(z + s) - math.lgamma(z)
    # NOTE: difference of Stirling series; the dropped 1/z^3 terms are below 1e-18 here.
    return ((z - 0.5) * math.log1p(s / z) + s * math.log(z + s) - s
            - s / (12.0 * z * (z + s)))


def _log_beta(a: float, b: float) -> float:
    small, large = sorted((a, b))
    return math.lgamma(small) - _lgamma_ratio(large, small)


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must be in [0, 1], got {x}")
    if x in (0.0, 1.0):
        return x
    return _ibeta(a, b, x, 1.0 - x, math.log(x), math.log1p(-x))


def _ibeta(a: float, b: float, x: float, y: float, log_x: float, log_y: float) -> float:
    """I_x(a, b) with y = 1 - x and both logarithms given, so callers can keep them exact."""
    log_front = a * log_x + b * log_y - _log_beta(a, b)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, y) / b


def t_cdf(x: float, df: float) -> float:
    """Cumulative distribution function of Student's t with `df` degrees of freedom (may be inf)."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if math.isinf(df):
        return NormalDist().cdf(x)
    if x == 0:
        return 0.5
    # NOTE: with z = x^2 / df the beta argument is 1 / (1 + z); its logarithms come from log1p so
    # that a huge df (where that argument is 1 - 1e-9) loses no precision.
    z = x * x / df
    log_w = -math.log1p(z)
    tail = 0.5 * _ibeta(df / 2.0, 0.5, 1.0 / (1.0 + z), z / (1.0 + z), log_w, math.log(z) + log_w)
    return 1.0 - tail if x > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """Inverse of `t_cdf`: the value below which a t variable falls with probability `p`."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if math.isinf(df):
        return NormalDist().inv_cdf(p)
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, max(1.0, NormalDist().inv_cdf(p))
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-13 * max(1.0, high):
            break
    return (low + high) / 2.0


def _welch(estimate: float, parts: Sequence[tuple[float, Sequence[float]]],
           confidence: float) -> Interval | None:
    """t interval for sum(weight * mean(sample)), Welch-Satterthwaite degrees of freedom."""
    if any(len(sample) < 2 for _, sample in parts):
        return None
    terms = [(w * w * stdev(s) ** 2 / len(s), len(s) - 1) for w, s in parts]
    variance = math.fsum(v for v, _ in terms)
    if variance <= _EPS * max(1.0, estimate * estimate):
        return Interval(low=estimate, high=estimate, confidence=confidence, df=math.inf)
    df = variance**2 / math.fsum(v * v / nu for v, nu in terms)
    half = t_quantile(0.5 + confidence / 2.0, df) * math.sqrt(variance)
    return Interval(low=estimate - half, high=estimate + half, confidence=confidence, df=df)


def stratified_interval(groups: Sequence[Sequence[float]],
                        confidence: float = DEFAULT_CONFIDENCE) -> Interval | None:
    """Interval for the mean of group means (the seed's aggregate over challenges).

    Each group is one challenge's trial scores. The standard error is
    sqrt(sum(s_c^2 / n_c)) / C, with Welch-Satterthwaite degrees of freedom. None when a group has
    fewer than two values (its spread is unknown).
    """
    if not groups:
        raise ValueError("need at least one group")
    weight = 1.0 / len(groups)
    estimate = fmean([fmean(g) for g in groups])
    return _welch(estimate, [(weight, g) for g in groups], confidence)


def difference_interval(strata: Sequence[tuple[Sequence[float], Sequence[float]]],
                        confidence: float = DEFAULT_CONFIDENCE) -> Interval | None:
    """Interval for mean over strata of (mean(a) - mean(b)): agent A minus agent B, per challenge.

    With one stratum this is Welch's two-sample interval. None when a sample has fewer than two
    values.
    """
    if not strata:
        raise ValueError("need at least one stratum")
    weight = 1.0 / len(strata)
    parts = [(weight, a) for a, _ in strata] + [(weight, b) for _, b in strata]
    return _welch(stratified_difference(strata), parts, confidence)


def stratified_difference(strata: Sequence[tuple[Sequence[float], Sequence[float]]]) -> float:
    """Mean over strata of mean(a) - mean(b)."""
    return fmean([fmean(a) - fmean(b) for a, b in strata])


def _stratum_arrangements(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """Every value of mean(a') - mean(b') over the ways to relabel a stratum's pooled values."""
    pooled, total = [*a, *b], math.fsum([*a, *b])
    out = []
    for picked in itertools.combinations(range(len(pooled)), len(a)):
        sum_a = math.fsum(pooled[i] for i in picked)
        out.append(sum_a / len(a) - (total - sum_a) / len(b))
    return out


def permutation_arrangements(strata: Sequence[tuple[Sequence[float], Sequence[float]]]) -> int:
    """Number of relabellings the stratified permutation test would enumerate exactly."""
    return math.prod(math.comb(len(a) + len(b), len(a)) for a, b in strata)


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
    arrangements, otherwise (1 + hits) / (1 + resamples) from a seeded Monte Carlo sample.
    """
    if not strata or any(not a or not b for a, b in strata):
        raise ValueError("every stratum needs at least one value on each side")
    observed = abs(stratified_difference(strata))
    tolerance = 1e-9 * max(1.0, observed)
    if permutation_arrangements(strata) <= exact_limit:
        choices = [_stratum_arrangements(a, b) for a, b in strata]
        hits = total = 0
        for combo in itertools.product(*choices):
            total += 1
            hits += abs(math.fsum(combo)) / len(strata) >= observed - tolerance
        return hits / total
    rng = random.Random(seed)
    hits = sum(_shuffled_statistic(strata, rng) >= observed - tolerance for _ in range(resamples))
    return (1 + hits) / (1 + resamples)


def _shuffled_statistic(strata: Sequence[tuple[Sequence[float], Sequence[float]]],
                        rng: random.Random) -> float:
    diffs = []
    for a, b in strata:
        pooled = [*a, *b]
        rng.shuffle(pooled)
        diffs.append(fmean(pooled[: len(a)]) - fmean(pooled[len(a):]))
    return abs(fmean(diffs))


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pairs (a passed alone, b passed alone).

    Under the null hypothesis each discordant pair goes either way with probability 1/2, so the
    p-value is the two-sided binomial tail, capped at 1.
    """
    if a_only < 0 or b_only < 0:
        raise ValueError("counts must be non-negative")
    n = a_only + b_only
    if n == 0:
        return 1.0
    tail = math.fsum(math.comb(n, i) for i in range(min(a_only, b_only) + 1)) / 2.0**n
    return min(1.0, 2.0 * tail)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n trials of which c passed: 1 - C(n - c, k) / C(n, k) (Chen et al.)."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


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
    power: float = 0.8,
) -> PowerEstimate:
    """How many trials per challenge detect a `gap`-point difference, from the observed variances.

    `variances` holds, per challenge, the two agents' per-trial score variances. With n trials per
    cell the difference of aggregates has variance V/n, V = sum(var_a + var_b) / C^2, so a two-sided
    z-test reaches the target power at n = V (z_{1-alpha/2} + z_power)^2 / gap^2. The answer is never
    below the fewest trials at which the exact permutation test can reach `alpha` at all (and the
    power now is 0 below that floor).
    """
    if gap <= 0:
        raise ValueError(f"gap must be positive, got {gap}")
    if not variances:
        raise ValueError("need at least one challenge")
    floor = _min_trials_for_permutation(len(variances), alpha)
    per_trial = math.fsum(va + vb for va, vb in variances) / len(variances) ** 2
    z_alpha, z_power = NormalDist().inv_cdf(1 - alpha / 2), NormalDist().inv_cdf(power)
    needed = math.ceil(per_trial * (z_alpha + z_power) ** 2 / gap**2 - 1e-9)
    if trials_now < floor:
        now = 0.0
    elif per_trial <= 0:
        now = 1.0
    else:
        now = _z_power(gap / math.sqrt(per_trial / trials_now), z_alpha)
    return PowerEstimate(
        gap=gap, trials_needed=max(floor, needed), power_now=now, trials_now=trials_now,
        target_power=power, alpha=alpha,
    )


def _z_power(shift: float, z_alpha: float) -> float:
    """Power of a two-sided z-test when the true difference is `shift` standard errors."""
    unit = NormalDist()
    return unit.cdf(shift - z_alpha) + unit.cdf(-shift - z_alpha)
