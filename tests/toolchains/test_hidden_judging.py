"""The hidden-run judging the Go and TypeScript toolchains share (`toolchains.base`): the count is
over the real tests only (the canaries reported beside them never add to it), a passing canary
voids the run, and the scan for product files aimed at the harness."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from agentbench.models import CommandResult
from agentbench.toolchains.base import MeasureContext, judged_hidden_run, marked_files
from agentbench.toolchains.canaries import HiddenCatalog, Mutation, Role
from agentbench.toolchains.go.gotest import Tally
from tests.toolchains.helpers import trial_context

CANARY = Mutation(file="calc_test.go", test="TestAdd", site=0, literal="4", described="x:1: 3 -> 4")
ROLES = {"TestAdd": Role(original="TestAdd"), "TestSub": Role(original="TestSub"),
         "TestAdd_c": Role(original="TestAdd", canary=CANARY),
         "TestSub_c": Role(original="TestSub", canary=replace(CANARY, test="TestSub"))}
RESULT = CommandResult(command="go test", returncode=0, timed_out=False, duration_s=1.0, log="logs/a.log")


def _context(tmp_path: Path, catalog: HiddenCatalog | None = None) -> MeasureContext:
    return replace(trial_context(tmp_path, tmp_path, {}), hidden_catalog=catalog)


def _tally(outcomes: dict[str, str]) -> Tally:
    """A raw tally as a harness reads it: every reported item, canaries included."""
    return Tally(passed=sum(o == "passed" for o in outcomes.values()),
                 failed=sum(o == "failed" for o in outcomes.values()), outcomes=tuple(outcomes.items()))


def test_the_canaries_reported_beside_the_real_tests_are_not_counted(tmp_path: Path) -> None:
    honest = _tally({"TestAdd": "passed", "TestSub": "failed", "TestAdd_c": "failed",
                     "TestSub_c": "failed"})
    ctx = _context(tmp_path, HiddenCatalog(tests=("TestAdd", "TestSub")))
    tests = judged_hidden_run(honest, RESULT, ROLES.get, [], ctx).measurement.tests
    assert (tests.passed, tests.failed, tests.total, tests.problem) == (1, 1, 2, None)
    logged = json.loads((ctx.logs() / "hidden-canaries.json").read_text())
    assert len(logged["canaries"]) == 2


def test_a_passing_canary_voids_the_run_and_a_test_never_reported_fails(tmp_path: Path) -> None:
    forged = _tally({"TestAdd": "passed", "TestAdd_c": "passed"})
    ctx = _context(tmp_path, HiddenCatalog(tests=("TestAdd", "TestSub")))
    run = judged_hidden_run(forged, RESULT, ROLES.get, [], ctx).measurement
    assert (run.tests.passed, run.tests.total, run.uncollected) == (0, 2, 1)
    assert "forged" in (run.tests.problem or "") and run.tampering


def test_without_the_survey_the_real_tests_reported_are_expected(tmp_path: Path) -> None:
    tally = _tally({"TestAdd": "passed", "TestSub": "passed", "TestAdd_c": "failed"})
    tests = judged_hidden_run(tally, RESULT, ROLES.get, ["aimed"], _context(tmp_path)).measurement.tests
    assert (tests.passed, tests.total) == (0, 2) and tests.problem is not None
    assert "aimed" in tests.problem  # what the caller found before the run voids it too


def test_marked_files_are_those_holding_a_marker(tmp_path: Path) -> None:
    (tmp_path / "a.go").write_bytes(b"package a // AGENTBENCH")
    (tmp_path / "b.go").write_bytes(b"package b")
    (tmp_path / "big.go").write_bytes(b"AGENTBENCH" + b" " * 100)
    files = sorted(tmp_path.glob("*.go"))
    assert marked_files([*files, tmp_path / "gone.go"], (b"AGENTBENCH",), max_bytes=50) == [tmp_path / "a.go"]
