"""Whose fault is it when measuring a trial raised: the harness decides, on its own evidence.

An excused trial (`verifier_error`, `infra_error`) is retried and left out of every aggregate, so an
agent that could make measuring raise at will could drop its worst trials. No trick of the agent's is
taken at its word, and none needs to be known in advance: when a step of measuring raised
(`metrics.steps`), the harness measures the challenge's **reference** solution in the same conditions
(the same run, sandbox, limits, trial users, hidden paths and toolchain assets), after the trial's
processes are gone and its user released, one check at a time per challenge. A clean verdict is kept
for the rest of the run; a failing one is not (the next failure checks again), so a moment of
trouble, say a disk another trial filled, cannot excuse every later trial.

- The reference measures cleanly: the harness's measuring works here, so the failure arose from the
  agent's files. The trial is the agent's result and is scored as measured: the failing steps'
  components count zero, the reason and traceback are in the record (`measurements.failures`).
- Measuring the reference fails too (or the check itself cannot run): the harness's measuring is
  broken in this run, and the trial is `verifier_error` (retried, excused).

A challenge without a reference solution is checked on its starting workspace (empty for a
greenfield challenge): the harness's evidence that its measuring steps run at all in this run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from agentbench.errors import Interrupted
from agentbench.metrics.steps import summary
from agentbench.models import Measurements

_VERDICTS: dict[tuple[str, str], Verdict] = {}
_LOCKS: dict[tuple[str, str], threading.Lock] = {}
_GUARD = threading.Lock()


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether the harness's measuring works on the reference in this run, and the evidence."""

    works: bool
    evidence: str


def reference_verdict(run: str, challenge: str, check: Callable[[], Measurements]) -> Verdict:
    """The cached verdict for `challenge` in `run` (`check` measures its reference, once)."""
    key = (run, challenge)
    with _GUARD:
        lock = _LOCKS.setdefault(key, threading.Lock())
    with lock:
        if key in _VERDICTS:
            return _VERDICTS[key]
        verdict = _judge(challenge, check)
        if verdict.works:  # NOTE: a broken harness is checked again: the disk another trial filled
            _VERDICTS[key] = verdict  # for a moment must not excuse every later trial of the run
        return verdict


def _judge(challenge: str, check: Callable[[], Measurements]) -> Verdict:
    try:
        measured = check()
    except Interrupted:
        raise
    except Exception as exc:  # NOTE: the check is the harness's own: any failure of it is the harness's
        return Verdict(False, f"measuring {challenge}'s reference in this run failed too "
                              f"({type(exc).__name__}: {exc})")
    if measured.failures:
        return Verdict(False, f"measuring {challenge}'s reference in this run failed too "
                              f"({summary(measured.failures)})")
    return Verdict(True, f"the harness measures {challenge}'s reference cleanly in this run, so the "
                         "failure arose from the agent's files")


def forget(run: str) -> None:
    """Drop the verdicts of `run` (for tests, and a long-lived worker between runs)."""
    with _GUARD:
        for key in [k for k in _VERDICTS if k[0] == run]:
            del _VERDICTS[key]
