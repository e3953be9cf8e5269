"""The headline ranking: agents ordered by a like-for-like score, with what the order hides, pure.

Each agent's aggregate is its mean over its own challenges, so an agent that lost its hardest
challenges to infrastructure errors, or never ran them, would look better than it is. The ranking
therefore orders agents by `stats.additive_means`: an additive model (agent + challenge difficulty)
fitted to every scored (agent, challenge) mean, giving each agent's predicted mean over all the
comparison's challenges. With every agent on every challenge it equals the aggregate; with two
agents their difference is exactly the mean difference on the challenges they share.

No model can make every pair agree with its own shared challenges when there are three or more
agents, so each agent's line also says (`AgentSummary.rank_notes`) when it is ranked above an agent
it trails on their shared challenges, and which challenges it has no score on and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from agentbench import stats
from agentbench.comparison.model import AgentSummary, Cell, Verdict
from agentbench.models import RunRecord

_TIE = 1e-9


def rank_agents(agents: Sequence[AgentSummary], runs: Sequence[RunRecord], cells: Sequence[Cell],
                verdicts: Sequence[Verdict], challenges: Sequence[str]) -> tuple[AgentSummary, ...]:
    """The agents (in the given order) with `rank`, `rank_score`, `missing_challenges` and
    `rank_notes` set."""
    means = stats.additive_means([(c.agent, c.challenge_id, c.summary.mean) for c in cells])
    scores = {a.label: means.get(a.label) if a.aggregate is not None else None for a in agents}
    known = [s for s in scores.values() if s is not None]
    ranks = {label: None if s is None else 1 + sum(k > s + _TIE for k in known)
             for label, s in scores.items()}
    out = []
    for agent, run in zip(agents, runs, strict=True):
        have = {c.challenge_id for c in cells if c.agent == agent.label}
        missing = tuple(c for c in challenges if c not in have)
        notes = (*_missing_note(missing, run, len(challenges)),
                 *_contradictions(agent.label, ranks, verdicts))
        out.append(replace(agent, rank=ranks[agent.label], rank_score=scores[agent.label],
                           missing_challenges=missing, rank_notes=notes))
    return tuple(out)


def _missing_note(missing: Sequence[str], run: RunRecord, total: int) -> tuple[str, ...]:
    if not missing:
        return ()
    shown = []
    for cid in missing[:4]:
        statuses = sorted({t.status.value for t in run.trials if t.challenge_id == cid})
        shown.append(f"{cid}: {'/'.join(statuses) if statuses else 'not run'}")
    more = f", and {len(missing) - 4} more" if len(missing) > 4 else ""
    return (f"no score on {len(missing)} of {total} challenges ({'; '.join(shown)}{more}); "
            "ranked by its difficulty-adjusted score, not its own mean",)


def _contradictions(label: str, ranks: dict[str, int | None],
                    verdicts: Sequence[Verdict]) -> tuple[str, ...]:
    mine = ranks.get(label)
    if mine is None:
        return ()
    notes = []
    for v in verdicts:
        if label not in (v.a, v.b):
            continue
        other = v.b if v.a == label else v.a
        theirs = ranks.get(other)
        difference = v.score.difference if v.a == label else -v.score.difference
        if theirs is None or mine >= theirs or difference >= -_TIE:
            continue
        judged = ("significant" if v.winner == other else "not significant")
        notes.append(f"ranked above {other} yet behind it by {abs(difference):.1f} points on "
                     f"their {v.score.challenges} shared challenges ({judged})")
    return tuple(notes)
