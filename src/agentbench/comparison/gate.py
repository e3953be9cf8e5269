"""The regression gate's decision: is the current agent worse than its baseline by more than the
allowed drop, by the statistics of `compare`? Pure.

The gate never reads a raw difference alone. It builds the same comparison as `compare` (baseline
first, current second) and fails only when the current agent's paired interval for
current - baseline lies wholly below -max_drop: the drop is larger than allowed with the verdict's
confidence. With max_drop 0 that is exactly "compare names the baseline the winner". When the design
can give no verdict (too few informative challenges) the gate passes and says why, since nothing
shows a regression; `GateResult.decided` tells a CI script that wants to be stricter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentbench.comparison.build import build_comparison
from agentbench.comparison.model import CompareOptions, Comparison
from agentbench.comparison.words import format_interval, format_p, signed
from agentbench.models import RunRecord


@dataclass(frozen=True, slots=True, kw_only=True)
class ChallengeCheck:
    """One challenge as the gate's JUnit report lists it."""

    challenge_id: str
    baseline: float | None
    """Baseline's mean score on it (None: no scored trial)."""
    current: float | None
    """Current's mean score on it (None: no scored trial)."""
    failed: bool
    """The gate failed and this challenge dropped by more than the allowed drop."""
    message: str
    """What happened, in words."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GateResult:
    """The gate's decision and everything a CI report shows."""

    passed: bool
    """False when the current agent is worse than the baseline by more than `max_drop`."""
    decided: bool
    """Whether the comparison could give a verdict at all."""
    max_drop: float
    """The allowed drop in points."""
    difference: float
    """Current minus baseline, mean over shared challenges."""
    summary: str
    """The decision in one sentence."""
    checks: tuple[ChallengeCheck, ...]
    """Per challenge of either run."""
    comparison: Comparison
    """The comparison the decision came from."""


def gate(baseline: RunRecord, current: RunRecord, *, max_drop: float = 0.0,
         sources: Sequence[str] = (), models: Sequence[str | None] = (),
         options: CompareOptions | None = None) -> GateResult:
    """Decide whether `current` regressed from `baseline` by more than `max_drop` points."""
    if max_drop < 0:
        raise ValueError(f"max_drop must be at least 0, got {max_drop}")
    c = build_comparison([baseline, current], sources=sources, models=models, options=options)
    base, cur = (a.label for a in c.agents)
    verdict = c.verdict(base, cur)
    test = None if verdict is None else verdict.score
    if test is None:
        raise ValueError("the baseline and the current results share no scored challenge")
    sign = 1.0 if verdict is not None and verdict.a == cur else -1.0
    difference = sign * test.difference
    interval = test.interval
    high = None if interval is None else max(sign * interval.low, sign * interval.high)
    decided = test.decidable and interval is not None
    passed = not (decided and high is not None and high < -max_drop)
    change = (f"{cur} minus {base}: {signed(difference)} points ({format_interval(interval, sign)}, "
              f"{format_p(test.p_adjusted)})")
    summary = _summary((cur, base), (passed, decided), max_drop, change,
                       verdict.text if verdict else "")
    checks = tuple(_check(c, cid, base, cur, passed, max_drop) for cid in c.challenges)
    return GateResult(passed=passed, decided=decided, max_drop=max_drop, difference=difference,
                      summary=summary, checks=checks, comparison=c)


def _summary(names: tuple[str, str], state: tuple[bool, bool], max_drop: float, change: str,
             verdict: str) -> str:
    (cur, base), (passed, decided) = names, state
    if not passed:
        return (f"FAIL: {cur} is worse than {base} by more than the allowed {max_drop:g} points; "
                f"{change}")
    if not decided:
        return f"PASS (no verdict possible): {verdict}"
    return f"PASS: no drop beyond the allowed {max_drop:g} points is shown; {change}"


def _check(c: Comparison, cid: str, base: str, cur: str, passed: bool,
           max_drop: float) -> ChallengeCheck:
    b, k = c.cell(base, cid), c.cell(cur, cid)
    bm = None if b is None else b.summary.mean
    km = None if k is None else k.summary.mean
    if bm is None or km is None:
        missing = base if bm is None else cur
        return ChallengeCheck(challenge_id=cid, baseline=bm, current=km, failed=False,
                              message=f"{missing} has no scored trial on {cid}")
    drop = km - bm
    failed = not passed and drop < -max_drop
    return ChallengeCheck(challenge_id=cid, baseline=bm, current=km, failed=failed,
                          message=f"{cid}: {cur} {km:.1f}, {base} {bm:.1f} ({signed(drop)} points)")
