"""Scoring: the seed's weighted rubric (and the verified rubric) as pure functions of measurements.

Score = Build(25) + Tests(20) + Coverage(15) + Quality(15) + Completeness(15) + Efficiency(10)

The `verified` rubric puts working code first: every seed component is multiplied by the hidden-test
pass rate (and quality is banded by the line-weighted mean complexity, which trivial functions do not
dilute), the one measurement an agent cannot make green with weak tests of its own, so style and
speed count only for code that works; a timed-out trial earns no efficiency points. Targets it meets:
noop 0, a stub <= 10, wrong-but-green code (half the hidden tests) <= 60, a reference >= 95.
Aggregation (the mean over challenges) lives here too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import fmean
from types import MappingProxyType

from agentbench.models import (
    SCORE_COMPONENTS,
    Measurements,
    QualityMeasurement,
    ScoreBreakdown,
    TrialRecord,
)

SEED_BASELINE_SECONDS = 1800.0
"""The seed's efficiency baseline: 30 minutes."""

QUALITY_BANDS: tuple[tuple[float, float], ...] = ((5.0, 1.0), (10.0, 0.5), (20.0, 0.2))
"""(upper bound exclusive, quality ratio): < 5 -> 1.0, 5-9 -> 0.5, 10-19 -> 0.2, >= 20 -> 0.0."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Weights:
    """Maximum points per component; they add up to 100."""

    build: float
    tests: float
    coverage: float
    quality: float
    completeness: float
    efficiency: float
    acceptance: float = 0.0

    def __post_init__(self) -> None:
        total = sum(getattr(self, name) for name in SCORE_COMPONENTS)
        if not math.isclose(total, 100.0):
            raise ValueError(f"rubric weights must add up to 100, got {total}")


SEED_WEIGHTS = Weights(build=25, tests=20, coverage=15, quality=15, completeness=15, efficiency=10)
"""The seed's weights."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rubric:
    """How a trial's measurements become a score."""

    weights: Weights
    """Maximum points per component."""
    scaled_by_hidden_tests: bool = False
    """Multiply every component by the hidden-test pass rate (needs hidden tests)."""
    timeout_earns_efficiency: bool = True
    """Whether a timed-out trial may still earn efficiency points."""
    weighted_quality: bool = False
    """Band quality by the line-weighted mean complexity (not diluted by trivial functions) instead
    of the seed's plain mean."""


RUBRICS: Mapping[str, Rubric] = MappingProxyType({
    "seed": Rubric(weights=SEED_WEIGHTS),
    "verified": Rubric(weights=SEED_WEIGHTS, scaled_by_hidden_tests=True,
                       timeout_earns_efficiency=False, weighted_quality=True),
})
"""Named rubrics: the seed's (default) and the verified one (seed components x hidden pass rate,
quality by the line-weighted complexity)."""


def quality_ratio(average_complexity: float | None) -> float:
    """Map average cyclomatic complexity to the seed's quality ratio (no code scores 0)."""
    if average_complexity is None:
        return 0.0
    for bound, ratio in QUALITY_BANDS:
        if average_complexity < bound:
            return ratio
    return 0.0


def quality_of(quality: QualityMeasurement, *, weighted: bool = False) -> float:
    """The quality ratio of a measurement: the seed's plain mean (or the line-weighted mean) banded;
    any product file too large to analyse makes it the worst band."""
    if quality.unanalysed:
        return 0.0
    return quality_ratio(quality.weighted_complexity if weighted else quality.average_complexity)


def efficiency_ratio(time_seconds: float, baseline_seconds: float = SEED_BASELINE_SECONDS) -> float:
    """The seed's efficiency: max(0, 1 - time / baseline), clipped to [0, 1]."""
    if baseline_seconds <= 0:
        raise ValueError(f"baseline must be positive, got {baseline_seconds}")
    return min(1.0, max(0.0, 1.0 - time_seconds / baseline_seconds))


def score_trial(
    measurements: Measurements,
    *,
    time_seconds: float,
    baseline_seconds: float = SEED_BASELINE_SECONDS,
    rubric: str = "seed",
    timed_out: bool = False,
) -> ScoreBreakdown:
    """Weigh one trial's measurements into a 0-100 score, keeping each component.

    Raises ValueError for the verified rubric when the challenge has no hidden tests.
    """
    spec = RUBRICS[rubric]
    weights = spec.weights
    scale = 1.0
    if spec.scaled_by_hidden_tests:
        if measurements.acceptance is None:
            raise ValueError(f"the {rubric} rubric needs hidden tests; this challenge has none")
        scale = measurements.acceptance.tests.pass_rate
        if measurements.acceptance.sets is not None and not measurements.acceptance.sets.resolved:
            scale = 0.0  # NOTE: a change counts only when every FAIL_TO_PASS and PASS_TO_PASS passes
    efficiency = efficiency_ratio(time_seconds, baseline_seconds)
    if timed_out and not spec.timeout_earns_efficiency:
        efficiency = 0.0
    acceptance = measurements.acceptance
    return ScoreBreakdown(
        rubric=rubric,
        build=scale * weights.build * (1.0 if measurements.build.success else 0.0),
        tests=scale * weights.tests * measurements.tests.pass_rate,
        coverage=scale * weights.coverage * measurements.coverage.ratio,
        quality=scale * weights.quality * quality_of(measurements.quality, weighted=spec.weighted_quality),
        completeness=scale * weights.completeness * measurements.completeness.ratio,
        efficiency=scale * weights.efficiency * efficiency,
        acceptance=weights.acceptance * (acceptance.tests.pass_rate if acceptance else 0.0),
        scale=scale,
    )


def trial_score(trial: TrialRecord, rubric: str | None = None) -> ScoreBreakdown | None:
    """The trial's score under `rubric` (`seed`, `verified`; None: the run's own rubric)."""
    if rubric is None:
        return trial.score
    return {"seed": trial.seed_score, "verified": trial.verified_score}.get(rubric)


def challenge_means(trials: Iterable[TrialRecord], rubric: str | None = None) -> dict[str, float]:
    """Mean score per challenge over its scored trials, in first-seen order (see `trial_score`)."""
    scores: dict[str, list[float]] = {}
    for trial in trials:
        score = trial_score(trial, rubric)
        if trial.scored and score is not None:
            scores.setdefault(trial.challenge_id, []).append(score.total)
    return {cid: fmean(values) for cid, values in scores.items()}


def aggregate_score(trials: Iterable[TrialRecord], rubric: str | None = None) -> float | None:
    """The seed's aggregate: the arithmetic mean over challenges (None when nothing was scored)."""
    means = challenge_means(trials, rubric)
    return fmean(means.values()) if means else None


def rankings_differ(aggregates: Mapping[str, tuple[float | None, float | None]]) -> bool:
    """Whether ordering agents by their first aggregate differs from ordering them by their second."""
    both = {agent: pair for agent, pair in aggregates.items() if None not in pair}

    def order(i: int) -> list[str]:
        return sorted(both, key=lambda agent: (-(both[agent][i] or 0.0), agent))

    return len(both) > 1 and order(0) != order(1)
