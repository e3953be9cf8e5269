import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentbench.errors import ResultsFileError
from agentbench.models import (
    AdapterResult,
    BuildMeasurement,
    CommandResult,
    CompletenessMeasurement,
    CoverageMeasurement,
    Measurements,
    QualityMeasurement,
    RunRecord,
    TestMeasurement,
    TrialRecord,
    TrialStatus,
)
from agentbench.records import SCHEMA_VERSION, dumps_run, dumps_trial, loads_run, loads_trial
from agentbench.scoring import score_trial


def make_trial(score_inputs=(5, 1, 0.5), status=TrialStatus.COMPLETED, challenge="easy/a", trial=1,
               message="done"):
    passed, failed, seconds = score_inputs
    m = Measurements(
        build=BuildMeasurement(success=True, commands=(CommandResult(
            command="pip install -e .", returncode=0, timed_out=False, duration_s=1.5,
            log="logs/setup-1.log"),)),
        tests=TestMeasurement(passed=passed, failed=failed, source="junit"),
        coverage=CoverageMeasurement(covered_lines=8, total_lines=10),
        quality=QualityMeasurement(average_complexity=2.5, functions=3, files=1),
        completeness=CompletenessMeasurement(found=("a.py",), missing=()),
    )
    score = score_trial(m, time_seconds=seconds)
    return TrialRecord(
        agent="reference", challenge_id=challenge, trial=trial, status=status,
        adapter=AdapterResult(time_taken_seconds=seconds, prompts_used=1, success=True,
                              final_message=message, input_tokens=10),
        measurements=m, seed_score=score, score=score, started_at="2026-12-02T00:00:00+00:00",
        duration_s=3.0, logs_dir="trials/reference/easy/a/trial-1",
    )


def make_run(*trials):
    return RunRecord(agent="reference", run_id="r1", rubric="seed", created_at="2026-12-02T00:00:00+00:00",
                     agentbench_version="0.1.0", trials=tuple(trials))


def test_run_round_trips_through_json():
    run = make_run(make_trial(), make_trial(challenge="easy/b", status=TrialStatus.TIMEOUT))
    assert loads_run(dumps_run(run)) == run


def test_results_file_carries_versions_and_aggregate():
    data = json.loads(dumps_run(make_run(make_trial((5, 5, 0)), make_trial((10, 0, 0), challenge="easy/b"))))
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["agentbench_version"] == "0.1.0"
    assert set(data["challenges"]) == {"easy/a", "easy/b"}
    assert data["aggregate_score"] == pytest.approx(sum(data["challenges"].values()) / 2, abs=0.01)


@given(message=st.text(), passed=st.integers(0, 50), failed=st.integers(0, 50),
       seconds=st.floats(0, 5000, allow_nan=False))
@settings(max_examples=50)
def test_trial_round_trip_for_any_message_and_counts(message, passed, failed, seconds):
    trial = make_trial((passed, failed, seconds), message=message)
    assert loads_trial(dumps_trial(trial)) == trial


def test_truncated_file_gives_a_clear_error():
    text = dumps_run(make_run(make_trial()))
    with pytest.raises(ResultsFileError, match=r"results\.json: not valid JSON \(line"):
        loads_run(text[: len(text) // 2], "results.json")


def test_other_schema_version_is_refused():
    data = json.loads(dumps_run(make_run(make_trial())))
    data["schema_version"] = 99
    with pytest.raises(ResultsFileError, match="schema version 99 is not supported"):
        loads_run(json.dumps(data), "r.json")


def test_wrong_field_type_names_the_field():
    data = json.loads(dumps_run(make_run(make_trial())))
    data["trials"][0]["measurements"]["tests"]["passed"] = "five"
    with pytest.raises(ResultsFileError, match=r"\$\.trials\[0\]\.measurements\.tests\.passed: expected int"):
        loads_run(json.dumps(data), "r.json")


def test_unknown_status_is_refused():
    data = json.loads(dumps_run(make_run(make_trial())))
    data["trials"][0]["status"] = "exploded"
    with pytest.raises(ResultsFileError, match="unknown value 'exploded'"):
        loads_run(json.dumps(data), "r.json")


def test_not_an_object_is_refused():
    with pytest.raises(ResultsFileError, match="expected a JSON object"):
        loads_run("[1, 2]", "r.json")


def test_results_files_get_the_users_umask_permissions(tmp_path):
    import os
    import stat

    from agentbench.store import write_atomic

    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.json", "{}")
        os.umask(0o077)
        write_atomic(tmp_path / "b.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.json").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "b.json").stat().st_mode) == 0o600
