"""Counting `go test -json`: the events the go command writes for every test, judged by the harness.

The harness runs the go command itself (`go` resolved to the harness's Go) with `-json`, so each
test's outcome comes from `test2json` as the test binary reports it. `tally` counts every test with a
final action (subtests too): `pass` is passed, `skip` skipped, `fail` failed; a test that started and
never ended failed; a package that failed without a failing test (a build error, a crash in `init` or
`TestMain`) counts as one failed test (build output events carry no package result and are not read). Signs of forgery void the counts (nothing passed, the reason
kept): a test or package reported twice, a test binary that ended without its package's final
result while the harness did not kill it (`syscall.Exit` in the middle of the tests), and an exit
status of the go command that disagrees with the outcomes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from agentbench.toolchains.base import command_argv

FINAL = frozenset({"pass", "fail", "skip"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Tally:
    """Counts established from one `go test -json` run."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    outcomes: tuple[tuple[str, str], ...] = ()
    """(`package TestName`, outcome) per counted test."""
    packages: tuple[str, ...] = ()
    """Packages whose tests ran."""
    tampering: tuple[str, ...] = ()
    problem: str | None = None

    @property
    def collected(self) -> int:
        """Every counted test."""
        return self.passed + self.failed + self.skipped


def go_test_argv(command: str, go: str, extra: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """A `go test ...` command with the harness's Go, `-json` and `extra` flags; and whether it is one."""
    argv = command_argv(command)
    if argv[:2] != ["go", "test"]:
        return tuple(argv), False
    return (go, "test", "-json", *extra, *argv[2:]), True


@dataclass(slots=True)
class _Package:
    final: str | None = None
    started: bool = False
    tests: dict[str, str | None] = field(default_factory=dict)


NOT_RUN = "the test command did not run `go test` directly (the harness counts Go tests from go test -json)"


def tally(output: str, *, returncode: int | None, timed_out: bool, direct: bool) -> Tally:
    """Judge one run's JSON events (see the module docstring)."""
    if not direct:
        return Tally(problem=NOT_RUN)
    tampering: list[str] = []
    packages = _packages(_events(output.splitlines()), tampering)
    if not packages and returncode not in (0, None):
        return Tally(problem=f"go test exited {returncode} without testing a package (see its log)")
    for name, package in packages.items():
        if package.final is None and not timed_out:
            tampering.append(f"the test binary of {name} ended without reporting its result "
                             "(it exited in the middle of the tests) and was not killed by the harness")
    judged = _count(packages)
    if direct and returncode is not None and not timed_out:
        if returncode == 0 and judged.failed:
            tampering.append("go test exited 0 although tests failed")
        elif returncode != 0 and not judged.failed:
            tampering.append(f"go test exited {returncode} although no test failed")
    return Tally(passed=judged.passed, failed=judged.failed, skipped=judged.skipped,
                 outcomes=judged.outcomes, packages=judged.packages,
                 tampering=tuple(dict.fromkeys(tampering)))


def _events(lines: Iterable[str]) -> Iterable[dict[str, Any]]:
    for line in lines:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and isinstance(event.get("Action"), str):
            yield event


def _packages(events: Iterable[dict[str, Any]], tampering: list[str]) -> dict[str, _Package]:
    packages: dict[str, _Package] = {}
    for event in events:
        action = event["Action"]
        name = event.get("Package")
        if not isinstance(name, str):
            continue
        package = packages.setdefault(name, _Package())
        test = event.get("Test")
        if test is None:
            _package_event(name, package, action, tampering)
        else:
            _test_event(name, package, str(test), action, tampering)
    return packages


def _package_event(name: str, package: _Package, action: str, tampering: list[str]) -> None:
    if action == "start":
        package.started = True
    elif action in FINAL:
        if package.final is not None:
            tampering.append(f"package {name} reported its result twice")
        package.final = action


def _test_event(name: str, package: _Package, test: str, action: str, tampering: list[str]) -> None:
    if action == "run":
        package.tests.setdefault(test, None)
    elif action in FINAL:
        if package.tests.get(test) is not None:
            tampering.append(f"an unexpected or repeated outcome for {name} {test}")
        package.tests[test] = action


def _count(packages: dict[str, _Package]) -> Tally:
    outcomes: list[tuple[str, str]] = []
    for name, package in sorted(packages.items()):
        for test, action in package.tests.items():
            outcomes.append((f"{name} {test}", {"pass": "passed", "skip": "skipped"}.get(action or "",
                                                                                          "failed")))
        if package.final == "fail" and not any(a != "pass" and a != "skip" for a in package.tests.values()):
            outcomes.append((f"{name} (package failed: build, init or TestMain)", "failed"))
    counts = Counter(o for _, o in outcomes)
    ran = tuple(sorted(name for name, p in packages.items() if p.tests))
    return Tally(passed=counts["passed"], failed=counts["failed"], skipped=counts["skipped"],
                 outcomes=tuple(outcomes), packages=ran)
