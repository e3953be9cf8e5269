"""The agent's own tests: run the test commands, count results from JUnit XML or the runner's summary.

Counts are never guessed: pytest is asked for JUnit XML through `PYTEST_ADDOPTS`; other runners are
read from their own summary line (pytest's or unittest's). With neither, the test count is zero.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from agentbench.metrics.common import MeasureContext, env_for, read_log, run_command
from agentbench.models import Challenge, CommandResult, TestMeasurement
from agentbench.workspace import PythonEnv

_PYTEST_SUMMARY = re.compile(r"^=+ (?P<body>.*?\d+ (?:passed|failed|errors?|skipped).*?) in [\d.]+s", re.M)
_PYTEST_PART = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)")
_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in", re.M)
_UNITTEST_FAILED = re.compile(r"^FAILED \((?P<body>[^)]*)\)", re.M)
_UNITTEST_SKIPPED = re.compile(r"skipped=(\d+)")


def measure_tests(
    challenge: Challenge, env: PythonEnv, ctx: MeasureContext, extra_env: Mapping[str, str]
) -> TestMeasurement:
    """Run every test command (all of them, even after a failure) and add up their counts."""
    counts: list[TestMeasurement] = []
    results: list[CommandResult] = []
    for index, command in enumerate(challenge.test_commands, start=1):
        junit = ctx.dirs.scratch / "junit" / f"test-{index}.xml"
        junit.parent.mkdir(parents=True, exist_ok=True)
        env_vars = env_for(env, ctx, {**extra_env, "PYTEST_ADDOPTS": f"--junitxml={junit}"})
        result = run_command(command, ctx=ctx, env_vars=env_vars, log_name=f"test-{index}")
        results.append(result)
        counts.append(count_results(junit, read_log(ctx, result)))
    return _sum(counts, tuple(results))


def count_results(junit: Path, output: str) -> TestMeasurement:
    """Counts from a JUnit XML file when present, else from the runner's summary in `output`."""
    if junit.is_file():
        parsed = parse_junit(junit)
        if parsed is not None:
            return parsed
    return parse_summary(output)


def parse_junit(path: Path) -> TestMeasurement | None:
    """Counts from a JUnit XML report (None when it cannot be read)."""
    from junitparser import JUnitXml, JUnitXmlError

    try:
        xml = JUnitXml.fromfile(str(path))
    except (JUnitXmlError, OSError, ValueError, SyntaxError):
        return None
    suites = list(xml) if isinstance(xml, JUnitXml) else [xml]
    tests = sum(int(s.tests or 0) for s in suites)
    failed = sum(int(s.failures or 0) + int(s.errors or 0) for s in suites)
    skipped = sum(int(s.skipped or 0) for s in suites)
    passed = max(0, tests - failed - skipped)
    return TestMeasurement(passed=passed, failed=failed, skipped=skipped, source="junit")


def parse_summary(output: str) -> TestMeasurement:
    """Counts from pytest's or unittest's closing summary; zero when there is none."""
    matches = list(_PYTEST_SUMMARY.finditer(output))
    if matches:
        parts = {kind.rstrip("s") if kind.startswith("error") else kind: int(n)
                 for n, kind in _PYTEST_PART.findall(matches[-1].group("body"))}
        return TestMeasurement(
            passed=parts.get("passed", 0) + parts.get("xpassed", 0),
            failed=parts.get("failed", 0) + parts.get("error", 0),
            skipped=parts.get("skipped", 0) + parts.get("xfailed", 0),
            source="summary",
        )
    return _parse_unittest(output)


def _parse_unittest(output: str) -> TestMeasurement:
    ran = _UNITTEST_RAN.findall(output)
    if not ran:
        return TestMeasurement()
    total = int(ran[-1])
    failed_match = list(_UNITTEST_FAILED.finditer(output))
    body = failed_match[-1].group("body") if failed_match else ""
    failed = sum(int(n) for n in re.findall(r"(?:failures|errors)=(\d+)", body))
    skipped = sum(int(n) for n in _UNITTEST_SKIPPED.findall(output[-500:]))
    return TestMeasurement(passed=max(0, total - failed - skipped), failed=failed, skipped=skipped,
                           source="summary")


def _sum(counts: Iterable[TestMeasurement], commands: tuple[CommandResult, ...]) -> TestMeasurement:
    counts = list(counts)
    sources = {c.source for c in counts if c.source != "none"}
    return TestMeasurement(
        passed=sum(c.passed for c in counts),
        failed=sum(c.failed for c in counts),
        skipped=sum(c.skipped for c in counts),
        source=sources.pop() if len(sources) == 1 else ("mixed" if sources else "none"),
        commands=commands,
    )


def parse_junit_cases(path: Path) -> dict[str, bool]:
    """Per-test outcome (`classname::name` -> passed) from a JUnit XML report; empty if unreadable."""
    from junitparser import JUnitXml, JUnitXmlError

    try:
        xml = JUnitXml.fromfile(str(path))
    except (JUnitXmlError, OSError, ValueError, SyntaxError):
        return {}
    suites = list(xml) if isinstance(xml, JUnitXml) else [xml]
    return {f"{case.classname}::{case.name}": case.is_passed or case.is_skipped
            for suite in suites for case in suite}
