"""A brownfield challenge through `agentbench run`: the starting tree, the diff, the change sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentbench.records import loads_run
from tests.brownfield.fixtures import BUGGY, make_challenge
from tests.cli.helpers import invoke


def test_reference_and_noop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_challenge(tmp_path / "challenges")
    results = tmp_path / "results"
    r = invoke(capsys, "run", "--agent", "reference", "--agent", "noop", "--challenge",
               "medium/clamp", "--challenges", str(root), "--results", str(results), "--run-id", "r")
    assert r.exit_code == 0, r.err
    (ref,) = loads_run((results / "reference.json").read_text()).trials
    (noop,) = loads_run((results / "noop.json").read_text()).trials
    assert noop.changes is not None and noop.changes.files_changed == 0
    assert (results / "r" / noop.logs_dir / "workspace" / "src" / "mathy" / "__init__.py").read_text() == BUGGY
    assert ref.changes is not None and ref.changes.files_changed == 1
    assert ref.changes.lines_added == 1 and ref.changes.lines_removed == 1
    diff = (results / "r" / ref.logs_dir / "changes.diff").read_text()
    assert "+    return min(high, max(low, x))" in diff
    sets = ref.measurements.acceptance.sets
    assert sets is not None and sets.resolved and sets.fail_to_pass == 1 and sets.pass_to_pass == 2
    noop_sets = noop.measurements.acceptance.sets
    assert noop_sets.fail_to_pass_passed == 0 and noop_sets.pass_to_pass_passed == 2
    assert noop_sets.failing == ("test_hidden.py::test_clamp_high",)
    assert ref.verified_score.total >= 95
    assert noop.verified_score.total == 0
    shown = invoke(capsys, "show", "r", "reference/medium/clamp/1", "--results", str(results))
    assert shown.exit_code == 0, shown.err
    text = " ".join(shown.out.split())
    assert "changes: 1 file(s), +1 / -1 lines (changes.diff)" in text
    assert "FAIL_TO_PASS 1/1, PASS_TO_PASS 2/2 (resolved)" in text
    assert "changes.diff" in text
    compared = invoke(capsys, "compare", str(results / "reference.json"), str(results / "noop.json"))
    assert compared.exit_code == 0, compared.err
    row = next(line for line in compared.out.splitlines() if "│ noop" in line and "0/1" in line)
    assert "0.0" in row  # noop: no lines changed, 0/1 resolved
    from werkzeug.test import Client

    from agentbench.viewer.app import make_app

    page = Client(make_app(results)).get("/runs/r/trials/reference/medium/clamp/1").get_data(as_text=True)
    assert 'id="changes"' in page and "+1</span>" in page
    assert "return min(high, max(low, x))" in page


def test_regrade_puts_protected_files_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import sys

    root = make_challenge(tmp_path / "challenges", use_git=False)
    script = tmp_path / "agent.py"
    script.write_text("open('tests/test_mathy.py', 'w').write('def test_ok():\\n    pass\\n')\n")
    config = tmp_path / "agents.toml"
    config.write_text(f'[agents.cheat]\nadapter = "command"\ncommand = ["{sys.executable}", "{script}"]\n')
    results = tmp_path / "results"
    args = ("--challenges", str(root), "--results", str(results))
    assert invoke(capsys, "run", "--agent", "cheat", "--challenge", "medium/clamp", "--agents-config",
                  str(config), "--run-id", "r", *args).exit_code == 0
    (before,) = loads_run((results / "cheat.json").read_text()).trials
    r = invoke(capsys, "regrade", "r", "--results", str(results))
    assert r.exit_code == 0, r.err
    (after,) = loads_run((results / "r" / "cheat.json").read_text()).trials
    assert before.changes.protected == after.changes.protected == ("tests/test_mathy.py (modified)",)
    assert after.measurements.tests.total == before.measurements.tests.total == 2
