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


def computed_sets(start: dict[str, str], changed: dict[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(FAIL_TO_PASS, PASS_TO_PASS) from hidden-test outcomes on the starting tree and on the
    reference: failing then passing, and passing on both."""
    f2p = tuple(sorted(t for t, o in changed.items() if o == "passed" and start.get(t) != "passed"))
    p2p = tuple(sorted(t for t, o in changed.items() if o == "passed" and start.get(t) == "passed"))
    return f2p, p2p


def set_problems(challenge: Challenge, start: dict[str, str], changed: dict[str, str]) -> list[str]:
    """Why the challenge's declared sets do not hold on the starting tree (`start`, the noop's
    outcomes) and the reference (`changed`); with no sets declared, the sets to declare."""
    f2p, p2p = computed_sets(start, changed)
    if not challenge.fail_to_pass and not challenge.pass_to_pass:
        return [f"no fail_to_pass/pass_to_pass declared; computed: fail_to_pass: {list(f2p)}, "
                f"pass_to_pass: {list(p2p)} (add them to the YAML)"]
    problems = [f"FAIL_TO_PASS test {t!r} " + ("does not pass on the reference"
                                               if changed.get(t) != "passed" else
                                               "already passes on the starting tree")
                for t in challenge.fail_to_pass
                if changed.get(t) != "passed" or start.get(t) == "passed"]
    problems += [f"PASS_TO_PASS test {t!r} does not pass on the "
                 + ("starting tree" if start.get(t) != "passed" else "reference")
                 for t in challenge.pass_to_pass
                 if start.get(t) != "passed" or changed.get(t) != "passed"]
    if not challenge.fail_to_pass:
        problems.append("fail_to_pass is empty: nothing shows the change is needed")
    return problems
