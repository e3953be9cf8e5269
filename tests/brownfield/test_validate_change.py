"""`agentbench validate` on brownfield challenges: the FAIL_TO_PASS / PASS_TO_PASS sets must hold,
the reference must leave protected files alone, missing sets are computed for the author."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentbench.metrics.change import computed_sets, set_problems
from agentbench.models import Challenge, Rubric
from tests.brownfield.fixtures import make_challenge
from tests.cli.helpers import invoke
from tests.requirements import jobs


def _validate(capsys: pytest.CaptureFixture[str], root: Path, tmp_path: Path) -> tuple[int, str]:
    r = invoke(capsys, "validate", "medium/clamp", "--challenges", str(root), "--results",
               str(tmp_path / "v"), "--repeats", "1", "--jobs", jobs())
    return r.exit_code, " ".join((r.out + r.err).split())


def test_valid_then_broken_sets_and_protected_edits_are_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = make_challenge(tmp_path / "c", use_git=False)
    code, out = _validate(capsys, root, tmp_path / "a")
    assert code == 0, out
    assert "1 valid, 0 invalid" in out
    yaml = root / "medium" / "clamp.yaml"
    yaml.write_text(yaml.read_text().replace("  - test_hidden.py::test_add\n", "").replace(
        "fail_to_pass:\n", "fail_to_pass:\n  - test_hidden.py::test_add\n"))
    ref_test = root / "medium" / "clamp" / "reference" / "tests" / "test_mathy.py"
    ref_test.write_text(ref_test.read_text() + "\n# touched\n")
    code, out = _validate(capsys, root, tmp_path / "b")
    assert code == 1
    assert "FAIL_TO_PASS test 'test_hidden.py::test_add' already passes on the starting tree" in out
    assert "the reference changes protected file tests/test_mathy.py (modified)" in out


def _challenge(f2p: tuple[str, ...] = (), p2p: tuple[str, ...] = ()) -> Challenge:
    return Challenge(id="medium/x", tier="medium", name="x", language="python", prompt="p",
                     expected_files=(), test_commands=("pytest",), scoring_rubric=Rubric(),
                     fail_to_pass=f2p, pass_to_pass=p2p)


def test_sets_are_computed_from_the_two_runs() -> None:
    start = {"a": "passed", "b": "failed", "c": "passed"}
    changed = {"a": "passed", "b": "passed", "c": "failed", "d": "passed"}
    assert computed_sets(start, changed) == (("b", "d"), ("a",))
    (problem,) = set_problems(_challenge(), start, changed)
    assert "computed: fail_to_pass: ['b', 'd'], pass_to_pass: ['a']" in problem
    assert set_problems(_challenge(("b",), ("a",)), start, changed) == []
    assert set_problems(_challenge(("b",), ("c",)), start, changed) == [
        "PASS_TO_PASS test 'c' does not pass on the reference"]
    assert set_problems(_challenge((), ("a",)), start, changed) == [
        "fail_to_pass is empty: nothing shows the change is needed"]
