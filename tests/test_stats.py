"""agentbench.stats against values computed independently with SciPy and NumPy (dev dependency).

Every function of the standard-library statistics module is checked here against SciPy or NumPy on
fixed datasets; `tests/test_stats_scipy.py` checks whole comparisons the same way.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special
from scipy import stats as sps

from agentbench import stats

TOL = 1e-9

SAMPLES = [
    [72.0, 81.5, 77.0],
    [90.0, 88.0, 93.5, 91.0],
    [10.0, 35.0],
    [55.5, 60.0, 58.0, 61.0, 57.0, 70.0],
]


# --- Student t ------------------------------------------------------------------------------------

@pytest.mark.parametrize("df", [1, 2, 3, 4.5, 7.3, 10, 29, 120, 1e6])
@pytest.mark.parametrize("x", [-12.0, -2.5, -0.1, 0.0, 0.7, 1.96, 4.0, 30.0])
def test_t_cdf_matches_scipy(x, df):
    assert stats.t_cdf(x, df) == pytest.approx(sps.t.cdf(x, df), abs=1e-12)


@pytest.mark.parametrize("df", [1, 1.5, 2, 3, 5.8, 9, 30, 500])
@pytest.mark.parametrize("p", [0.001, 0.025, 0.1, 0.5, 0.8, 0.975, 0.995, 0.9999])
def test_t_quantile_matches_scipy(p, df):
    assert stats.t_quantile(p, df) == pytest.approx(sps.t.ppf(p, df), rel=1e-9, abs=1e-12)


def test_t_with_infinite_df_is_the_normal():
    assert stats.t_quantile(0.975, math.inf) == pytest.approx(sps.norm.ppf(0.975), rel=1e-12)
    assert stats.t_cdf(1.0, math.inf) == pytest.approx(sps.norm.cdf(1.0), rel=1e-12)


@pytest.mark.parametrize(("a", "b", "x"), [(0.5, 0.5, 0.3), (2, 3, 0.9), (10, 0.5, 0.95),
                                            (1.5, 40, 0.01), (3, 3, 0.5)])
def test_incomplete_beta_matches_scipy(a, b, x):
    assert stats.incomplete_beta(a, b, x) == pytest.approx(special.betainc(a, b, x), abs=1e-13)


# --- summaries and intervals ----------------------------------------------------------------------

@pytest.mark.parametrize("sample", SAMPLES)
def test_summary_matches_numpy(sample):
    s = stats.summarize(sample)
    assert s.mean == pytest.approx(np.mean(sample))
    assert s.sd == pytest.approx(np.std(sample, ddof=1))
    assert (s.minimum, s.maximum, s.n) == (min(sample), max(sample), len(sample))


def test_summary_of_one_value_has_no_spread():
    assert stats.summarize([42.0]).sd is None
    with pytest.raises(ValueError):
        stats.summarize([])


@pytest.mark.parametrize("sample", SAMPLES)
def test_one_group_interval_is_scipys_one_sample_t_interval(sample):
    ci = stats.stratified_interval([sample])
    low, high = sps.t.interval(0.95, len(sample) - 1, loc=np.mean(sample), scale=sps.sem(sample))
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=TOL)
    assert ci.df == pytest.approx(len(sample) - 1)


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations(SAMPLES, 2)))
def test_one_stratum_difference_is_scipys_welch_interval(a, b):
    ci = stats.difference_interval([(a, b)])
    expected = sps.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    assert (ci.low, ci.high) == pytest.approx((expected.low, expected.high), abs=TOL)


def _welch_by_hand(parts, confidence):
    """Welch-Satterthwaite with NumPy and SciPy: parts = [(weight, sample)]."""
    v = np.array([w * w * np.var(s, ddof=1) / len(s) for w, s in parts])
    nu = np.array([len(s) - 1 for _, s in parts])
    df = v.sum() ** 2 / np.sum(v**2 / nu)
    return sps.t.ppf(0.5 + confidence / 2, df) * np.sqrt(v.sum()), df


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_stratified_interval_matches_a_numpy_welch_satterthwaite(confidence):
    ci = stats.stratified_interval(SAMPLES, confidence)
    half, df = _welch_by_hand([(1 / len(SAMPLES), s) for s in SAMPLES], confidence)
    centre = np.mean([np.mean(s) for s in SAMPLES])
    assert (ci.low, ci.high, ci.df) == pytest.approx((centre - half, centre + half, df), rel=1e-9)


def test_difference_interval_over_strata_matches_numpy():
    strata = [(SAMPLES[0], SAMPLES[2]), (SAMPLES[1], SAMPLES[3]), (SAMPLES[3], SAMPLES[0])]
    ci = stats.difference_interval(strata)
    w = 1 / len(strata)
    half, df = _welch_by_hand([(w, a) for a, _ in strata] + [(w, b) for _, b in strata], 0.95)
    centre = np.mean([np.mean(a) - np.mean(b) for a, b in strata])
    assert (ci.low, ci.high, ci.df) == pytest.approx((centre - half, centre + half, df), rel=1e-9)


def test_a_single_trial_group_borrows_the_pooled_variance():
    groups = [[50.0], [60.0, 70.0], [55.0, 58.0, 61.0]]
    ci = stats.stratified_interval(groups)
    pooled = (np.var([60, 70], ddof=1) * 1 + np.var([55, 58, 61], ddof=1) * 2) / 3
    c = len(groups)
    v = np.array([np.var([60, 70], ddof=1) / 2, np.var([55, 58, 61], ddof=1) / 3, pooled]) / c**2
    nu = np.array([1, 2, 3])
    df = v.sum() ** 2 / np.sum(v**2 / nu)
    half = sps.t.ppf(0.975, df) * np.sqrt(v.sum())
    centre = np.mean([50.0, 65.0, 58.0])
    assert (ci.low, ci.high, ci.df) == pytest.approx((centre - half, centre + half, df))


def test_intervals_need_some_spread_and_collapse_without_it():
    assert stats.stratified_interval([[50.0], [60.0]]) is None
    assert stats.difference_interval([([50.0], [40.0, 41.0])]) is None
    flat = stats.stratified_interval([[80.0, 80.0], [90.0, 90.0, 90.0]])
    assert (flat.low, flat.high, flat.df) == (85.0, 85.0, math.inf) and flat.zero_width


# --- permutation test -----------------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b"), [([72.0, 81.5, 77.0], [60.0, 65.0, 70.0]),
                                      ([1.0, 2.0, 3.0, 4.0], [2.5, 3.5, 4.5]),
                                      ([10.0, 10.0], [10.0, 10.0])])
def test_one_stratum_permutation_test_matches_scipy_exact(a, b):
    expected = sps.permutation_test(
        (a, b), lambda x, y: abs(np.mean(x) - np.mean(y)), permutation_type="independent",
        alternative="greater", n_resamples=np.inf).pvalue
    assert stats.permutation_test([(a, b)]) == pytest.approx(expected, abs=1e-12)


def _brute_force_stratified(strata):
    observed = abs(np.mean([np.mean(a) - np.mean(b) for a, b in strata]))
    per_stratum = []
    for a, b in strata:
        pooled = [*a, *b]
        options = []
        for picked in itertools.combinations(range(len(pooled)), len(a)):
            rest = [pooled[i] for i in range(len(pooled)) if i not in picked]
            options.append(np.mean([pooled[i] for i in picked]) - np.mean(rest))
        per_stratum.append(options)
    values = [abs(np.mean(combo)) for combo in itertools.product(*per_stratum)]
    return np.mean([v >= observed - 1e-9 for v in values])


def test_stratified_permutation_test_matches_brute_force():
    strata = [([70.0, 75.0], [60.0, 66.0]), ([90.0, 85.0, 88.0], [80.0, 91.0]),
              ([40.0, 52.0], [41.0, 39.0])]
    assert stats.permutation_test(strata) == pytest.approx(_brute_force_stratified(strata))


def test_monte_carlo_of_large_strata_is_close_to_exact():
    # 8 against 8 trials: 12,870 relabellings per stratum, sampled from two tabulated halves.
    rng = np.random.default_rng(5)
    a, b = list(rng.normal(60, 8, 8)), list(rng.normal(66, 8, 8))
    exact = stats.permutation_test([(a, b)])
    expected = sps.permutation_test((a, b), lambda x, y: abs(np.mean(x) - np.mean(y)),
                                    alternative="greater", n_resamples=np.inf).pvalue
    assert exact == pytest.approx(expected, abs=1e-12)
    sampled = stats.permutation_test([(a, b)], exact_limit=0, resamples=40_000)
    assert sampled == pytest.approx(exact, abs=0.01)


def test_monte_carlo_permutation_is_seeded_and_close_to_exact():
    strata = [([70.0, 75.0, 71.0], [60.0, 66.0, 72.0]), ([90.0, 85.0, 88.0], [80.0, 91.0, 83.0]),
              ([40.0, 52.0, 47.0], [41.0, 39.0, 50.0])]
    exact = stats.permutation_test(strata)
    sampled = stats.permutation_test(strata, exact_limit=0, resamples=20_000)
    assert sampled == stats.permutation_test(strata, exact_limit=0, resamples=20_000)
    assert sampled == pytest.approx(exact, abs=0.01)


def test_permutation_test_needs_both_sides():
    with pytest.raises(ValueError):
        stats.permutation_test([([1.0], [])])


# --- pass@k, Holm, power ---------------------------------------------------------------------------

def _pass_at_k_chen(n, c, k):
    """The numerically stable estimator from Chen et al. (2021), as published."""
    if n - c < k:
        return 1.0
    return 1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))


@pytest.mark.parametrize(("n", "c", "k"), [(1, 0, 1), (1, 1, 1), (3, 1, 1), (3, 1, 2), (5, 2, 3),
                                           (10, 0, 5), (10, 9, 2), (20, 7, 10)])
def test_pass_at_k_matches_chen_et_al(n, c, k):
    assert stats.pass_at_k(n, c, k) == pytest.approx(_pass_at_k_chen(n, c, k), abs=1e-12)
    assert stats.pass_at_k(n, c, k) == pytest.approx(
        1 - special.comb(n - c, k) / special.comb(n, k), abs=1e-12)


def test_holm_adjustment_known_values():
    # Holm (1979) step-down: sorted p * (m - rank), running maximum, capped at 1.
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx((0.03, 0.06, 0.06, 0.02))
    assert stats.holm([0.5]) == (0.5,)
    assert stats.holm([0.9, 0.8]) == (1.0, 1.0)  # 2 * 0.8 caps at 1; the running max carries it


@pytest.mark.parametrize("family", [1, 6])
def test_conditional_power_matches_the_normal_formula_from_scipy(family):
    variances = [(16.0, 25.0), (9.0, 4.0), (36.0, 30.0)]
    estimate = stats.trials_for_gap(variances, gap=5.0, trials_now=3, family=family)
    level = 0.05 / family
    per_trial = sum(a + b for a, b in variances) / len(variances) ** 2
    z = sps.norm.ppf(1 - level / 2) + sps.norm.ppf(0.8)
    floor = next(n for n in range(1, 50) if 2 / special.comb(2 * n, n) ** 3 < level)
    assert estimate.trials_needed == max(floor, math.ceil(per_trial * z**2 / 25.0))
    se = math.sqrt(per_trial / 3)
    expected_power = sps.norm.cdf(5 / se - sps.norm.ppf(1 - level / 2)) + sps.norm.cdf(
        -5 / se - sps.norm.ppf(1 - level / 2))
    assert estimate.power_now == pytest.approx(expected_power, abs=1e-12)
    assert estimate.pairs == family


def test_power_never_asks_for_fewer_trials_than_the_test_can_resolve():
    # One challenge: 2 / C(2n, n) < 0.05 needs n >= 4, however small the spread.
    estimate = stats.trials_for_gap([(0.01, 0.01)], gap=5.0, trials_now=2)
    assert estimate.trials_needed == 4 and estimate.power_now == 0.0
    assert stats.trials_for_gap([(0.01, 0.01)] * 6, gap=5.0, trials_now=2).trials_needed == 1


def test_power_never_claims_certainty_from_zero_observed_variance():
    flat = stats.trials_for_gap([(0.0, 0.0)] * 6, gap=5.0, trials_now=2)
    assert flat.power_now is None and flat.better == "unknown" and "cannot be estimated" in \
        flat.unknown_because
    parts = stats.VarianceComponents(total=0.0, within=None, noise=None)
    over = stats.power_over_challenges(parts, stats.PowerGoal(gap=5.0), challenges=10, trials=1)
    assert over.power_now is None and over.challenges_needed is None and over.unknown_because


def test_power_with_more_trials_reaches_the_target():
    estimate = stats.trials_for_gap([(100.0, 100.0)] * 4, gap=5.0, trials_now=2)
    again = stats.trials_for_gap([(100.0, 100.0)] * 4, gap=5.0, trials_now=estimate.trials_needed)
    assert again.power_now >= 0.8 > estimate.power_now


# --- properties -----------------------------------------------------------------------------------

scores = st.lists(st.floats(min_value=0, max_value=100), min_size=2, max_size=6)


@settings(max_examples=60, deadline=None)
@given(st.lists(scores, min_size=1, max_size=5))
def test_interval_contains_the_estimate(groups):
    ci = stats.stratified_interval(groups)
    estimate = np.mean([np.mean(g) for g in groups])
    assert ci.low - 1e-9 <= estimate <= ci.high + 1e-9


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(scores, scores), min_size=1, max_size=3))
def test_p_values_are_probabilities(strata):
    p = stats.permutation_test(strata, resamples=200)
    assert 0.0 < p <= 1.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=-100, max_value=100), min_size=1, max_size=30))
def test_sign_flip_p_values_are_probabilities_at_least_the_smallest_possible(diffs):
    p = stats.sign_flip_test(diffs, resamples=300)
    assert stats.sign_flip_min_p(len(diffs)) - 1e-12 <= p <= 1.0 or len(diffs) > 26


# --- over challenges: t interval, sign flips, variance components, power --------------------------

@pytest.mark.parametrize("values", SAMPLES)
def test_mean_interval_is_scipys_one_sample_t_interval(values):
    ci = stats.mean_interval(values)
    expected = sps.ttest_1samp(values, 0.0).confidence_interval(0.95)
    assert (ci.low, ci.high, ci.df) == pytest.approx((expected.low, expected.high, len(values) - 1))
    assert stats.mean_interval([3.0]) is None
    assert stats.mean_interval([2.0, 2.0, 2.0]).zero_width


SIGN_DATA = [
    [3.0, -1.0, 4.0, 1.5, -0.5, 9.0, 2.6],
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    [5.2, -3.1, 0.0, 2.2, 7.7, -1.0, 4.4, 0.0, 3.3, -2.8, 6.1, 1.9, 0.4],
    [0.0, 0.0],
    [-4.0, -2.5, -6.0, -1.0, 3.0],
]


@pytest.mark.parametrize("diffs", SIGN_DATA)
def test_sign_flip_test_matches_scipys_exact_paired_permutation_test(diffs):
    if not any(diffs):
        assert stats.sign_flip_test(diffs) == 1.0
        return
    expected = sps.permutation_test(
        (np.array(diffs),), lambda x: abs(np.mean(x)), permutation_type="samples",
        alternative="greater", n_resamples=np.inf).pvalue
    assert stats.sign_flip_test(diffs) == pytest.approx(expected, abs=1e-12)


def test_sign_flip_test_matches_brute_force_and_its_monte_carlo_is_seeded_and_close():
    rng = np.random.default_rng(3)
    diffs = list(rng.normal(1.0, 3.0, size=16))
    signs = np.array(list(itertools.product((1.0, -1.0), repeat=16)))
    sums = np.abs(signs @ np.array(diffs))
    exact = np.mean(sums >= abs(sum(diffs)) - 1e-9)
    assert stats.sign_flip_test(diffs) == pytest.approx(exact, abs=1e-12)
    sampled = stats.sign_flip_test(diffs, exact_max=0, resamples=40_000)
    assert sampled == stats.sign_flip_test(diffs, exact_max=0, resamples=40_000)
    assert sampled == pytest.approx(exact, abs=0.006)


def test_smallest_sign_flip_p_and_the_challenges_a_family_needs():
    assert stats.sign_flip_min_p(5) == 0.0625 and stats.sign_flip_min_p(6) == 0.03125
    assert stats.min_challenges(0.05) == 6
    assert stats.min_challenges(0.05, family=6) == 8  # 2/2^8 * 6 = 0.047
    assert stats.min_challenges(0.05, family=28) == 11


def test_variance_components_match_numpy():
    pairs = [([70.0, 75.0, 80.0], [60.0, 62.0, 65.0]), ([50.0, 58.0], [45.0, 50.0, 47.0]),
             ([40.0], [35.0, 30.0, 36.0]), ([90.0, 91.0, 89.0], [70.0, 72.0, 74.0])]
    parts = stats.difference_components(pairs)
    diffs = [np.mean(a) - np.mean(b) for a, b in pairs]

    def pooled(cells):
        return sum((len(c) - 1) * np.var(c, ddof=1) for c in cells if len(c) > 1) / sum(
            len(c) - 1 for c in cells if len(c) > 1)

    va, vb = pooled([a for a, _ in pairs]), pooled([b for _, b in pairs])
    noise = np.mean([va / len(a) + vb / len(b) for a, b in pairs])
    assert parts.total == pytest.approx(np.var(diffs, ddof=1))
    assert parts.within == pytest.approx(va + vb) and parts.noise == pytest.approx(noise)
    assert parts.between == pytest.approx(max(0.0, np.var(diffs, ddof=1) - noise))
    assert stats.difference_components([([1.0], [2.0]), ([3.0], [1.0])]).within is None


def _power_by_hand(gap, per_challenge, challenges, level):
    se = math.sqrt(per_challenge / challenges)
    q = sps.t.ppf(1 - level / 2, challenges - 1)
    return sps.norm.cdf(gap / se - q) + sps.norm.cdf(-gap / se - q)


def test_power_over_challenges_matches_the_formula_and_its_routes_are_minimal():
    parts = stats.VarianceComponents(total=40.0, within=60.0, noise=20.0)  # between = 20
    goal = stats.PowerGoal(gap=5.0, family=3)
    estimate = stats.power_over_challenges(parts, goal, challenges=13, trials=3)
    assert estimate.power_now == pytest.approx(_power_by_hand(5.0, 40.0, 13, 0.05 / 3))
    n = estimate.trials_needed
    assert _power_by_hand(5.0, 20.0 + 60.0 / n, 13, 0.05 / 3) >= 0.8
    assert _power_by_hand(5.0, 20.0 + 60.0 / (n - 1), 13, 0.05 / 3) < 0.8
    c = estimate.challenges_needed
    assert _power_by_hand(5.0, 40.0, c, 0.05 / 3) >= 0.8 > _power_by_hand(5.0, 40.0, c - 1, 0.05 / 3)
    assert estimate.trials_ceiling == pytest.approx(_power_by_hand(5.0, 20.0, 13, 0.05 / 3))
    assert estimate.better == ("trials" if 13 * n <= c * 3 else "challenges")


def test_more_trials_cannot_beat_a_large_challenge_to_challenge_spread():
    parts = stats.VarianceComponents(total=410.0, within=30.0, noise=10.0)  # between = 400
    estimate = stats.power_over_challenges(parts, stats.PowerGoal(gap=5.0), challenges=13,
                                           trials=3)
    assert estimate.trials_needed is None and estimate.trials_ceiling < 0.8
    assert estimate.better == "challenges" and estimate.challenges_needed > 13
    assert estimate.between_sd == pytest.approx(20.0)


def test_power_is_zero_below_the_challenges_the_test_needs():
    parts = stats.VarianceComponents(total=1.0, within=1.0, noise=0.3)
    estimate = stats.power_over_challenges(parts, stats.PowerGoal(gap=5.0, family=6),
                                           challenges=stats.MIN_INFORMATIVE - 1, trials=3)
    assert estimate.power_now == 0.0 and estimate.challenges_needed == stats.MIN_INFORMATIVE


def test_percentile_is_numpys_linear_percentile():
    values = [3.0, 1.0, 10.0, 7.5, 2.2, 9.1, 4.4]
    for q in (0, 10, 50, 90, 100):
        assert stats.percentile(values, q) == pytest.approx(np.percentile(values, q))
    assert stats.percentile([5.0], 90) == 5.0


def test_a_score_interval_never_passes_the_scale_s_ends():
    from agentbench import stats as s

    wide = s.mean_interval([99.0, 100.0, 98.0])
    assert wide is not None and wide.high > 100.0
    cut = s.within(wide)
    assert cut is not None and cut.high == 100.0 and cut.low == wide.low and cut.df == wide.df
    low = s.within(s.mean_interval([0.0, 2.0, 1.0]))
    assert low is not None and low.low == 0.0
    assert s.within(None) is None


def test_paired_t_test_is_scipys_one_sample_t_test_and_falls_back_when_nothing_varies():
    diffs = [3.0, 5.5, -1.0, 8.0, 2.5, 4.0, 6.0, 0.5, 7.0, 3.5]
    test = stats.paired_t_test(diffs)
    expected = sps.ttest_1samp(diffs, 0.0)
    assert test.p == pytest.approx(expected.pvalue) and test.df == 9
    ci = expected.confidence_interval(0.99)
    got = test.interval(0.99)
    assert (got.low, got.high) == pytest.approx((ci.low, ci.high))
    flat = stats.paired_t_test([4.0] * 10)  # no spread: the exact sign-flip p, never 0
    assert flat.se == 0.0 and flat.p == pytest.approx(2 / 2**10)
    assert stats.paired_t_test([0.0] * 10).p == 1.0


@settings(max_examples=80, deadline=None)
@given(st.lists(st.floats(min_value=1e-6, max_value=1.0), min_size=1, max_size=30),
       st.sampled_from([0.01, 0.05, 0.1]))
def test_holm_levels_agree_with_holm_rejections(ps, alpha):
    levels = stats.holm_levels(ps, alpha)
    for p, adjusted, level in zip(ps, stats.holm(ps), levels, strict=True):
        assert (adjusted < alpha) == (p < level)  # interval at 1 - level excludes 0 iff rejected
        assert alpha / len(ps) <= level <= alpha
