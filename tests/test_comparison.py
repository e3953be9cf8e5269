"""build_comparison: aggregates, intervals, verdicts and notes, on records built in memory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
import pytest
from scipy import stats as sps

from agentbench.comparison import (
    CompareOptions,
    build_comparison,
    fixed,
    format_interval,
    signed,
    tier_of,
)
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
from agentbench.stats import Interval

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
               rubric: str = "seed", cost: float | None = None, seconds: float = 60.0,
               version: str | None = None) -> TrialRecord:
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
                              cost_usd=cost, input_tokens=1000 if cost else None,
                              version=version),
        measurements=measurements,
        seed_score=breakdown(score) if scored and score is not None else None,
        score=breakdown(score, rubric) if scored and score is not None else None,
        started_at="2026-01-01T00:00:00+00:00", duration_s=seconds + 5,
        logs_dir=f"trials/{agent}/{challenge}/trial-{n}",
    )


def make_run(agent: str, scores: Mapping[str, Sequence[float]], *,
             hidden: Mapping[str, Sequence[bool]] | None = None, rubric: str = "seed",
             run_id: str = "run-1", cost: float | None = None,
             version: str | None = None) -> RunRecord:
    """A run record with the given trial scores per challenge (and hidden-test outcomes)."""
    trials = tuple(
        make_trial(agent, cid, i + 1, s, rubric=rubric, cost=cost, version=version,
                   solved=(hidden or {}).get(cid, [None] * len(values))[i])
        for cid, values in scores.items() for i, s in enumerate(values))
    return RunRecord(agent=agent, run_id=run_id, rubric=rubric,
                     created_at="2026-01-01T00:00:00+00:00", agentbench_version="0.1.0",
                     trials=trials)


def seed_runs() -> list[RunRecord]:
    return [make_run("claude-code", SEED_A), make_run("codex", SEED_B)]


NOISY_A = {"easy/a": [70.0, 75.0, 80.0], "easy/b": [60.0, 62.0, 65.0],
           "easy/e": [88.0, 84.0, 90.0], "medium/c": [50.0, 58.0, 55.0],
           "medium/f": [66.0, 61.0, 70.0], "medium/g": [72.0, 75.0, 69.0],
           "hard/d": [40.0, 45.0, 38.0], "hard/h": [30.0, 36.0, 33.0]}
NOISY_B = {"easy/a": [65.0, 68.0, 70.0], "easy/b": [58.0, 55.0, 60.0],
           "easy/e": [80.0, 82.0, 79.0], "medium/c": [45.0, 50.0, 47.0],
           "medium/f": [60.0, 62.0, 58.0], "medium/g": [70.0, 66.0, 64.0],
           "hard/d": [35.0, 30.0, 36.0], "hard/h": [28.0, 25.0, 30.0]}
"""Eight challenges on which A is ahead of B on every one (enough for a verdict among 3 pairs)."""


def cell_means(scores: Mapping[str, Sequence[float]]) -> list[float]:
    return [float(np.mean(v)) for v in scores.values()]


# --- aggregates and intervals ---------------------------------------------------------------------

def test_aggregate_is_the_seeds_mean_over_challenges():
    c = build_comparison(seed_runs())
    a, b = c.agents
    assert a.aggregate == pytest.approx(aggregate_score(seed_runs()[0].trials))
    assert round(a.aggregate, 1) == 82.8 and round(b.aggregate, 1) == 74.2
    assert c.challenges == ("easy/password-gen", "easy/todo-api", "easy/markdown-parser")
    assert (a.rank, b.rank) == (1, 2) and [x.label for x in c.ranked] == ["claude-code", "codex"]


def test_interval_is_a_t_interval_over_challenges_even_with_one_trial_each():
    c = build_comparison(seed_runs())
    ci = c.agents[0].interval
    means = list(SEED_A_means := [91.4, 84.9, 72.0])
    low, high = sps.t.interval(0.95, len(means) - 1, loc=np.mean(means), scale=sps.sem(means))
    assert (ci.low, ci.high, ci.df) == pytest.approx((max(low, 0.0), min(high, 100.0), 2))  # cut to 0-100
    assert SEED_A_means and not any("single scored trial" in n for n in c.notes)
    assert c.view == "challenges" and c.population == "over challenges like these"


def test_components_add_up_to_the_aggregate():
    c = build_comparison([make_run("x", NOISY_A)])
    (a,) = c.agents
    assert sum(v for _, v in a.components) == pytest.approx(a.aggregate)
    assert c.notes[-1].startswith("one results file")


def test_conditional_view_interval_is_welch_over_trials():
    c = build_comparison([make_run("a", NOISY_A)], options=CompareOptions(
        condition_on_challenges=True))
    (a,) = c.agents
    v = np.array([np.var(x, ddof=1) / len(x) for x in NOISY_A.values()]) / len(NOISY_A) ** 2
    df = v.sum() ** 2 / np.sum(v**2 / 2)
    half = sps.t.ppf(0.975, df) * np.sqrt(v.sum())
    centre = np.mean(cell_means(NOISY_A))
    assert (a.interval.low, a.interval.high) == pytest.approx((centre - half, centre + half))
    assert c.population == "on these 8 challenges only"
    assert a.trials_per_challenge == 3 == a.trials_most and a.trials == 24


# --- verdicts -------------------------------------------------------------------------------------

def test_clear_winner_is_named_with_interval_p_value_and_record():
    c = build_comparison([make_run("a", NOISY_A), make_run("b", NOISY_B)])
    (v,) = c.verdicts
    diffs = np.subtract(cell_means(NOISY_A), cell_means(NOISY_B))
    ci = sps.ttest_1samp(diffs, 0.0).confidence_interval(0.95)
    assert v.score.difference == pytest.approx(np.mean(diffs))
    assert (v.score.interval.low, v.score.interval.high) == pytest.approx((ci.low, ci.high))
    assert v.score.p_value == pytest.approx(sps.ttest_1samp(diffs, 0.0).pvalue)  # paired t
    assert v.winner == "a" and (v.score.wins, v.score.losses, v.score.ties) == (8, 0, 0)
    assert v.text.startswith(f"a is ahead of b by {v.score.difference:.1f} points over "
                             "challenges like these (95% CI ")
    assert "a ahead on 8 of 8 shared challenges, behind on 0" in v.text


def test_equal_on_average_but_different_per_challenge_names_no_winner():
    # B loses on 10 of 13 challenges but wins big on 3: on these challenges only (the conditional
    # view) B's edge is real, for challenges like these it is not.
    base = [50.0 + 3 * i for i in range(13)]
    edge = [-2.0] * 10 + [12.0, 11.0, 10.0]
    a = {f"easy/c{i}": [x - 1, x, x + 1] for i, x in enumerate(base)}
    b = {f"easy/c{i}": [x + e - 1, x + e, x + e + 1] for i, (x, e) in enumerate(
        zip(base, edge, strict=True))}
    runs = [make_run("a", a), make_run("b", b)]
    (v,) = build_comparison(runs).verdicts
    assert v.winner is None and v.score.p_value > 0.3
    assert "b ahead" not in v.text and "a ahead on 10 of 13 shared challenges, behind on 3" in v.text
    (cond,) = build_comparison(runs, options=CompareOptions(condition_on_challenges=True)).verdicts
    assert not cond.score.interval.contains(0.0) and "on these 13 shared challenges only" in cond.text


def test_too_few_challenges_cannot_give_a_verdict_and_says_so():
    four = {k: NOISY_A[k] for k in list(NOISY_A)[:5]}
    c = build_comparison([make_run("a", four), make_run("b", {k: NOISY_B[k] for k in four})])
    (v,) = c.verdicts
    assert not v.score.decidable and v.winner is None
    assert v.score.interval is None and v.score.blocked_by == "informative"
    assert v.text.startswith("no verdict between a and b: too few informative challenges: the "
                             "scores differ on 5 of 5 shared challenges (a verdict needs at least 6")
    assert any("needs at least 6 shared challenges on which" in n for n in c.notes)


def test_one_shared_challenge_is_never_significant():
    a = make_run("a", {"easy/x": [70.0, 72.0, 75.0, 71.0]})
    b = make_run("b", {"easy/x": [60.0, 65.0, 61.0, 63.0]})
    (v,) = build_comparison([a, b]).verdicts
    assert v.winner is None and not v.score.decidable and v.score.interval is None
    assert "the scores differ on 1 of 1 shared challenge (a verdict needs at least 6" in v.text


def test_conditional_one_challenge_is_welch_and_holm_adjusts_three_pairs():
    a = make_run("a", {"easy/x": [70.0, 72.0, 75.0, 71.0]})
    b = make_run("b", {"easy/x": [60.0, 65.0, 61.0, 63.0]})
    d = make_run("d", {"easy/x": [69.0, 74.0, 70.0, 72.0]})
    c = build_comparison([a, b, d], options=CompareOptions(condition_on_challenges=True))
    ab, ad, _ = c.verdicts
    welch = sps.ttest_ind([70, 72, 75, 71], [60, 65, 61, 63], equal_var=False)
    assert ab.score.p_value == pytest.approx(welch.pvalue)
    assert len(c.verdicts) == 3 and ab.score.family == 3
    assert ab.score.p_adjusted == pytest.approx(3 * welch.pvalue)
    # a-b is rejected at Holm's first step, so its interval is drawn at 1 - 0.05/3 and excludes 0
    ci = welch.confidence_interval(1 - 0.05 / 3)
    assert (ab.score.interval.low, ab.score.interval.high) == pytest.approx((ci.low, ci.high))
    assert ab.winner == "a" and ab.text.startswith("a is ahead of b by 9.8 points on these 1 ")
    assert "98.3% CI" in ab.text
    # a-d is not rejected: its interval is Bonferroni's (1 - 0.05/3) and contains 0
    assert ad.winner is None and ad.score.interval.contains(0.0)
    assert ad.score.interval.confidence == pytest.approx(1 - 0.05 / 3)


def test_hidden_tests_are_paired_by_challenge_and_use_every_trial():
    hidden_a = {k: [True, True, True] for k in NOISY_A}
    hidden_b = {k: [False, True, False] for k in NOISY_B}
    hidden_b["easy/a"] = [True, True]  # unequal trial counts: nothing is dropped
    short_b = {**NOISY_B, "easy/a": NOISY_B["easy/a"][:2]}
    c = build_comparison([make_run("a", NOISY_A, hidden=hidden_a),
                          make_run("b", short_b, hidden=hidden_b)])
    h = c.verdicts[0].hidden
    rates_b = [1.0] + [1 / 3] * 7
    assert (h.a_value, h.b_value) == pytest.approx((1.0, np.mean(rates_b)))
    diffs = np.subtract([1.0] * 8, rates_b)
    assert h.p_value == pytest.approx(sps.ttest_1samp(diffs, 0.0).pvalue)
    ci = sps.ttest_1samp(diffs, 0.0).confidence_interval()
    assert (h.interval.low, h.interval.high) == pytest.approx((ci.low, ci.high))
    assert (h.wins, h.losses, h.ties) == (7, 0, 1) and h.winner == "a"
    assert c.verdicts[0].hidden_text.startswith(
        "a passes every hidden test more often than b over challenges like these: 100% against "
        "42% of trials per challenge")
    a, b = c.agents
    assert dict(a.pass_at)[1] == 1.0 and (b.solved, b.attempts) == (9, 23)


def test_every_family_is_holm_corrected_and_no_uncorrected_verdict_is_printed():
    # Four agents; a beats the others on hidden tests in 6 of 8 challenges each: p = 0.0625 raw,
    # so nothing survives; and scores nearly tied.
    runs = []
    for name, shift in (("a", 0.0), ("b", 0.4), ("c", -0.3), ("d", 0.2)):
        solved = {k: [name == "a" or i >= 6] * 3 for i, k in enumerate(NOISY_A)}
        runs.append(make_run(name, {k: [s + shift for s in v] for k, v in NOISY_A.items()},
                             hidden=solved))
    c = build_comparison(runs)
    assert len(c.verdicts) == 6
    for v in c.verdicts:
        for test in (v.score, v.hidden):
            assert test.family == 6 and test.p_adjusted >= test.p_value
            assert test.winner is None or test.p_adjusted < 0.05
        assert "Holm-adjusted over 6 pairs" in v.text
        assert "Holm-adjusted over 6 pairs" in v.hidden_text or v.hidden.blocked_by


def test_power_estimate_accounts_for_challenges_trials_and_correction():
    runs = [make_run("a", NOISY_A), make_run("b", NOISY_B), make_run("c", NOISY_B, run_id="r2")]
    c = build_comparison(runs, options=CompareOptions(power_gap=5.0))
    power = c.verdicts[0].power
    assert power.pairs == 3 and power.challenges_now == 8 and power.trials_now == 3
    assert power.gap == 5.0 and 0.0 <= power.power_now <= 1.0
    text = c.verdicts[0].power_text
    assert text.startswith("to detect a 5-point gap between a and b with 80% power (alpha 0.05 "
                           "over 3 pairs, 0.017 each): power now about 100% with 8 challenges and "
                           "3 trials each, enough")
    small = build_comparison(runs, options=CompareOptions(power_gap=0.5)).verdicts[0]
    assert small.power.power_now < 0.8 and small.power.better in ("trials", "challenges")
    assert f"{small.power.challenges_needed} challenges at 3 trials each" in small.power_text


def test_power_says_what_is_unknown_with_one_trial_per_challenge():
    firsts = [make_run(name, {k: v[:1] for k, v in scores.items()})
              for name, scores in (("a", NOISY_A), ("b", NOISY_B))]
    c = build_comparison(firsts, options=CompareOptions(power_gap=1.0))
    power = c.verdicts[0].power
    assert power.trials_needed is None and power.within_sd is None
    assert power.power_now is not None and power.challenges_needed is not None
    assert "the effect of more trials is unknown until some cell has 2 trials" in \
        c.verdicts[0].power_text


# --- edges ----------------------------------------------------------------------------------------

def test_a_single_trial_cell_still_counts_and_the_message_is_right():
    run = make_run("a", NOISY_A)
    kept = tuple(t for t in run.trials if not (t.challenge_id == "easy/a" and t.trial > 1))
    broken = tuple(make_trial("a", "easy/a", n, None, status=TrialStatus.INFRA_ERROR)
                   for n in (2, 3))
    run = replace(run, trials=kept + broken)
    for conditional in (False, True):
        c = build_comparison([run, make_run("b", NOISY_B)],
                             options=CompareOptions(condition_on_challenges=conditional,
                                                    power_gap=5))
        a = c.agents[0]
        assert a.interval is not None and a.single_trial_challenges == ("easy/a",)
        assert c.verdicts[0].score.interval is not None and c.verdicts[0].power.power_now is not None
        assert any("a: 1 challenge(s) have a single scored trial (easy/a); each still counts with "
                   "its one score" in n for n in c.notes)
        assert not any("--trials 2" in n for n in c.notes)
        assert "1-3 trials per challenge" in c.verdicts[0].text or c.verdicts[0].winner


def test_every_cell_single_in_the_conditional_view_says_run_more_trials():
    c = build_comparison(seed_runs(), options=CompareOptions(condition_on_challenges=True))
    assert c.agents[0].interval is None
    assert any("every challenge has a single scored trial" in n and "--trials 2" in n
               for n in c.notes)


def test_zero_width_intervals_are_marked_and_no_negative_zero():
    flat = {k: [80.0, 80.0, 80.0] for k in NOISY_A}
    c = build_comparison([make_run("a", flat), make_run("b", flat, run_id="r2")])
    a = c.agents[0]
    assert a.interval.zero_width
    assert format_interval(a.interval) == "95% CI 80.0 to 80.0 (zero width: nothing varied)"
    assert "-0.0" not in c.verdicts[0].text and "0.0 points" in c.verdicts[0].text
    assert fixed(-0.04) == "0.0" and signed(-0.04) == "0.0" and signed(0.06) == "+0.1"
    narrow = Interval(low=99.96, high=100.0, confidence=0.95, df=12)
    assert format_interval(narrow) == "95% CI 99.96 to 100.00"


def test_different_challenges_give_a_note_and_shared_ones_are_compared():
    a = make_run("a", NOISY_A)
    b = make_run("b", {k: v for k, v in NOISY_B.items() if k != "hard/d"})
    c = build_comparison([a, b])
    assert c.verdicts[0].score.challenges == 7
    assert any("b has no score on 1 challenge(s) others have: hard/d" in n for n in c.notes)
    assert any("not like for like" in n for n in c.notes)


def test_an_agent_that_lost_its_hardest_challenges_to_infra_errors_is_not_ranked_first():
    # a trails b by 1.5 on every shared challenge, but its two hardest ended in infra_error: its
    # own mean (over the easier rest) is higher than b's.
    base = {f"easy/c{i}": 40.0 + 5 * i for i in range(10)}
    b_scores = {k: [v, v + 1, v - 1] for k, v in base.items()}
    a_scores = {k: [v - 1.5, v - 0.5, v - 2.5] for k, v in base.items() if k not in
                ("easy/c0", "easy/c1")}
    run_a = make_run("a", a_scores)
    broken = tuple(make_trial("a", cid, n, None, status=TrialStatus.INFRA_ERROR)
                   for cid in ("easy/c0", "easy/c1") for n in (1, 2, 3))
    c = build_comparison([replace(run_a, trials=(*run_a.trials, *broken)), make_run("b", b_scores)])
    a, b = c.agents
    assert a.aggregate > b.aggregate  # its own mean flatters it...
    assert b.rank == 1 and a.rank == 2  # ...but the ranking is like for like
    assert a.rank_score == pytest.approx(b.rank_score - 1.5)
    assert a.missing_challenges == ("easy/c0", "easy/c1")
    assert a.rank_notes[0].startswith("no score on 2 of 10 challenges (easy/c0: infra_error; "
                                      "easy/c1: infra_error)")
    assert [x.label for x in c.ranked] == ["b", "a"]


def test_every_agent_on_every_challenge_ranks_by_the_aggregate():
    c = build_comparison([make_run("a", NOISY_A), make_run("b", NOISY_B)])
    for agent in c.agents:
        assert agent.rank_score == pytest.approx(agent.aggregate)
        assert agent.rank_notes == () and agent.missing_challenges == ()


def test_ranked_above_an_agent_it_trails_on_the_shared_set_says_so_in_its_line():
    # Three agents, b lacks two challenges: no order can agree with every pair's shared set, so
    # any agent ranked above one it trails there carries a note naming that agent.
    ids = [f"easy/c{i}" for i in range(6)]
    a = dict(zip(ids, ([51.0], [87.0], [76.0], [75.0], [62.0], [89.0]), strict=True))
    b = dict(zip(ids[:4], ([57.0], [62.0], [83.0], [88.0]), strict=True))
    d = dict(zip(ids[2:], ([72.0], [42.0], [49.0], [48.0]), strict=True))
    c = build_comparison([make_run("a", a), make_run("b", b), make_run("d", d)])
    rank = {x.label: x.rank for x in c.agents}
    assert [x.label for x in c.ranked] == ["a", "b", "d"]
    assert c.agents[0].rank_notes == ("ranked above b yet behind it by 0.2 points on their 4 "
                                      "shared challenges (not significant)",)
    for v in c.verdicts:
        for me, other, diff in ((v.a, v.b, v.score.difference), (v.b, v.a, -v.score.difference)):
            if rank[me] < rank[other] and diff < 0:
                notes = next(x.rank_notes for x in c.agents if x.label == me)
                assert any(f"ranked above {other} yet behind it" in n for n in notes), notes


def test_disjoint_challenges_are_an_error():
    with pytest.raises(ResultsFileError, match="share no challenge"):
        build_comparison([make_run("a", {"easy/x": [1.0]}), make_run("b", {"easy/y": [2.0]})],
                         sources=["a.json", "b.json"])


def test_labels_tell_runs_of_one_agent_apart_by_model_then_version_then_run():
    with pytest.raises(ResultsFileError, match="given twice"):
        build_comparison([make_run("a", NOISY_A), make_run("a", NOISY_A)])
    same_id = build_comparison([make_run("a", NOISY_A), make_run("a", NOISY_B)],
                               sources=["x/one/a.json", "x/two/a.json"])
    assert [x.label for x in same_id.agents] == ["a · run-1 · one", "a · run-1 · two"]
    two_models = build_comparison([make_run("a", NOISY_A, run_id="r1"),
                                   make_run("a", NOISY_B, run_id="r2")], models=["big", None])
    assert [x.label for x in two_models.agents] == ["a · big", "a · default model"]
    versions = build_comparison([make_run("a", NOISY_A, run_id="r1", version="1.0"),
                                 make_run("a", NOISY_B, run_id="r2", version="2.0"),
                                 make_run("b", NOISY_B)])
    assert [x.label for x in versions.agents] == ["a · 1.0", "a · 2.0", "b"]
    assert versions.agents[0].cli_version == "1.0" and versions.agents[2].cli_version is None
    runs = build_comparison([make_run("a", NOISY_A, run_id="r1"),
                             make_run("a", NOISY_B, run_id="r2")])
    assert [x.label for x in runs.agents] == ["a · r1", "a · r2"]


def test_mixed_rubrics_are_compared_on_the_seed_rubric():
    c = build_comparison([make_run("a", NOISY_A, rubric="verified"), make_run("b", NOISY_B)])
    assert c.rubric == "seed" and c.score_field == "seed_score"
    assert any("different rubrics" in n for n in c.notes)
    assert c.agents[0].aggregate == pytest.approx(np.mean(cell_means(NOISY_A)))


def test_the_score_field_to_read_is_an_option():
    verified = [make_run("a", NOISY_A, rubric="verified"), make_run("b", NOISY_B, rubric="verified")]
    assert build_comparison(verified).score_field == "score"
    seed = build_comparison(verified, options=CompareOptions(score="seed_score"))
    assert seed.rubric == "seed" and seed.score_field == "seed_score"
    with pytest.raises(ValueError, match="score must be one of"):
        CompareOptions(score="bogus")


def test_infra_errors_are_left_out_and_noted():
    run = make_run("a", NOISY_A)
    broken = make_trial("a", "easy/a", 4, None, status=TrialStatus.INFRA_ERROR)
    c = build_comparison([replace(run, trials=(*run.trials, broken))])
    assert c.agents[0].trials == 24
    assert any("1 trial(s) left out of the scores (1 infra_error)" in n for n in c.notes)
    assert dict(c.agents[0].statuses) == {"completed": 24, "infra_error": 1}


def test_agent_without_scores_has_no_score_and_no_verdict():
    empty = RunRecord(agent="z", run_id="r", rubric="seed", created_at="2026-01-01T00:00:00+00:00",
                      agentbench_version="0.1.0",
                      trials=(make_trial("z", "easy/a", 1, None, status=TrialStatus.INFRA_ERROR),))
    c = build_comparison([make_run("a", NOISY_A), empty])
    assert c.agents[1].aggregate is None and c.agents[1].rank is None and c.verdicts == ()
    assert any("z has no scored trial" in n for n in c.notes)


def test_tiers_time_cost_medians_and_points_per_dollar():
    run = make_run("a", NOISY_A, cost=0.5)
    timed = replace(run, trials=tuple(
        replace(t, adapter=replace(t.adapter, time_taken_seconds=float(i), cost_usd=0.1 * (i + 1)))
        for i, t in enumerate(run.trials)))
    c = build_comparison([timed, make_run("b", NOISY_B)])
    a, b = c.agents
    times, costs = np.arange(24.0), 0.1 * np.arange(1, 25)
    assert (a.median_time_s, a.p90_time_s) == pytest.approx(np.percentile(times, [50, 90]))
    assert (a.median_cost_usd, a.p90_cost_usd) == pytest.approx(np.percentile(costs, [50, 90]))
    assert a.total_cost_usd == pytest.approx(costs.sum())
    assert a.points_per_dollar == pytest.approx(a.aggregate / costs.mean())
    assert [t.tier for t in a.tiers] == ["easy", "medium", "hard"] == list(c.tiers)
    assert b.total_cost_usd is None and b.points_per_dollar is None and b.median_time_s == 60.0
    assert a.mean_input_tokens == 1000 and b.mean_input_tokens is None
    assert tier_of("custom") == "other"


def test_verdicts_are_reproducible():
    runs = [make_run("a", NOISY_A), make_run("b", NOISY_B)]
    assert build_comparison(runs) == build_comparison(runs)
