"""`agentbench import exercism`: a suite built here, imported, validated and run end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentbench.loader import discover_challenges
from agentbench.records import loads_run
from tests.brownfield.exercism_fixtures import make_suite
from tests.cli.helpers import invoke

IMPORTED = {"easy/py-two-fer", "hard/py-two-fer-append", "medium/go-reverse-string",
            "medium/ts-resistor-color", "medium/js-raindrops"}


def test_conversion_of_each_track(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    suite, out = make_suite(tmp_path / "suite"), tmp_path / "out"
    r = invoke(capsys, "import", "exercism", str(suite), "--output", str(out))
    assert r.exit_code == 0, r.err
    text = " ".join(r.out.split())
    assert "5 imported, 2 not converted" in text
    assert "uses jest's `jest.`" in text and "not in a language AgentBench measures" in text
    found = {c.id: c for c in discover_challenges([out], include_builtin=False)}
    assert set(found) == IMPORTED
    py = found["hard/py-two-fer-append"]
    assert "X defaults to `you`." in py.prompt and py.protected == ("two_fer_test.py",)
    assert py.test_commands == ("python -m pytest two_fer_test.py",)
    assert (py.reference_dir / "two_fer.py").read_text().endswith('one for me."\n')
    go = found["medium/go-reverse-string"]
    assert set(go.protected) == {"go.mod", "reverse_string_test.go", "cases_test.go"}
    assert {p.name for p in go.acceptance.files_dir.iterdir()} == {"reverse_string_test.go", "cases_test.go"}
    ts = found["medium/ts-resistor-color"]
    start = ts.workspace.folder
    test = (start / "resistor-color.test.ts").read_text()
    assert "@jest/globals" not in test and "from './resistor-color.ts'" in test
    assert "jest-compat.spec.js" in test and "xit(" not in test
    hidden = (ts.acceptance.files_dir / "resistor-color.test.ts").read_text()
    assert "from '../resistor-color.ts'" in hidden and "const expect = " in hidden
    assert sorted(p.name for p in ts.acceptance.files_dir.iterdir()) == ["resistor-color.test.ts"]
    js = found["medium/js-raindrops"]
    assert (js.workspace.folder / "raindrops.test.js").is_file()
    assert not (js.workspace.folder / "raindrops.spec.js").exists()
    again = invoke(capsys, "import", "exercism", str(suite), "--output", str(out))
    assert again.exit_code == 2 and "already exists" in again.err


def test_import_validate_and_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert invoke(capsys, "import", "exercism", str(make_suite(tmp_path / "suite")), "--output",
                  str(out)).exit_code == 0
    r = invoke(capsys, "validate", "--write-sets", "--challenges", str(out), *sorted(IMPORTED),
               "--results", str(tmp_path / "v"), "--repeats", "1", "--jobs", "2")
    assert r.exit_code == 0, r.out[-4000:] + r.err[-2000:]
    assert "5 valid, 0 invalid" in " ".join(r.out.split())
    found = {c.id: c for c in discover_challenges([out], include_builtin=False)}
    assert len(found["medium/ts-resistor-color"].fail_to_pass) == 3
    assert found["medium/go-reverse-string"].fail_to_pass == ("reverse TestReverse",)
    results = tmp_path / "runs"
    r = invoke(capsys, "run", "--agent", "reference", "--agent", "noop", "--challenges", str(out),
               *(a for cid in sorted(IMPORTED) for a in ("--challenge", cid)), "--results",
               str(results), "--jobs", "2")
    assert r.exit_code == 0, r.err[-3000:]
    for agent, resolved in (("reference", True), ("noop", False)):
        for trial in loads_run((results / f"{agent}.json").read_text()).trials:
            assert trial.measurements.acceptance.sets.resolved is resolved, (agent, trial.challenge_id)
            assert (trial.verified_score.total > 50) is resolved
