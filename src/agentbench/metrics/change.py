"""FAIL_TO_PASS and PASS_TO_PASS: how a brownfield challenge's named hidden tests ended.

A named test passes only when the harness saw it pass: a test that was not collected, failed, was
skipped, or ran in a voided hidden run (forged outcomes) is failing.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentbench.models import Challenge, ChangeSets


def change_sets(challenge: Challenge, outcomes: Sequence[tuple[str, str]], *,
                voided: bool) -> ChangeSets | None:
    """The challenge's sets as they ended (None when it names none)."""
    if not challenge.fail_to_pass and not challenge.pass_to_pass:
        return None
    passed = set() if voided else {test for test, outcome in outcomes if outcome == "passed"}
    named = (*challenge.fail_to_pass, *challenge.pass_to_pass)
    return ChangeSets(
        fail_to_pass=len(challenge.fail_to_pass),
        fail_to_pass_passed=sum(1 for t in challenge.fail_to_pass if t in passed),
        pass_to_pass=len(challenge.pass_to_pass),
        pass_to_pass_passed=sum(1 for t in challenge.pass_to_pass if t in passed),
        failing=tuple(t for t in named if t not in passed),
    )
