"""Student's t distribution from the regularised incomplete beta function, standard library only.

`agentbench.stats` re-exports `t_cdf`, `t_quantile` and `incomplete_beta`; the tests check each
against SciPy.
"""

from __future__ import annotations

import math
from statistics import NormalDist


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


def _t_pdf(x: float, df: float) -> float:
    """Density of Student's t with `df` degrees of freedom."""
    if math.isinf(df):
        return NormalDist().pdf(x)
    log = _lgamma_ratio(df / 2.0, 0.5) - 0.5 * math.log(df * math.pi)
    return math.exp(log - (df + 1.0) / 2.0 * math.log1p(x * x / df))


def t_quantile(p: float, df: float) -> float:
    """Inverse of `t_cdf`: the value below which a t variable falls with probability `p`.

    Newton's method from the normal quantile, kept inside a bracket that bisection narrows
    whenever a Newton step would leave it.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if math.isinf(df):
        return NormalDist().inv_cdf(p)
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, max(1.0, NormalDist().inv_cdf(p))
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    x = (low + high) / 2.0 if high > 1.0 else NormalDist().inv_cdf(p)
    for _ in range(200):
        error = t_cdf(x, df) - p
        if error == 0.0:
            return x
        low, high = (x, high) if error < 0 else (low, x)
        following = x - error / _t_pdf(x, df)
        if not low < following < high:
            following = (low + high) / 2.0
        if abs(following - x) < 1e-14 * max(1.0, abs(x)) or high - low < 1e-13 * max(1.0, high):
            return following
        x = following
    return x
