"""The regression gate's result as JUnit XML (`agentbench gate --junit FILE`), for CI systems.

One test suite, `agentbench gate`, with one test case per challenge (classname
`agentbench.<current label>`, name the challenge ID) and a closing `overall` case holding the
decision. A challenge fails when the gate failed and that challenge dropped by more than the
allowed drop; a challenge one side has no score on is skipped. Written with `junitparser`, so the
file is what JUnit readers parse. Agent labels and challenge IDs come from results files: the XML
library escapes them.
"""

from __future__ import annotations

from typing import Any

from agentbench.comparison.gate import GateResult


def render_junit(result: GateResult) -> str:
    """The JUnit XML text of a gate result."""
    from junitparser import Failure, JUnitXml, Skipped, TestCase, TestSuite

    current = result.comparison.agents[1].label
    suite = TestSuite("agentbench gate")
    cases: list[Any] = []
    for check in result.checks:
        case = TestCase(check.challenge_id, classname=f"agentbench.{current}")
        if check.baseline is None or check.current is None:
            case.result = [Skipped(check.message)]
        elif check.failed:
            case.result = [Failure(check.message)]
        case.system_out = check.message
        cases.append(case)
    overall = TestCase("overall", classname=f"agentbench.{current}")
    if not result.passed:
        overall.result = [Failure(result.summary)]
    overall.system_out = result.summary
    cases.append(overall)
    suite.add_testcases(cases)
    suite.add_property("max_drop", f"{result.max_drop:g}")
    suite.add_property("difference", f"{result.difference:.3f}")
    suite.add_property("decided", str(result.decided).lower())
    suite.update_statistics()  # type: ignore[no-untyped-call]
    xml = JUnitXml()
    xml.add_testsuite(suite)
    body: bytes = xml.tostring()  # type: ignore[no-untyped-call]
    return '<?xml version="1.0" encoding="utf-8"?>\n' + body.decode("utf-8") + "\n"
