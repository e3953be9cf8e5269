"""Measuring step by step (`metrics.steps`) and who is blamed when a step raises (`agentbench.blame`).

The end-to-end attacks are in tests/attacks/test_excuse_attacks.py; here the rules themselves.
"""

from __future__ import annotations

import errno
import threading
import time

import pytest

from agentbench import blame
from agentbench.diskroom import OutOfDisk
from agentbench.errors import Interrupted
from agentbench.loader import discover_challenges
from agentbench.metrics.steps import LOG_NAME, Steps
from agentbench.models import (
    AdapterResult,
    BuildMeasurement,
    CompletenessMeasurement,
    CoverageMeasurement,
    Measurements,
    QualityMeasurement,
    StepFailure,
    TestMeasurement,
    TrialStatus,
)
from agentbench.plan import RunConfig, TrialSpec
from agentbench.trial import RunShared, _judged, _Record
from tests.attacks.agents import CHALLENGES


def _measured(*failures: StepFailure) -> Measurements:
    return Measurements(build=BuildMeasurement(success=True), tests=TestMeasurement(passed=1, collected=1),
                        coverage=CoverageMeasurement(covered_lines=1, total_lines=2),
                        quality=QualityMeasurement(average_complexity=1.0, weighted_complexity=1.0,
                                                   functions=1, files=1),
                        completeness=CompletenessMeasurement(found=("a",)), failures=failures)


def test_a_step_that_raises_takes_its_fallback_and_is_recorded(tmp_path):
    steps = Steps(lambda: tmp_path)
    assert steps.run("ok", lambda: 3, lambda: 0) == 3
    assert steps.run("quality", lambda: {}["missing"], lambda: 0) == 0
    assert steps.run("coverage", lambda: (tmp_path / "none").read_bytes(), lambda: None) is None  # ENOENT
    assert [f.step for f in steps.failures] == ["quality", "coverage"]
    assert steps.failures[0].error == "KeyError: 'missing'"
    assert "Traceback" in steps.failures[0].traceback
    assert "measuring step 'quality' raised" in (tmp_path / LOG_NAME).read_text()


def test_the_machines_failures_and_cancelling_are_not_a_steps_failure(tmp_path):
    steps = Steps(lambda: tmp_path)

    def full_disk():
        raise OutOfDisk(errno.ENOSPC, "the machine is out of disk")

    def out_of_descriptors():
        raise OSError(errno.EMFILE, "Too many open files")

    def interrupted():
        raise Interrupted

    with pytest.raises(OutOfDisk):
        steps.run("build", full_disk, lambda: None)
    with pytest.raises(OSError):
        steps.run("build", out_of_descriptors, lambda: None)
    with pytest.raises(Interrupted):
        steps.run("build", interrupted, lambda: None)
    assert steps.failures == []


def test_a_full_disk_the_harness_does_not_see_is_a_steps_failure(tmp_path):
    """ENOSPC while the file system has room (or is full of the trials' own files): the agent's."""
    steps = Steps(lambda: tmp_path)

    def full_disk():
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "snapshot" / "junk.bin"))

    assert steps.run("snapshot", full_disk, lambda: None) is None
    assert [f.step for f in steps.failures] == ["snapshot"]


def test_the_verdict_is_taken_once_per_challenge_and_run():
    calls = []

    def check():
        calls.append(1)
        time.sleep(0.2)
        return _measured()

    threads = [threading.Thread(target=blame.reference_verdict, args=("run-a", "easy/x", check))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and blame.reference_verdict("run-a", "easy/x", check).works
    assert blame.reference_verdict("run-b", "easy/x", check).works and len(calls) == 2
    blame.forget("run-a")
    blame.forget("run-b")


def test_a_reference_that_fails_or_cannot_be_measured_means_the_harness_is_broken():
    failed = blame.reference_verdict("run-c", "easy/x", lambda: _measured(StepFailure(step="quality",
                                                                                   error="E: x")))
    assert not failed.works and "failed too (quality: E: x)" in failed.evidence

    def raising():
        raise RuntimeError("no toolchain")

    broken = blame.reference_verdict("run-c", "easy/y", raising)
    assert not broken.works and "RuntimeError: no toolchain" in broken.evidence
    assert blame.reference_verdict("run-c", "easy/y", _measured).works  # a failing verdict is not kept
    blame.forget("run-c")


@pytest.fixture
def calc(tmp_path):
    (challenge,) = [c for c in discover_challenges([CHALLENGES], include_builtin=False) if c.id == "easy/calc"]
    config = RunConfig(agents=("a",), challenges=(challenge,), results_dir=tmp_path, run_id="r")
    spec = TrialSpec(agent="a", challenge=challenge, trial=1)
    yield spec, config
    blame.forget(str(config.run_dir.root))


def _judge(spec, config, measured):
    base = _Record(spec=spec, started_at="2026-01-01T00:00:00Z", clock=time.monotonic(), logs_dir="t",
                   isolation="x")
    agent = AdapterResult(time_taken_seconds=1.0, prompts_used=1, success=True)
    return _judged(base, (spec, config, None, None), agent, measured, 1.0)  # type: ignore[arg-type]


def test_a_failure_is_the_agents_when_the_reference_measures_cleanly(calc):
    spec, config = calc
    blame.reference_verdict(str(config.run_dir.root), spec.challenge.id, _measured)
    record = _judge(spec, config, _measured(StepFailure(step="own tests", error="TypeError: t")))
    assert record.status == TrialStatus.COMPLETED and record.scored
    assert "own tests: TypeError: t" in record.error and "agent's files" in record.error


def test_a_failure_is_the_harness_when_the_reference_fails_too(calc):
    spec, config = calc
    broken = RunShared(assets={}, hidden={}, isolation="x")  # a harness without its toolchain's assets
    base = _Record(spec=spec, started_at="2026-01-01T00:00:00Z", clock=time.monotonic(), logs_dir="t",
                   isolation="x")
    agent = AdapterResult(time_taken_seconds=1.0, prompts_used=1, success=True)
    record = _judged(base, (spec, config, broken, None), agent,
                     _measured(StepFailure(step="own tests", error="TypeError: t")), 1.0)
    assert record.status == TrialStatus.VERIFIER_ERROR and not record.scored
    assert "reference in this run failed too" in record.error


def test_a_trial_measured_without_failure_never_asks(calc):
    spec, config = calc
    record = _judge(spec, config, _measured())
    assert record.status == TrialStatus.COMPLETED and record.error is None
