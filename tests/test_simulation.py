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
