"""build_comparison: aggregates, intervals, verdicts and notes, on records built in memory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest
from scipy import stats as sps

from agentbench.comparison import CompareOptions, build_comparison, tier_of
from agentbench.errors import ResultsFileError
from agentbench.models import (
    AcceptanceMeasurement,
    AdapterResult,
    BuildMeasurement,
    CompletenessMeasurement,
    CoverageMeasurement,
    Measurements,
    QualityMeasurement,
    RunRecord,
    ScoreBreakdown,
    TestMeasurement,
    TrialRecord,
    TrialStatus,
)
from agentbench.scoring import RUBRICS, aggregate_score

SEED_A = {"easy/password-gen": [91.4], "easy/todo-api": [84.9], "easy/markdown-parser": [72.0]}
SEED_B = {"easy/password-gen": [78.1], "easy/todo-api": [70.0], "easy/markdown-parser": [74.5]}


def breakdown(total: float, rubric: str = "seed") -> ScoreBreakdown:
    """A breakdown whose components are the rubric's weights scaled to `total`."""
    w = RUBRICS[rubric].weights
    f = total / 100.0
    return ScoreBreakdown(rubric=rubric, build=w.build * f, tests=w.tests * f,
                          coverage=w.coverage * f, quality=w.quality * f,
                          completeness=w.completeness * f, efficiency=w.efficiency * f,
                          acceptance=w.acceptance * f)


def make_trial(agent: str, challenge: str, n: int, score: float | None, *,
               solved: bool | None = None, status: TrialStatus = TrialStatus.COMPLETED,
               rubric: str = "seed", cost: float | None = None, seconds: float = 60.0) -> TrialRecord:
    acceptance = None if solved is None else AcceptanceMeasurement(
        tests=TestMeasurement(passed=10 if solved else 4, failed=0 if solved else 6))
    measurements = Measurements(
        build=BuildMeasurement(success=True), tests=TestMeasurement(passed=1),
        coverage=CoverageMeasurement(), quality=QualityMeasurement(),
        completeness=CompletenessMeasurement(), acceptance=acceptance)
    scored = score is not None and status not in (TrialStatus.INFRA_ERROR,
                                                  TrialStatus.VERIFIER_ERROR)
    return TrialRecord(
        agent=agent, challenge_id=challenge, trial=n, status=status,
        adapter=AdapterResult(time_taken_seconds=seconds, prompts_used=1, success=True,
                              cost_usd=cost, input_tokens=1000 if cost else None),
        measurements=measurements,
        seed_score=breakdown(score) if scored and score is not None else None,
        score=breakdown(score, rubric) if scored and score is not None else None,
        started_at="2026-01-01T00:00:00+00:00", duration_s=seconds + 5,
        logs_dir=f"trials/{agent}/{challenge}/trial-{n}",
    )


def make_run(agent: str, scores: Mapping[str, Sequence[float]], *,
             hidden: Mapping[str, Sequence[bool]] | None = None, rubric: str = "seed",
             run_id: str = "run-1", cost: float | None = None) -> RunRecord:
    """A run record with the given trial scores per challenge (and hidden-test outcomes)."""
    trials = tuple(
        make_trial(agent, cid, i + 1, s, rubric=rubric, cost=cost,
                   solved=(hidden or {}).get(cid, [None] * len(values))[i])
        for cid, values in scores.items() for i, s in enumerate(values))
    return RunRecord(agent=agent, run_id=run_id, rubric=rubric,
                     created_at="2026-01-01T00:00:00+00:00", agentbench_version="0.1.0",
                     trials=trials)


def seed_runs() -> list[RunRecord]:
    return [make_run("claude-code", SEED_A), make_run("codex", SEED_B)]


NOISY_A = {"easy/a": [70.0, 75.0, 80.0], "easy/b": [60.0, 62.0, 65.0],
           "medium/c": [50.0, 58.0, 55.0], "hard/d": [40.0, 45.0, 38.0]}
NOISY_B = {"easy/a": [65.0, 68.0, 70.0], "easy/b": [58.0, 55.0, 60.0],
           "medium/c": [45.0, 50.0, 47.0], "hard/d": [35.0, 30.0, 36.0]}


def test_aggregate_is_the_seeds_mean_over_challenges():
    c = build_comparison(seed_runs())
    a, b = c.agents
    assert a.aggregate == pytest.approx(aggregate_score(seed_runs()[0].trials))
    assert round(a.aggregate, 1) == 82.8 and round(b.aggregate, 1) == 74.2
    assert c.challenges == ("easy/password-gen", "easy/todo-api", "easy/markdown-parser")
    assert a.interval is None  # one trial per challenge: no interval, and a note says so
    assert any("single scored trial" in n for n in c.notes)


def test_components_add_up_to_the_aggregate():
    c = build_comparison([make_run("x", NOISY_A)])
    (a,) = c.agents
    assert sum(v for _, v in a.components) == pytest.approx(a.aggregate)
    assert c.notes[-1].startswith("one results file")


def test_aggregate_interval_and_per_cell_spread():
    c = build_comparison([make_run("a", NOISY_A)])
    (a,) = c.agents
    cell = c.cell("a", "easy/a")
    assert cell.summary.sd == pytest.approx(np.std([70, 75, 80], ddof=1))
    assert a.interval.low < a.aggregate < a.interval.high
    assert a.trials_per_challenge == 3 and a.trials == 12


def test_clear_winner_is_named_with_interval_and_p_value():
    c = build_comparison([make_run("a", NOISY_A), make_run("b", NOISY_B)])
    (v,) = c.verdicts
    diffs = [np.mean(NOISY_A[k]) - np.mean(NOISY_B[k]) for k in NOISY_A]
    assert v.difference == pytest.approx(np.mean(diffs))
    assert v.winner == "a" and v.p_value < 0.05 and not v.interval.contains(0.0)
    assert v.text.startswith(f"a is ahead of b by {v.difference:.1f} points, 95% CI ")
    assert "p<0.001" in v.text or "p=0.0" in v.text


def test_no_winner_when_the_difference_does_not_hold():
    close = {k: [s + d for s, d in zip(v, (3.0, -4.0, 1.5), strict=True)]
             for k, v in NOISY_A.items()}
    c = build_comparison([make_run("a", NOISY_A), make_run("b", close)])
    (v,) = c.verdicts
    assert v.winner is None and v.p_value > 0.05
    assert v.text.startswith("no significant difference between a and b at 3 trials per challenge")


def test_one_challenge_difference_matches_welch_and_holm_adjusts_three_pairs():
    a = make_run("a", {"easy/x": [70.0, 72.0, 75.0, 71.0]})
    b = make_run("b", {"easy/x": [60.0, 65.0, 61.0, 63.0]})
    d = make_run("d", {"easy/x": [69.0, 74.0, 70.0, 72.0]})
    c = build_comparison([a, b, d])
    ab = c.verdicts[0]
    expected = sps.ttest_ind([70, 72, 75, 71], [60, 65, 61, 63], equal_var=False)
    ci = expected.confidence_interval()
    assert (ab.interval.low, ab.interval.high) == pytest.approx((ci.low, ci.high))
    assert len(c.verdicts) == 3
    assert ab.p_adjusted >= ab.p_value and "Holm-adjusted over 3 pairs" in ab.text


def test_hidden_tests_compared_with_mcnemar_over_paired_trials():
    hidden_a = {k: [True, True, True] for k in NOISY_A}
    hidden_b = {k: [False, True, False] for k in NOISY_B}
    c = build_comparison([make_run("a", NOISY_A, hidden=hidden_a),
                          make_run("b", NOISY_B, hidden=hidden_b)])
    h = c.verdicts[0].hidden
    assert (h.a_only, h.b_only, h.both, h.neither) == (8, 0, 4, 0)
    assert h.p_value == pytest.approx(sps.binomtest(8, 8, 0.5).pvalue)
    assert h.winner == "a"
    a, b = c.agents
    assert dict(a.pass_at)[1] == 1.0
    assert dict(b.pass_at)[1] == pytest.approx(1 / 3) and dict(b.pass_at)[3] == 1.0
    assert (b.solved, b.attempts) == (4, 12)


def test_power_estimate_is_attached_when_asked():
    c = build_comparison([make_run("a", NOISY_A), make_run("b", NOISY_B)],
                         options=CompareOptions(power_gap=5.0))
    power = c.verdicts[0].power
    assert power.gap == 5.0 and power.trials_now == 3 and power.trials_needed >= 1
    assert "to detect a 5-point gap between a and b with 80% power" in c.verdicts[0].power_text
    single = build_comparison(seed_runs(), options=CompareOptions(power_gap=5.0))
    assert single.verdicts[0].power.trials_needed is None
    assert "2 or more trials" in single.verdicts[0].power_text


def test_different_challenges_give_a_note_and_shared_ones_are_compared():
    a = make_run("a", NOISY_A)
    b = make_run("b", {k: v for k, v in NOISY_B.items() if k != "hard/d"})
    c = build_comparison([a, b])
    assert c.verdicts[0].challenges == 3
    assert any("a also has 1 challenge(s) the others lack: hard/d" in n for n in c.notes)
    assert any("not like for like" in n for n in c.notes)


def test_disjoint_challenges_are_an_error():
    with pytest.raises(ResultsFileError, match="share no challenge"):
        build_comparison([make_run("a", {"easy/x": [1.0]}), make_run("b", {"easy/y": [2.0]})],
                         sources=["a.json", "b.json"])


def test_same_results_twice_is_an_error_but_two_runs_of_one_agent_are_labelled():
    with pytest.raises(ResultsFileError, match="given twice"):
        build_comparison([make_run("a", NOISY_A), make_run("a", NOISY_B)])
    c = build_comparison([make_run("a", NOISY_A, run_id="r1"), make_run("a", NOISY_B, run_id="r2")])
    assert [x.label for x in c.agents] == ["a (r1)", "a (r2)"]


def test_mixed_rubrics_are_compared_on_the_seed_rubric():
    c = build_comparison([make_run("a", NOISY_A, rubric="verified"), make_run("b", NOISY_B)])
    assert c.rubric == "seed"
    assert any("different rubrics" in n for n in c.notes)
    assert c.agents[0].aggregate == pytest.approx(np.mean([np.mean(v) for v in NOISY_A.values()]))


def test_infra_errors_are_left_out_and_noted():
    run = make_run("a", NOISY_A)
    broken = make_trial("a", "easy/a", 4, None, status=TrialStatus.INFRA_ERROR)
    run = RunRecord(agent=run.agent, run_id=run.run_id, rubric=run.rubric,
                    created_at=run.created_at, agentbench_version="0.1.0",
                    trials=(*run.trials, broken))
    c = build_comparison([run])
    assert c.agents[0].trials == 12
    assert any("1 trial(s) left out of the scores (1 infra_error)" in n for n in c.notes)
    assert dict(c.agents[0].statuses) == {"completed": 12, "infra_error": 1}


def test_agent_without_scores_has_no_score_and_no_verdict():
    empty = RunRecord(agent="z", run_id="r", rubric="seed", created_at="2026-01-01T00:00:00+00:00",
                      agentbench_version="0.1.0",
                      trials=(make_trial("z", "easy/a", 1, None, status=TrialStatus.INFRA_ERROR),))
    c = build_comparison([make_run("a", NOISY_A), empty])
    assert c.agents[1].aggregate is None and c.verdicts == ()
    assert any("z has no scored trial" in n for n in c.notes)


def test_tiers_cost_and_time():
    c = build_comparison([make_run("a", NOISY_A, cost=0.5), make_run("b", NOISY_B)])
    a, b = c.agents
    assert [t.tier for t in a.tiers] == ["easy", "medium", "hard"] == list(c.tiers)
    assert a.tiers[0].score == pytest.approx(np.mean([np.mean(NOISY_A["easy/a"]),
                                                      np.mean(NOISY_A["easy/b"])]))
    assert a.total_cost_usd == pytest.approx(6.0) and a.mean_cost_usd == pytest.approx(0.5)
    assert b.total_cost_usd is None and a.mean_time_s == 60.0
    assert a.mean_input_tokens == 1000 and b.mean_input_tokens is None
    assert tier_of("custom") == "other"


def test_verdicts_are_reproducible():
    runs = [make_run("a", NOISY_A), make_run("b", NOISY_B)]
    assert build_comparison(runs) == build_comparison(runs)
