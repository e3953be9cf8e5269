"""Where the points went, from the coverage report each toolchain writes: Python and Go count
statements, Node counts lines; both name the least covered files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from agentbench.models import TrialStatus
from agentbench.viewer.explain import explain
from tests.synthetic import AGENTS, _trial


@pytest.mark.parametrize("unit", ["statements", "lines"])
def test_coverage_names_the_least_covered_files(tmp_path: Path, unit: str) -> None:
    record = _trial(AGENTS[0], "r", "easy/x", 1, 80.0, random.Random(1), TrialStatus.COMPLETED)
    (tmp_path / "coverage.json").write_text(json.dumps({"files": {
        "src/a.ts": {"covered": 10, unit: 10}, "src/b.ts": {"covered": 2, unit: 9},
        "src/c.ts": {"covered": 1, unit: 3}, "bad": {"covered": "x", unit: 3}}, "problem": None}))
    (coverage,) = (c for c in explain(record, tmp_path) if c.name == "coverage")
    assert coverage.why == "80 of 100 measured lines covered (80%) in 0 files"
    assert coverage.details == (f"src/b.ts: 7 of 9 {unit} not run", f"src/c.ts: 2 of 3 {unit} not run")


def test_efficiency_under_the_verified_rubric_shows_the_hidden_test_factor(tmp_path: Path) -> None:
    from agentbench.scoring import score_trial

    record = _trial(AGENTS[0], "r", "easy/x", 1, 40.0, random.Random(0), TrialStatus.COMPLETED)
    assert record.measurements is not None
    verified = score_trial(record.measurements, time_seconds=300.0, rubric="verified")
    assert verified.scale < 1.0
    rows = {c.name: c for c in explain(record, tmp_path, verified)}
    factor = f"x {verified.scale:.2f} (the hidden-test pass rate)"
    for name in ("build", "tests", "coverage", "quality", "completeness", "efficiency"):
        assert rows[name].why.endswith(factor), (name, rows[name].why)
