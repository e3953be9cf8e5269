"""Simulation: how often `compare` names a winner, on SYNTHETIC agents drawn from a known model.

Each comparison draws 13 challenges from a pool (challenge difficulty sd 14.6 points), two agents
whose true gap varies from challenge to challenge (sd 8 points around the stated average gap) and
trials around each true mean (sd 5.2 points), then runs the real `build_comparison` on the records.
The seeds are fixed, so the counts below are exact for this code; the bounds say what they must
stay near. `bench/stats_simulation.py` runs the same model with more repetitions.
"""

from __future__ import annotations

import random

from agentbench.comparison import CompareOptions, build_comparison
from tests.synthetic import Scenario, simulated_pair


def winners(scenario: Scenario, reps: int, seed: int, *, conditional: bool = False) -> list[str]:
    rng = random.Random(seed)
    names = []
    for _ in range(reps):
        runs = simulated_pair(rng, scenario)
        (verdict,) = build_comparison(
            list(runs), options=CompareOptions(condition_on_challenges=conditional)).verdicts
        names.append(verdict.winner or "")
    return names


def test_equal_agents_that_differ_challenge_by_challenge_get_no_winner_about_95_percent():
    for trials, seed in ((3, 11), (10, 12)):
        named = winners(Scenario(trials=trials), reps=300, seed=seed)
        rate = sum(1 for w in named if w) / len(named)
        assert rate <= 0.085, (trials, rate)  # nominal 5%; 300 draws: 95% of runs fall below 8%
        assert {w for w in named if w} <= {"a", "b"}


def test_the_conditional_view_answers_another_question_and_names_winners_far_more_often():
    named = winners(Scenario(trials=3), reps=120, seed=13, conditional=True)
    assert sum(1 for w in named if w) / len(named) >= 0.12


def test_b_six_points_ahead_on_every_challenge_is_named():
    named = winners(Scenario(gap=6.0, interaction_sd=0.0), reps=150, seed=14)
    assert named.count("b") / len(named) >= 0.95 and "a" not in named


def test_eight_identical_agents_rarely_get_a_winner_and_intervals_agree_with_verdicts():
    from tests.synthetic import Field, simulated_field

    rng, any_winner = random.Random(21), 0
    for _ in range(40):
        c = build_comparison(simulated_field(rng, Field(gaps=(0.0,) * 8, challenges=10)))
        any_winner += any(v.winner for v in c.verdicts)
        for v in c.verdicts:  # an interval excludes 0 exactly when a winner is named
            excludes = v.score.interval is not None and not v.score.interval.contains(0.0)
            assert excludes == (v.winner is not None), v.text
    assert any_winner <= 5  # nominal 5% of 40 = 2; the bench figure over 200 is 4.0%


def test_an_overwhelming_lead_on_10_challenges_is_named_even_among_8_agents():
    from tests.synthetic import Field, simulated_field

    rng = random.Random(22)
    c = build_comparison(simulated_field(rng, Field(gaps=(24.0, *(0.0,) * 7), challenges=10,
                                                    interaction_sd=3.0)))
    named = [v for v in c.verdicts if "a0" in (v.a, v.b)]
    assert len(named) == 7 and all(v.winner == "a0" for v in named)
    assert all(" CI " in v.text and "100% CI" not in v.text for v in named)


def test_mostly_tied_challenges_are_too_few_informative_not_a_p_value():
    from tests.synthetic import Field, simulated_field

    rng = random.Random(23)
    (v,) = build_comparison(simulated_field(rng, Field(gaps=(0.0, 6.0), tied=11))).verdicts
    assert v.winner is None and v.score.interval is None and v.score.blocked_by == "informative"
    assert "too few informative challenges: the scores differ on 2 of 13" in v.text
    assert "p=" not in v.text
