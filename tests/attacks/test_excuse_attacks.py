"""Issue 22 item 2: only the harness can excuse a trial, even when the agent makes measuring raise.

The attackers here make a step of the harness's measuring raise on purpose, with real files: code
in their own tests (or in the product the hidden tests import) finds the probe's channel in the test
process and writes an event that carries the run's secret but no well-formed field, so judging the
stream raises inside the harness. Before the blame check, such a trial was `verifier_error`: retried
and left out of every aggregate, the selective excuser's door (solve what you can, break measuring
where you would fail). Now the harness measures the challenge's reference in the same run; it
measures cleanly, so the failure is the agent's: the trial is scored, the failing components zero,
the reason and traceback in the record. End to end through `agentbench run`, both sandbox modes.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.attacks.agents import CHALLENGES, GREEN_TESTS, REF, WRONG_OPS, d
from tests.attacks.conftest import ROOT, mode_run

pytestmark = pytest.mark.attacks

BREAK_JUDGING = d('''
    import json, os, sys


    def _break_the_harness():
        for module in list(sys.modules.values()):
            channel = getattr(module, "_CHANNEL", None)
            if getattr(channel, "fd", None) is not None and getattr(channel, "nonce", ""):
                event = {"e": "session", "pid": [], "nonce": channel.nonce}
                os.write(channel.fd, (json.dumps(event) + "\\n").encode())
    ''')
"""Writes a session event whose `pid` is a list onto the probe's channel (unhashable where the
harness files sessions by pid): judging the stream raises TypeError in the harness."""

HONEST = {**REF, "src/calc/ops.py": WRONG_OPS, "tests/test_ops.py": GREEN_TESTS}

EXCUSE_AGENTS = {
    # half right, honestly, its own tests green
    "honest": HONEST,
    # the same work; its own tests do not even import (the same as tests that count nothing)
    "honest-broken-tests": {**HONEST, "tests/conftest.py": "raise SystemExit('no tests today')\n"},
    # the same work; its own tests break the harness's judging of them at the end of the session
    "own-tests-breaker": {**HONEST, "tests/conftest.py": BREAK_JUDGING + d('''

        def pytest_sessionfinish(session):
            _break_the_harness()
        ''')},
    # the same work; the product breaks the judging of whatever test process imports it (the hidden
    # tests' too)
    "product-breaker": {**HONEST, "src/calc/__init__.py": REF["src/calc/__init__.py"] + "\n"
                        + BREAK_JUDGING + "\n\n_break_the_harness()\n"},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def excuse_attacks(request, shared_folder):
    return mode_run(shared_folder, "excuse", list(EXCUSE_AGENTS), "easy/calc", request.param,
                    "--retries", "1", files=EXCUSE_AGENTS)


def scored(run, agent):
    trial = run.trial(agent)
    assert trial.status not in ("infra_error", "verifier_error"), (agent, trial.status, trial.error)
    assert trial.scored, (agent, trial.error)
    return trial


def test_breaking_the_judging_of_own_tests_is_scored_and_gains_nothing(excuse_attacks):
    run = excuse_attacks
    honest, twin, breaker = (scored(run, a) for a in ("honest", "honest-broken-tests", "own-tests-breaker"))
    assert [f.step for f in breaker.measurements.failures] == ["own tests"]
    assert "TypeError" in breaker.measurements.failures[0].error
    assert "Traceback" in breaker.measurements.failures[0].traceback
    assert "failure arose from the agent's files" in breaker.error
    assert breaker.score.tests == 0 and breaker.score.coverage == 0
    assert breaker.measurements.acceptance.tests.passed == honest.measurements.acceptance.tests.passed
    for part in ("build", "tests", "coverage", "quality", "completeness"):
        assert getattr(breaker.score, part) == pytest.approx(getattr(twin.score, part)), part
    for rubric in ("score", "verified_score"):
        assert getattr(breaker, rubric).total <= getattr(honest, rubric).total + 1.0  # efficiency: time


def test_breaking_the_judging_of_the_hidden_tests_fails_them_all(excuse_attacks):
    run = excuse_attacks
    honest, breaker = scored(run, "honest"), scored(run, "product-breaker")
    steps = [f.step for f in breaker.measurements.failures]
    assert "hidden tests" in steps and "own tests" in steps
    hidden = breaker.measurements.acceptance.tests
    assert hidden.passed == 0 and hidden.total == honest.measurements.acceptance.tests.total
    assert breaker.verified_score.total == 0
    assert breaker.score.total < honest.score.total


def test_the_reference_check_is_kept_and_show_says_what_failed(excuse_attacks):
    run = excuse_attacks
    checked = run.results / run.run_id / "logs" / "reference-check" / "easy" / "calc"
    assert (checked / "logs").is_dir()
    assert not (checked / "logs" / "verifier-exception.log").exists()  # the reference measured cleanly
    proc = subprocess.run([sys.executable, "-m", "agentbench", "show", run.run_id,
                           "own-tests-breaker/easy/calc/1", "--results", str(run.results)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "measuring step 'own tests' raised TypeError" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "agentbench", "show", run.run_id,
                           "honest-broken-tests/easy/calc/1", "--results", str(run.results)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "command failed: python -m pytest tests/ -q: exited with status" in proc.stdout


TS_REFERENCE = CHALLENGES / "easy" / "ts-calc" / "reference"
TS_REF = {str(p.relative_to(TS_REFERENCE)): p.read_text() for p in TS_REFERENCE.rglob("*") if p.is_file()}
TS_WRONG = TS_REF["src/calc.ts"].replace("return a + b;", "return a + b + 1;")
TS_HONEST = {**TS_REF, "src/calc.ts": TS_WRONG}
PLANT_V8 = d('''

    import { writeFileSync } from "node:fs";
    import { join } from "node:path";

    const folder = process.env.NODE_V8_COVERAGE;  // where V8 writes the coverage the harness reads
    if (folder) {
      const url = "file://" + join(process.cwd(), "src/calc.ts");
      writeFileSync(join(folder, "coverage-planted.json"),
                    JSON.stringify({ result: [{ url, functions: [{ ranges: [{}] }] }] }));
    }
    ''')
"""A V8 coverage file whose range has no offsets, planted by the agent's own test: reading it raises
KeyError in the harness's coverage step."""

TS_AGENTS = {
    "ts-honest": TS_HONEST,
    "ts-coverage-breaker": {**TS_HONEST, "test/calc.test.ts": TS_REF["test/calc.test.ts"] + PLANT_V8},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def ts_excuse_attacks(request, shared_folder):
    return mode_run(shared_folder, "ts-excuse", list(TS_AGENTS), "easy/ts-calc", request.param,
                    "--retries", "1", files=TS_AGENTS)


@pytest.mark.needs("node22")
def test_breaking_typescript_coverage_is_scored_and_gains_nothing(ts_excuse_attacks):
    run = ts_excuse_attacks
    honest, breaker = scored(run, "ts-honest"), scored(run, "ts-coverage-breaker")
    if not breaker.measurements.failures:
        pytest.skip("the coverage step no longer raises on a malformed V8 file (nothing left to excuse)")
    assert [f.step for f in breaker.measurements.failures] == ["coverage"]
    assert breaker.score.coverage == 0
    assert breaker.measurements.tests.passed == honest.measurements.tests.passed
    assert breaker.measurements.acceptance.tests.passed == honest.measurements.acceptance.tests.passed
    for rubric in ("score", "verified_score"):
        assert getattr(breaker, rubric).total <= getattr(honest, rubric).total + 1.0  # efficiency: time
