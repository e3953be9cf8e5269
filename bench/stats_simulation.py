"""How often `compare` names a winner, on SYNTHETIC pairs of agents drawn from a stated model.

Each comparison draws 13 challenges from a pool (challenge difficulty sd 14.6 points), two agents
whose true gap varies from challenge to challenge around its average (sd 8 points, or 0 for a fixed
shift) and trials around each true mean (sd 5.2 points); `build_comparison` then decides, in the
default view (over challenges like these) and in the conditional one (these challenges only).
Seeded, so the figures are reproducible:

    python bench/stats_simulation.py [--reps 1000]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentbench.comparison import CompareOptions, build_comparison  # noqa: E402
from tests.synthetic import Scenario, simulated_pair  # noqa: E402

CASES = (
    ("equal on average, differ by challenge (sd 8)", Scenario(trials=3), "no winner"),
    ("equal on average, differ by challenge (sd 8)", Scenario(trials=10), "no winner"),
    ("B = A + 6 on every challenge", Scenario(gap=6.0, interaction_sd=0.0), "b"),
    ("B = A + 6 on average, differ by challenge (sd 8)", Scenario(gap=6.0), "b"),
)


def rate(scenario: Scenario, reps: int, conditional: bool, expect: str) -> tuple[float, float]:
    """(share of comparisons that named a winner, or named `expect`; mean seconds per compare)."""
    rng, hits, started = random.Random(2024), 0, time.perf_counter()
    for _ in range(reps):
        runs = simulated_pair(rng, scenario)
        (verdict,) = build_comparison(list(runs), options=CompareOptions(
            condition_on_challenges=conditional)).verdicts
        hits += verdict.winner is not None if expect == "no winner" else verdict.winner == expect
    return hits / reps, (time.perf_counter() - started) / reps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    args = parser.parse_args()
    print(f"{args.reps} comparisons per row, 13 challenges; rate = winner named (null rows) "
          "or B named (gap rows)")
    print(f"{'case':52} {'trials':>6} {'over challenges':>16} {'conditional':>12}")
    for name, scenario, expect in CASES:
        over, _ = rate(scenario, args.reps, False, expect)
        cond, _ = rate(scenario, args.reps, True, expect)
        print(f"{name:52} {scenario.trials:>6} {over:>16.1%} {cond:>12.1%}")


if __name__ == "__main__":
    main()
