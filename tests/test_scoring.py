import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbench.models import (
    AcceptanceMeasurement,
    BuildMeasurement,
    CompletenessMeasurement,
    CoverageMeasurement,
    Measurements,
    QualityMeasurement,
    ScoreBreakdown,
    TestMeasurement,
)
from agentbench.scoring import RUBRICS, Weights, efficiency_ratio, quality_ratio, score_trial


def measurements(**overrides):
    base = {
        "build": BuildMeasurement(success=True),
        "tests": TestMeasurement(passed=8, failed=2),
        "coverage": CoverageMeasurement(covered_lines=75, total_lines=100),
        "quality": QualityMeasurement(average_complexity=3.0, weighted_complexity=3.5, functions=4,
                                      files=1),
        "completeness": CompletenessMeasurement(found=("a", "b", "c"), missing=("d",)),
    }
    base.update(overrides)
    return Measurements(**base)


@pytest.mark.parametrize(
    ("complexity", "ratio"),
    [(None, 0.0), (1.0, 1.0), (4.999, 1.0), (5.0, 0.5), (9.0, 0.5), (9.99, 0.5), (10.0, 0.2),
     (19.0, 0.2), (19.99, 0.2), (20.0, 0.0), (55.0, 0.0)],
)
def test_quality_thresholds_follow_the_seed_table(complexity, ratio):
    assert quality_ratio(complexity) == ratio


@pytest.mark.parametrize(
    ("seconds", "ratio"),
    [(0, 1.0), (900, 0.5), (1800, 0.0), (3600, 0.0), (-5, 1.0)],
)
def test_efficiency_is_clipped_to_zero_and_one(seconds, ratio):
    assert efficiency_ratio(seconds, 1800) == pytest.approx(ratio)


def test_efficiency_rejects_a_zero_baseline():
    with pytest.raises(ValueError, match="baseline"):
        efficiency_ratio(10, 0)


def test_seed_formula_worked_example():
    score = score_trial(measurements(), time_seconds=450, baseline_seconds=1800)
    assert score.build == 25
    assert score.tests == pytest.approx(16.0)  # 20 * 8/10
    assert score.coverage == pytest.approx(11.25)  # 15 * 0.75
    assert score.quality == 15
    assert score.completeness == pytest.approx(11.25)  # 15 * 3/4
    assert score.efficiency == pytest.approx(7.5)  # 10 * (1 - 450/1800)
    assert score.acceptance == 0
    assert score.total == pytest.approx(86.0)


def test_nothing_built_and_no_tests_gives_only_efficiency():
    empty = measurements(
        build=BuildMeasurement(success=False), tests=TestMeasurement(),
        coverage=CoverageMeasurement(), quality=QualityMeasurement(),
        completeness=CompletenessMeasurement(missing=("a",)),
    )
    assert score_trial(empty, time_seconds=0).total == pytest.approx(10.0)


def test_verified_rubric_scales_every_seed_component_by_the_hidden_pass_rate():
    m = measurements(acceptance=AcceptanceMeasurement(tests=TestMeasurement(passed=1, failed=3)))
    seed = score_trial(m, time_seconds=0)
    verified = score_trial(m, time_seconds=0, rubric="verified")
    assert verified.rubric == "verified" and verified.scale == 0.25
    assert verified.total == pytest.approx(seed.total * 0.25)
    assert verified.build == pytest.approx(seed.build * 0.25)
    assert seed.scale == 1.0 and seed.acceptance == 0


def test_verified_rubric_needs_hidden_tests_and_gives_a_timeout_no_efficiency():
    m = measurements(acceptance=AcceptanceMeasurement(tests=TestMeasurement(passed=4)))
    assert score_trial(m, time_seconds=0, timed_out=True).efficiency == 10
    assert score_trial(m, time_seconds=0, rubric="verified", timed_out=True).efficiency == 0
    with pytest.raises(ValueError, match="needs hidden tests"):
        score_trial(measurements(acceptance=None), time_seconds=0, rubric="verified")


def test_every_rubric_adds_up_to_100():
    for rubric in RUBRICS.values():
        weights = rubric.weights
        assert math.isclose(sum(getattr(weights, f) for f in weights.__dataclass_fields__), 100)
    with pytest.raises(ValueError, match="add up to 100"):
        Weights(build=1, tests=1, coverage=1, quality=1, completeness=1, efficiency=1)


def test_breakdown_rejects_totals_over_100():
    with pytest.raises(ValueError, match="total"):
        ScoreBreakdown(rubric="seed", build=50, tests=50, coverage=15, quality=0, completeness=0,
                       efficiency=0)


@given(
    built=st.booleans(), passed=st.integers(0, 500), failed=st.integers(0, 500),
    covered=st.integers(0, 1000), extra=st.integers(0, 1000),
    cc=st.none() | st.floats(0, 100), found=st.integers(0, 10), missing=st.integers(0, 10),
    seconds=st.floats(0, 1e6), rubric=st.sampled_from(sorted(RUBRICS)),
)
def test_scores_always_stay_between_0_and_100(built, passed, failed, covered, extra, cc, found,
                                              missing, seconds, rubric):
    m = Measurements(
        build=BuildMeasurement(success=built),
        tests=TestMeasurement(passed=passed, failed=failed),
        coverage=CoverageMeasurement(covered_lines=covered, total_lines=covered + extra),
        quality=QualityMeasurement(average_complexity=cc),
        completeness=CompletenessMeasurement(found=("f",) * found, missing=("m",) * missing),
        acceptance=AcceptanceMeasurement(tests=TestMeasurement(passed=passed, failed=failed)),
    )
    total = score_trial(m, time_seconds=seconds, rubric=rubric).total
    assert 0.0 <= total <= 100.0 + 1e-9


def test_rankings_differ_compares_both_orders():
    from agentbench.scoring import rankings_differ

    assert rankings_differ({"stub": (99.0, 2.0), "real": (95.0, 90.0)})
    assert not rankings_differ({"a": (99.0, 90.0), "b": (95.0, 50.0)})
    assert not rankings_differ({"a": (99.0, None), "b": (95.0, 50.0)})


def test_verified_quality_bands_the_line_weighted_mean_and_a_too_large_file_is_the_worst_band():
    diluted = QualityMeasurement(average_complexity=1.7, weighted_complexity=27.0, functions=81)
    acceptance = AcceptanceMeasurement(tests=TestMeasurement(passed=1))
    m = measurements(quality=diluted, acceptance=acceptance)
    assert score_trial(m, time_seconds=0).quality == 15
    assert score_trial(m, time_seconds=0, rubric="verified").quality == 0
    padded = QualityMeasurement(average_complexity=1.0, weighted_complexity=1.0, unanalysed=("big.py",))
    m = measurements(quality=padded, acceptance=acceptance)
    assert score_trial(m, time_seconds=0).quality == 0
    assert score_trial(m, time_seconds=0, rubric="verified").quality == 0
