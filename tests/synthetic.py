"""SYNTHETIC results for tests, the simulation and the example report: no agent ran to make them.

Two generators, both seeded and pure (no disk):

- `example_runs`: 6 fictional agents x the 13 built-in challenge IDs x 3 trials, with scores,
  components, hidden tests, times, costs, CLI versions, a few timeouts and infrastructure errors
  (one cell left with a single scored trial), and two runs of one agent with different models.
  The agents, models and numbers are invented; they describe no real product.
- `simulated_pair`: two agents' runs drawn from a stated model (challenge effects, agent x
  challenge interaction, trial noise), for checking how often `compare` names a winner.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

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
from agentbench.scoring import RUBRICS

CHALLENGES: tuple[str, ...] = (
    "easy/contacts-api", "easy/csv-summary", "easy/markdown-parser", "easy/password-gen",
    "easy/semver", "easy/todo-api", "medium/bank-ledger", "medium/inventory-auth",
    "medium/library-loans", "medium/template-engine", "hard/job-scheduler", "hard/kv-store",
    "hard/query-engine",
)
"""The 13 built-in challenge IDs (only the IDs: no challenge is run)."""

_CREATED = "2026-01-15T12:00:00+00:00"
_COMPONENTS = ("build", "tests", "coverage", "quality", "completeness", "efficiency")


@dataclass(frozen=True, slots=True, kw_only=True)
class FictionalAgent:
    """One invented agent of the example: its skill and habits."""

    agent: str
    model: str
    version: str
    skill: float
    profile: tuple[float, ...]
    seconds: float
    cost: float | None


AGENTS: tuple[FictionalAgent, ...] = (
    FictionalAgent(agent="alpha-coder", model="alpha-large-2", version="1.4.2", skill=9.0,
                   profile=(1.0, 1.1, 0.9, 0.8, 1.0, 0.7), seconds=240.0, cost=0.42),
    FictionalAgent(agent="bravo-cli", model="bravo-pro", version="0.9.0", skill=6.0,
                   profile=(1.0, 0.9, 1.0, 1.0, 1.0, 0.8), seconds=180.0, cost=None),
    FictionalAgent(agent="charlie", model="charlie-7b-instruct-long-context", version="2.0.1",
                   skill=-1.0, profile=(0.9, 0.8, 0.7, 1.0, 1.0, 1.0), seconds=95.0, cost=0.05),
    FictionalAgent(agent="delta-agent", model="delta-pro", version="3.1.0", skill=3.0,
                   profile=(1.0, 1.0, 1.0, 0.9, 1.0, 0.9), seconds=150.0, cost=0.20),
    FictionalAgent(agent="delta-agent", model="delta-mini", version="3.1.0", skill=-4.0,
                   profile=(1.0, 0.9, 0.9, 0.9, 1.0, 1.0), seconds=70.0, cost=0.03),
    FictionalAgent(agent="echo-cli-with-a-rather-long-name", model="echo-1", version="0.3.0",
                   skill=-11.0, profile=(0.8, 0.7, 0.6, 0.9, 0.9, 1.0), seconds=300.0,
                   cost=0.12),
)
"""The six fictional agents of the example (two runs of `delta-agent` with different models)."""

MORE_AGENTS: tuple[FictionalAgent, ...] = (
    FictionalAgent(agent="foxtrot-code-assistant", model="foxtrot-xl-2026-preview",
                   version="10.2.0", skill=2.0, profile=(1.0,) * 6, seconds=120.0, cost=0.3),
    FictionalAgent(agent="golf", model="g1", version="0.0.1", skill=-3.0, profile=(1.0,) * 6,
                   seconds=60.0, cost=0.01),
)
"""Two more fictional agents, for the 8-agent scale test."""


def generated_challenges(count: int) -> tuple[str, ...]:
    """`count` invented challenge IDs across the three tiers (`medium/generated-challenge-07`)."""
    tiers = ("easy", "medium", "hard")
    return tuple(f"{tiers[i % 3]}/generated-challenge-{i:02d}" for i in range(count))


def breakdown(total: float, profile: tuple[float, ...] = (1.0,) * 6) -> ScoreBreakdown:
    """Seed-rubric components adding up to about `total`, shaped by `profile`, each within its weight."""
    weights = RUBRICS["seed"].weights
    raw = [getattr(weights, name) * p for name, p in zip(_COMPONENTS, profile, strict=True)]
    scale = total / sum(raw)
    parts = {name: min(getattr(weights, name), r * scale)
             for name, r in zip(_COMPONENTS, raw, strict=True)}
    return ScoreBreakdown(rubric="seed", **parts)


def _measurements(solved: bool, passed: int) -> Measurements:
    hidden = TestMeasurement(passed=10 if solved else passed, failed=0 if solved else 10 - passed)
    return Measurements(
        build=BuildMeasurement(success=True), tests=TestMeasurement(passed=5),
        coverage=CoverageMeasurement(covered_lines=80, total_lines=100),
        quality=QualityMeasurement(average_complexity=3.0, weighted_complexity=3.0, functions=8, files=2),
        completeness=CompletenessMeasurement(found=("README.md",)),
        acceptance=AcceptanceMeasurement(tests=hidden))


def _trial(who: FictionalAgent, run_id: str, cid: str, n: int, score: float,
           rng: random.Random, status: TrialStatus) -> TrialRecord:
    scored = status not in (TrialStatus.INFRA_ERROR, TrialStatus.VERIFIER_ERROR)
    seconds = who.seconds * math.exp(rng.gauss(0.0, 0.35))
    solved = rng.random() < 1.0 / (1.0 + math.exp(-(score - 62.0) / 8.0))
    points = breakdown(score, who.profile) if scored else None
    return TrialRecord(
        agent=who.agent, challenge_id=cid, trial=n, status=status,
        adapter=AdapterResult(
            time_taken_seconds=seconds, prompts_used=1, success=status == TrialStatus.COMPLETED,
            timed_out=status == TrialStatus.TIMEOUT, input_tokens=round(seconds * 180),
            output_tokens=round(seconds * 25), version=who.version,
            cost_usd=None if who.cost is None else who.cost * seconds / who.seconds),
        measurements=_measurements(solved, rng.randint(0, 9)) if scored else None,
        seed_score=points, score=points, started_at=_CREATED, duration_s=seconds + 12.0,
        logs_dir=f"trials/{who.agent}/{cid}/trial-{n}",
        error=None if status == TrialStatus.COMPLETED else f"synthetic {status.value}")


def _status(rng: random.Random, who: FictionalAgent, cid: str, n: int) -> TrialStatus:
    if who.model == "bravo-pro" and cid == "hard/kv-store" and n > 1:
        return TrialStatus.INFRA_ERROR  # NOTE: leaves this cell one scored trial, on purpose
    roll = rng.random()
    if roll < 0.03:
        return TrialStatus.INFRA_ERROR
    return TrialStatus.TIMEOUT if roll < 0.07 else TrialStatus.COMPLETED


def example_runs(seed: int = 7, trials: int = 3, agents: tuple[FictionalAgent, ...] = AGENTS,
                 challenges: tuple[str, ...] = CHALLENGES) -> list[tuple[RunRecord, str]]:
    """SYNTHETIC: (results, model) of fictional agents (the six of the example by default) on
    challenge IDs (the 13 built-in ones by default)."""
    rng = random.Random(seed)
    difficulty = {cid: rng.gauss(0.0, 14.0) - 8.0 * ("hard" in cid) for cid in challenges}
    out = []
    for number, who in enumerate(agents, start=1):
        run_id = f"synthetic-{number}"
        records = []
        for cid in challenges:
            true = 60.0 + who.skill + difficulty[cid] + rng.gauss(0.0, 6.0)
            for n in range(1, trials + 1):
                status = _status(rng, who, cid, n)
                score = true + rng.gauss(0.0, 6.0) - 25.0 * (status == TrialStatus.TIMEOUT)
                records.append(_trial(who, run_id, cid, n, min(99.0, max(1.0, score)), rng,
                                      status))
        out.append((RunRecord(agent=who.agent, run_id=run_id, rubric="seed", created_at=_CREATED,
                              agentbench_version="0.1.0", trials=tuple(records)), who.model))
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Scenario:
    """How two simulated agents differ: in points, over a pool of challenges."""

    challenges: int = 13
    """Challenges drawn from the pool per comparison."""
    trials: int = 3
    """Trials per (agent, challenge)."""
    gap: float = 0.0
    """B's true mean minus A's over the whole pool."""
    challenge_sd: float = 14.6
    """Spread of the challenges' difficulty (shared by both agents)."""
    interaction_sd: float = 8.0
    """Spread over challenges of B's true advantage around `gap` (agents differ challenge by
    challenge)."""
    trial_sd: float = 5.2
    """Spread of one trial's score around its agent's true mean on that challenge."""


def _record(agent: str, cid: str, n: int, score: float) -> TrialRecord:
    points = breakdown(min(100.0, max(0.0, score)))
    return TrialRecord(agent=agent, challenge_id=cid, trial=n, status=TrialStatus.COMPLETED,
                       adapter=None, measurements=None, seed_score=points, score=points,
                       started_at=_CREATED, duration_s=1.0, logs_dir=f"t/{agent}/{cid}/{n}")


def simulated_pair(rng: random.Random, scenario: Scenario) -> tuple[RunRecord, RunRecord]:
    """SYNTHETIC: agents `a` and `b` on `scenario.challenges` challenges drawn from the pool."""
    trials_a, trials_b = [], []
    for c in range(scenario.challenges):
        cid, base = f"sim/c{c:02d}", 55.0 + rng.gauss(0.0, scenario.challenge_sd)
        edge = scenario.gap + rng.gauss(0.0, scenario.interaction_sd)
        for n in range(1, scenario.trials + 1):
            trials_a.append(_record("a", cid, n, base - edge / 2 + rng.gauss(0.0, scenario.trial_sd)))
            trials_b.append(_record("b", cid, n, base + edge / 2 + rng.gauss(0.0, scenario.trial_sd)))
    return tuple(RunRecord(agent=name, run_id="sim", rubric="seed", created_at=_CREATED,
                           agentbench_version="0.1.0", trials=tuple(trials))
                 for name, trials in (("a", trials_a), ("b", trials_b)))  # type: ignore[return-value]


@dataclass(frozen=True, slots=True, kw_only=True)
class Field:
    """Several simulated agents on one draw of challenges: who is better, who lost what."""

    gaps: tuple[float, ...]
    """Each agent's true mean over the pool, relative to the first (its length: the agents)."""
    challenges: int = 13
    """Challenges drawn from the pool per comparison."""
    trials: int = 3
    """Trials per (agent, challenge)."""
    challenge_sd: float = 14.6
    """Spread of the challenges' difficulty (shared by every agent)."""
    interaction_sd: float = 8.0
    """Spread over challenges of each agent's own advantage around its gap."""
    trial_sd: float = 5.2
    """Spread of one trial's score around its agent's true mean on that challenge (0: ties)."""
    missing: tuple[tuple[int, int], ...] = ()
    """(agent index, k): the agent has no trial on the k hardest challenges."""
    infra: tuple[tuple[int, int], ...] = ()
    """(agent index, k): every trial of the agent on the k hardest challenges is an infra_error."""
    tied: int = 0
    """Challenges (the first ones) on which every agent scores exactly the same every trial."""


def _infra_record(agent: str, cid: str, n: int) -> TrialRecord:
    return TrialRecord(agent=agent, challenge_id=cid, trial=n, status=TrialStatus.INFRA_ERROR,
                       adapter=None, measurements=None, seed_score=None, score=None,
                       started_at=_CREATED, duration_s=1.0, logs_dir=f"t/{agent}/{cid}/{n}",
                       error="synthetic infra_error")


def simulated_field(rng: random.Random, field: Field) -> list[RunRecord]:
    """SYNTHETIC: agents `a0`, `a1`... on `field.challenges` challenges drawn from the pool."""
    bases = [55.0 + rng.gauss(0.0, field.challenge_sd) for _ in range(field.challenges)]
    hardest = sorted(range(field.tied, field.challenges), key=lambda c: bases[c])
    skip = {i: set(hardest[:k]) for i, k in field.missing}
    broken = {i: set(hardest[:k]) for i, k in field.infra}
    runs = []
    for i, gap in enumerate(field.gaps):
        records = []
        for c, base in enumerate(bases):
            if c in skip.get(i, ()):
                continue
            tied = c < field.tied
            true = base + (0.0 if tied else gap + rng.gauss(0.0, field.interaction_sd))
            for n in range(1, field.trials + 1):
                if c in broken.get(i, ()):
                    records.append(_infra_record(f"a{i}", f"sim/c{c:02d}", n))
                    continue
                noise = 0.0 if tied else rng.gauss(0.0, field.trial_sd)
                records.append(_record(f"a{i}", f"sim/c{c:02d}", n, true + noise))
        runs.append(RunRecord(agent=f"a{i}", run_id="sim", rubric="seed", created_at=_CREATED,
                              agentbench_version="0.1.0", trials=tuple(records)))
    return runs
