"""How often `compare` names a winner, on SYNTHETIC agents drawn from a stated model.

Each comparison draws challenges from a pool (challenge difficulty sd 14.6 points), agents whose
true advantage varies from challenge to challenge around their average gap (sd 8 points, or 0 for
a fixed shift) and trials around each true mean (sd 5.2 points); the real `build_comparison` then
decides. Seeded, so the figures are reproducible:

    python bench/stats_simulation.py [--reps 400]

Columns, per case (over challenges like these unless the case says conditional):

- false winner: share of comparisons in which some pair whose true gap is 0 got a winner, or a
  pair got the wrong winner (the family-wise error rate; it must stay at or below 5%);
- coverage: share of comparisons in which every pair's interval holds the true difference
  (simultaneous coverage, nominally at least 95%; a pair with no interval claims nothing);
- power: share of the truly different pairs whose better agent is named;
- too few: share of verdicts that are "too few informative challenges";
- disagree: verdicts whose interval excludes 0 without a winner, or names one with an interval
  that holds 0 (must be 0);
- rank vs shared: agents ranked above one they trail on their shared challenges without the
  line saying so (must be 0; see `agentbench.comparison.ranking`).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentbench.comparison import CompareOptions, Comparison, build_comparison  # noqa: E402
from tests.synthetic import Field, simulated_field  # noqa: E402

EIGHT = (0.0,) * 8
LEADER = (24.0, *(0.0,) * 7)


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    field: Field
    conditional: bool = False
    reps_share: float = 1.0


CASES = (
    Case("2 equal agents, 13 challenges, 3 trials", Field(gaps=(0.0, 0.0))),
    Case("2 equal agents, 13 challenges, 10 trials", Field(gaps=(0.0, 0.0), trials=10)),
    Case("B = A + 6 on every challenge", Field(gaps=(0.0, 6.0), interaction_sd=0.0)),
    Case("B = A + 6 on average, differ by challenge", Field(gaps=(0.0, 6.0))),
    Case("8 identical agents, 13 challenges", Field(gaps=EIGHT), reps_share=0.5),
    Case("8 identical agents, 10 challenges", Field(gaps=EIGHT, challenges=10), reps_share=0.5),
    Case("8 agents, 10 challenges, one ahead by 24", Field(gaps=LEADER, challenges=10),
         reps_share=0.5),
    Case("3 agents, 10 challenges, one ahead by 24, 1 trial",
         Field(gaps=(24.0, 0.0, 0.0), challenges=10, trials=1)),
    Case("2 equal agents, A lost its 2 hardest to infra_error",
         Field(gaps=(0.0, 0.0), infra=((0, 2),))),
    Case("2 equal agents, A lacks the 4 hardest challenges",
         Field(gaps=(0.0, 0.0), missing=((0, 4),))),
    Case("A + 4, B lacks 4 hardest, C lacks none (unequal sets)",
         Field(gaps=(4.0, 0.0, 0.0), missing=((1, 4),))),
    Case("ties: 13 challenges, 9 tied exactly, B + 6 elsewhere",
         Field(gaps=(0.0, 6.0), tied=9)),
    Case("2 equal over the pool; conditional (other question)", Field(gaps=(0.0, 0.0)),
         conditional=True),
)


@dataclass
class Tally:
    comparisons: int = 0
    false_winner: int = 0
    covered: int = 0
    named: int = 0
    different: int = 0
    verdicts: int = 0
    too_few: int = 0
    disagree: int = 0
    misranked: int = 0
    seconds: list[float] = field(default_factory=list)


def _score(c: Comparison, gaps: tuple[float, ...], tally: Tally) -> None:
    wrong, covered = False, True
    for v in c.verdicts:
        true = gaps[int(v.a[1:])] - gaps[int(v.b[1:])]
        test, tally.verdicts = v.score, tally.verdicts + 1
        tally.too_few += test.blocked_by == "informative"
        excludes = test.interval is not None and not test.interval.contains(0.0)
        tally.disagree += excludes != (v.winner is not None)
        if test.interval is not None and not test.interval.contains(true):
            covered = False
        better = None if true == 0 else (v.a if true > 0 else v.b)
        wrong |= v.winner is not None and v.winner != better
        if better is not None:
            tally.different += 1
            tally.named += v.winner == better
    tally.false_winner += wrong
    tally.covered += covered
    tally.misranked += _unexplained(c)


def _unexplained(c: Comparison) -> int:
    """Agents ranked above one they trail on their shared challenges, with no note saying so."""
    rank = {a.label: a.rank for a in c.agents}
    notes = {a.label: " ".join(a.rank_notes) for a in c.agents}
    count = 0
    for v in c.verdicts:
        for me, other, diff in ((v.a, v.b, v.score.difference), (v.b, v.a, -v.score.difference)):
            mine, theirs = rank[me], rank[other]
            if mine is not None and theirs is not None and mine < theirs and diff < 0:
                count += f"ranked above {other} yet behind" not in notes[me]
    return count


def run(case: Case, reps: int) -> Tally:
    rng, tally = random.Random(2024), Tally()
    options = CompareOptions(condition_on_challenges=case.conditional)
    for _ in range(max(1, round(reps * case.reps_share))):
        runs = simulated_field(rng, case.field)
        started = time.perf_counter()
        comparison = build_comparison(runs, options=options)
        tally.seconds.append(time.perf_counter() - started)
        tally.comparisons += 1
        _score(comparison, case.field.gaps, tally)
    return tally


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=400)
    args = parser.parse_args()
    print(f"up to {args.reps} comparisons per case (8-agent cases: half); seeded")
    print(f"{'case':56} {'false winner':>12} {'coverage':>9} {'power':>7} {'too few':>8} "
          f"{'disagree':>8} {'rank vs shared':>14} {'ms/compare':>10}")
    for case in CASES:
        t = run(case, args.reps)
        print(f"{case.name:56} {_share(t.false_winner, t.comparisons):>12} "
              f"{_share(t.covered, t.comparisons):>9} {_share(t.named, t.different):>7} "
              f"{_share(t.too_few, t.verdicts):>8} {t.disagree:>8} {t.misranked:>14} "
              f"{1000 * sum(t.seconds) / len(t.seconds):>10.1f}")


if __name__ == "__main__":
    main()
