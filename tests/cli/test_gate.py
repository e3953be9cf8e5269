"""`agentbench gate` through the real CLI (a subprocess), on results files the test writes, with
the JUnit XML it writes read back by a JUnit reader (junitparser)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from agentbench.comparison.gate import gate
from agentbench.records import dumps_run
from tests.test_comparison import NOISY_A, NOISY_B, make_run


def _junit():
    import junitparser

    return junitparser


def _write(folder: Path, name: str, agent: str, scores, run_id: str) -> str:
    path = folder / f"{name}.json"
    path.write_text(dumps_run(make_run(agent, scores, run_id=run_id)), encoding="utf-8")
    return str(path)


def _gate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "agentbench", "gate", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_a_real_drop_fails_the_gate_and_the_junit_xml_names_the_challenges(tmp_path):
    base = _write(tmp_path, "main", "codex", NOISY_A, "run-main")
    new = _write(tmp_path, "branch", "codex", NOISY_B, "run-branch")  # ~6 points lower everywhere
    xml_path = tmp_path / "gate.xml"
    done = _gate(new, "--baseline", base, "--junit", str(xml_path))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL: codex · run-branch is worse than codex · run-main" in done.stdout
    xml = _junit().JUnitXml.fromfile(str(xml_path))
    (suite,) = list(xml)
    cases = {case.name: case for case in suite}
    assert set(cases) == {*NOISY_A, "overall"}
    assert suite.tests == 9 and suite.failures == 9
    assert all(isinstance(r, _junit().Failure) for case in cases.values() for r in case.result)
    assert cases["overall"].result[0].message.startswith("FAIL:")
    assert cases["easy/a"].classname == "agentbench.codex · run-branch"


def test_a_drop_within_the_allowance_passes(tmp_path):
    base = _write(tmp_path, "main", "codex", NOISY_A, "run-main")
    new = _write(tmp_path, "branch", "codex", NOISY_B, "run-branch")
    xml_path = tmp_path / "gate.xml"
    done = _gate(new, "--baseline", base, "--max-drop", "15", "--junit", str(xml_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS: no drop beyond the allowed 15 points" in done.stdout
    (suite,) = list(_junit().JUnitXml.fromfile(str(xml_path)))
    assert suite.tests == 9 and suite.failures == 0 and suite.errors == 0


def test_an_improvement_passes_and_a_missing_challenge_is_skipped(tmp_path):
    base = _write(tmp_path, "main", "codex", {k: v for k, v in NOISY_B.items() if k != "hard/h"},
                  "run-main")
    new = _write(tmp_path, "branch", "codex", NOISY_A, "run-branch")
    xml_path = tmp_path / "gate.xml"
    done = _gate(new, "--baseline", base, "--junit", str(xml_path))
    assert done.returncode == 0, done.stdout + done.stderr
    (suite,) = list(_junit().JUnitXml.fromfile(str(xml_path)))
    skipped = [c.name for c in suite if any(isinstance(r, _junit().Skipped) for r in c.result)]
    assert skipped == ["hard/h"] and suite.failures == 0


def test_bad_input_exits_2(tmp_path):
    base = _write(tmp_path, "main", "codex", NOISY_A, "run-main")
    done = _gate(str(tmp_path / "missing.json"), "--baseline", base)
    assert done.returncode == 2 and "error:" in done.stderr


def test_the_gate_reads_the_interval_not_the_raw_difference():
    # Current is 3 points lower on average but up and down by 20 from challenge to challenge:
    # compare names no winner, so the gate passes although the raw difference is a drop.
    swing = {k: [v[0] + (20.0 if i % 2 else -26.0)] for i, (k, v) in enumerate(NOISY_A.items())}
    result = gate(make_run("a", {k: v[:1] for k, v in NOISY_A.items()}), make_run("b", swing))
    assert result.difference < 0 and result.passed and result.decided
