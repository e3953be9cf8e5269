"""Whole comparisons checked against an independent implementation (NumPy and SciPy).

Thirty fixed synthetic datasets (3 agents, 6-13 challenges, 1-4 trials per cell, some cells short,
hidden tests on some challenges). For each, every figure `build_comparison` reports is recomputed
here from the raw trial scores with NumPy and SciPy, never with agentbench.stats:

- aggregates and their intervals over challenges (`scipy.stats.t.interval` on challenge means);
- paired differences and their p-values (`scipy.stats.ttest_1samp`; `scipy.stats.permutation_test`,
  exact, when the differences never varied), pairs with fewer than 6 differing challenges entering
  the family with p = 1;
- Holm's adjustment over the pairs (written out here as the textbook step-down procedure), and
  each pair's interval (`ttest_1samp(...).confidence_interval`) at the level Holm tested it at, so
  it excludes 0 exactly when a winner is named;
- the hidden-test solve-rate comparisons, the same way;
- the conditional view's Welch-Satterthwaite intervals, and the power over challenges.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from agentbench.comparison import CompareOptions, build_comparison
from agentbench.models import RunRecord
from tests.test_comparison import make_run

DATASETS = range(30)


def dataset(seed: int) -> tuple[list[RunRecord], dict[str, dict[str, list[float]]],
                                dict[str, dict[str, list[bool]]]]:
    rng = np.random.default_rng(1000 + seed)
    challenges = [f"easy/c{i}" for i in range(int(rng.integers(6, 14)))]
    scores: dict[str, dict[str, list[float]]] = {}
    hidden: dict[str, dict[str, list[bool]]] = {}
    base = {cid: rng.normal(55, 15) for cid in challenges}
    for name, skill in (("a", rng.normal(0, 5)), ("b", rng.normal(0, 5)), ("c", rng.normal(0, 5))):
        scores[name], hidden[name] = {}, {}
        for cid in challenges:
            n = int(rng.integers(1, 5))
            true = base[cid] + skill + rng.normal(0, 6)
            scores[name][cid] = [float(np.clip(true + rng.normal(0, 5), 0, 100)) for _ in range(n)]
            hidden[name][cid] = [bool(rng.random() < true / 100) for _ in range(n)]
    runs = [make_run(name, scores[name], hidden=hidden[name]) for name in scores]
    return runs, scores, hidden


def holm_by_hand(p: list[float]) -> list[float]:
    m = len(p)
    order = np.argsort(p, kind="stable")
    out, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, (m - rank) * p[i])
        out[i] = min(1.0, running)
    return out


def exact_sign_flip(diffs: np.ndarray) -> float:
    if abs(diffs.sum()) < 1e-9:  # a zero mean difference (up to rounding): every pattern ties it
        return 1.0
    return float(sps.permutation_test((diffs,), lambda x: abs(np.mean(x)),
                                      permutation_type="samples", alternative="greater",
                                      n_resamples=np.inf).pvalue)


def paired_p(diffs: np.ndarray) -> float:
    """The verdicts' test: a one-sample t test over challenges; the exact sign-flip test when the
    differences never varied (a t statistic is infinite then)."""
    if np.std(diffs, ddof=1) / math.sqrt(len(diffs)) <= 1e-12 * max(1.0, abs(diffs.mean())):
        return exact_sign_flip(diffs)
    return float(sps.ttest_1samp(diffs, 0.0).pvalue)


def holm_levels_by_hand(p: list[float], alpha: float = 0.05) -> list[float]:
    """The level Holm's step-down tested each hypothesis at (alpha / m for those never reached)."""
    m = len(p)
    levels = [alpha / m] * m
    for step, i in enumerate(np.argsort(p, kind="stable")):
        if p[i] >= alpha / (m - step):
            break
        levels[i] = alpha / (m - step)
    return levels


def informative(diffs: np.ndarray) -> bool:
    """Whether a verdict is possible at all: at least 6 challenges on which the agents differ."""
    return int(np.sum(np.abs(diffs) > 1e-9)) >= 6


def check_family(tests, family_diffs: list[np.ndarray]) -> None:
    """p-values, Holm, Holm-level t intervals and winners of one family against SciPy."""
    entered = []
    for test, diffs in zip(tests, family_diffs, strict=True):
        assert test.difference == pytest.approx(diffs.mean())
        assert test.p_value == pytest.approx(paired_p(diffs), rel=1e-9, abs=1e-12)
        assert (test.wins, test.losses) == (np.sum(diffs > 1e-9), np.sum(diffs < -1e-9))
        entered.append(paired_p(diffs) if informative(diffs) else 1.0)
    levels = holm_levels_by_hand(entered)
    for test, diffs, adjusted, level in zip(tests, family_diffs, holm_by_hand(entered), levels,
                                            strict=True):
        assert test.p_adjusted == pytest.approx(adjusted)
        if not informative(diffs) or np.std(diffs) == 0:
            assert test.winner is None
            continue
        ci = sps.ttest_1samp(diffs, 0.0).confidence_interval(1.0 - level)
        assert (test.interval.low, test.interval.high) == pytest.approx((ci.low, ci.high))
        assert (test.winner is not None) == (adjusted < 0.05) == (not test.interval.contains(0.0))


@pytest.mark.parametrize("seed", DATASETS)
def test_over_challenges_figures_match_scipy(seed):
    runs, scores, _ = dataset(seed)
    c = build_comparison(runs)
    for agent in c.agents:
        means = [np.mean(v) for v in scores[agent.label].values()]
        low, high = sps.t.interval(0.95, len(means) - 1, loc=np.mean(means), scale=sps.sem(means))
        assert agent.aggregate == pytest.approx(np.mean(means))
        assert (agent.interval.low, agent.interval.high) == pytest.approx((low, high))
    check_family([v.score for v in c.verdicts],
                 [np.array([np.mean(scores[v.a][k]) - np.mean(scores[v.b][k]) for k in scores[v.a]])
                  for v in c.verdicts])


@pytest.mark.parametrize("seed", DATASETS)
def test_hidden_test_comparisons_match_scipy(seed):
    runs, _, hidden = dataset(seed)
    c = build_comparison(runs)
    check_family([v.hidden for v in c.verdicts],
                 [np.array([np.mean(hidden[v.a][k]) - np.mean(hidden[v.b][k]) for k in hidden[v.a]])
                  for v in c.verdicts])


def welch_by_hand(cells: list[list[float]]) -> tuple[float, float]:
    """Conditional interval: single-trial cells take the pooled variance of the others."""
    multi = [x for x in cells if len(x) > 1]
    pooled_df = sum(len(x) - 1 for x in multi)
    pooled = sum((len(x) - 1) * np.var(x, ddof=1) for x in multi) / pooled_df
    c = len(cells)
    terms = [(np.var(x, ddof=1) / len(x) / c**2, len(x) - 1) for x in multi]
    singles = sum(1 for x in cells if len(x) == 1)
    if singles:
        terms.append((singles * pooled / c**2, pooled_df))
    total = sum(v for v, _ in terms)
    df = total**2 / sum(v * v / nu for v, nu in terms)
    half = sps.t.ppf(0.975, df) * math.sqrt(total)
    centre = np.mean([np.mean(x) for x in cells])
    return centre - half, centre + half


@pytest.mark.parametrize("seed", DATASETS)
def test_conditional_intervals_match_a_numpy_welch_satterthwaite(seed):
    runs, scores, _ = dataset(seed)
    c = build_comparison(runs, options=CompareOptions(condition_on_challenges=True))
    for agent in c.agents:
        cells = list(scores[agent.label].values())
        if all(len(x) == 1 for x in cells):
            assert agent.interval is None
            continue
        assert (agent.interval.low, agent.interval.high) == pytest.approx(welch_by_hand(cells))


@pytest.mark.parametrize("seed", range(10))
def test_power_over_challenges_matches_the_formula(seed):
    runs, scores, _ = dataset(seed)
    c = build_comparison(runs, options=CompareOptions(power_gap=8.0))
    v = c.verdicts[0]
    pairs = [(scores[v.a][k], scores[v.b][k]) for k in scores[v.a]]
    diffs = [np.mean(a) - np.mean(b) for a, b in pairs]
    total = np.var(diffs, ddof=1)
    se = math.sqrt(total / len(diffs))
    q = sps.t.ppf(1 - 0.05 / 3 / 2, len(diffs) - 1)
    expected = sps.norm.cdf(8.0 / se - q) + sps.norm.cdf(-8.0 / se - q)
    if len(diffs) < 6:  # fewer challenges than any verdict needs (stats.MIN_INFORMATIVE)
        expected = 0.0
    assert v.power.power_now == pytest.approx(expected, abs=1e-9)
