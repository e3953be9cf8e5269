"""A second attempt with feedback (`--attempts 2`, as Aider's benchmark does): pure helpers.

After the first attempt the harness measures the work as it would a finished trial (its logs in
`attempt-1/`). When the visible tests (the challenge's own test commands, protected files as
given) do not all pass, the agent is prompted again in the same workspace with their output (its
logs in `attempt-2/`), and the trial is measured once more. Pass rate 1 is the share of trials
whose first attempt passed, pass rate 2 of those whose last did; "passed" is the strictest check
the challenge has: its FAIL_TO_PASS and PASS_TO_PASS sets, else its hidden tests, else the
visible tests.
"""

from __future__ import annotations

from dataclasses import replace

from agentbench.models import AdapterResult, AttemptSummary, Challenge, Measurements

MAX_FEEDBACK_CHARS = 6000
"""The end of the test output given back to the agent (the rest is cut)."""


def passed(measurements: Measurements | None) -> bool:
    """Whether measured work passes (see the module docstring)."""
    if measurements is None:
        return False
    hidden = measurements.acceptance
    if hidden is not None and hidden.sets is not None:
        return hidden.sets.resolved
    if hidden is not None:
        return hidden.tests.total > 0 and hidden.tests.passed == hidden.tests.total
    return visible_passed(measurements)


def visible_passed(measurements: Measurements) -> bool:
    """Every visible test passed (and there was one)."""
    tests = measurements.tests
    return tests.total > 0 and tests.passed == tests.total and tests.problem is None


def summary(measurements: Measurements | None, seconds: float, *, retried: bool) -> AttemptSummary:
    """The first attempt as the record keeps it."""
    hidden = measurements.acceptance.tests if measurements and measurements.acceptance else None
    return AttemptSummary(
        attempt=1, passed=passed(measurements), agent_seconds=seconds, retried=retried,
        visible_passed=measurements.tests.passed if measurements else 0,
        visible_total=measurements.tests.total if measurements else 0,
        hidden_passed=hidden.passed if hidden else None, hidden_total=hidden.total if hidden else None)


def feedback_prompt(challenge: Challenge, output: str) -> str:
    """The second prompt: the tests' output, what to do, then the task again."""
    if len(output) > MAX_FEEDBACK_CHARS:
        output = "...\n" + output[-MAX_FEEDBACK_CHARS:]
    protected = (f" Do not change {', '.join(challenge.protected)}." if challenge.protected else "")
    return (f"The tests failed:\n\n```\n{output.rstrip()}\n```\n\n"
            "See the testing errors above. The tests are correct, don't try and change them. Fix the "
            f"code to resolve the errors.{protected}\n\nThe task, as given before:\n\n{challenge.prompt}")


def combine(first: AdapterResult, second: AdapterResult) -> AdapterResult:
    """Both attempts as one adapter result: the second's outcome, the sums of time and usage."""
    def total(a: float | int | None, b: float | int | None) -> float | int | None:
        return None if a is None and b is None else (a or 0) + (b or 0)

    return replace(second, time_taken_seconds=first.time_taken_seconds + second.time_taken_seconds,
                   prompts_used=first.prompts_used + second.prompts_used,
                   input_tokens=total(first.input_tokens, second.input_tokens),  # type: ignore[arg-type]
                   output_tokens=total(first.output_tokens, second.output_tokens),  # type: ignore[arg-type]
                   cost_usd=total(first.cost_usd, second.cost_usd),
                   output_dropped_bytes=first.output_dropped_bytes + second.output_dropped_bytes)
