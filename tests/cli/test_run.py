"""`agentbench run` end to end: real agents, real venvs, real pytest/coverage, results on disk."""

import json
from pathlib import Path

import pytest

from agentbench.records import loads_run
from tests.cli.helpers import invoke
from tests.requirements import jobs


@pytest.fixture(scope="module")
def reference_and_noop(tmp_path_factory):
    results = tmp_path_factory.mktemp("results")
    return results


def test_reference_scores_high_on_a_builtin_challenge(capsys, tmp_path: Path):
    r = invoke(capsys, "run", "--agent", "reference", "--challenge", "easy/password-gen",
               "--results", str(tmp_path))
    assert r.exit_code == 0, r.err
    run = loads_run((tmp_path / "reference.json").read_text())
    (trial,) = run.trials
    assert trial.status == "completed"
    assert trial.score.total >= 95
    assert trial.acceptance_rate == 1.0
    assert trial.measurements.tests.passed > 0 and trial.measurements.coverage.ratio > 0.9
    assert "easy/password-gen" in r.out and "aggregate score" in r.out
    folder = tmp_path / run.run_id / trial.logs_dir
    for name in ("prompt.md", "record.json", "logs/setup-1.log", "logs/test-1.log",
                 "logs/acceptance.log", "coverage.json", "workspace/pyproject.toml"):
        assert (folder / name).is_file(), name


def test_noop_scores_at_most_10(capsys, tmp_path: Path):
    r = invoke(capsys, "run", "--agent", "noop", "--challenge", "easy/password-gen",
               "--results", str(tmp_path), "--output", str(tmp_path / "custom.json"))
    assert r.exit_code == 0, r.err
    data = json.loads((tmp_path / "custom.json").read_text())
    assert data["aggregate_score"] <= 10
    trial = data["trials"][0]
    assert trial["measurements"]["build"]["success"] is False
    assert trial["measurements"]["acceptance"]["tests"]["passed"] == 0


def test_user_challenge_folder_and_verified_rubric(capsys, tmp_path: Path, tiny_challenges):
    r = invoke(capsys, "run", "--agent", "reference", "--challenge", "easy/adder", "--rubric",
               "verified", "--challenges", str(tiny_challenges), "--results", str(tmp_path))
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((tmp_path / "reference.json").read_text()).trials
    assert trial.score.rubric == "verified" and trial.seed_score.rubric == "seed"
    assert trial.score.scale == 1.0 and trial.score.total == pytest.approx(trial.seed_score.total)
    assert trial.verified_score == trial.score


def test_resume_runs_only_unfinished_trials(capsys, tmp_path: Path, tiny_challenges):
    args = ["run", "--agent", "noop", "--challenge", "easy/adder", "--trials", "2",
            "--challenges", str(tiny_challenges), "--results", str(tmp_path), "--run-id", "r1"]
    assert invoke(capsys, *args).exit_code == 0
    first = (tmp_path / "r1" / "trials" / "noop" / "easy" / "adder" / "trial-2" / "record.json")
    stamp = first.stat().st_mtime_ns
    first.unlink()
    (tmp_path / "r1" / "trials" / "noop" / "easy" / "adder" / "trial-1" / "record.json").touch()
    r = invoke(capsys, "run", "--resume", "r1", "--results", str(tmp_path))
    assert r.exit_code == 0, r.err
    assert "resuming: 1 of 2 trials already done" in r.err
    assert first.is_file() and first.stat().st_mtime_ns != stamp
    run = loads_run((tmp_path / "noop.json").read_text())
    assert sorted(t.trial for t in run.trials) == [1, 2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "--agent", "nobody", "--challenge", "easy/password-gen"], "unknown agent 'nobody'"),
        (["run", "--agent", "noop"], "exactly one of --challenge, --tier or --all"),
        (["run", "--challenge", "easy/password-gen"], "no agent given"),
        (["run", "--agent", "noop", "--challenge", "easy/nope"], "no such challenge 'easy/nope'"),
        (["run", "--resume", "missing-run"], "is not a run folder"),
        (["regrade", "missing-run"], "no run 'missing-run'"),
        (["run", "--agent", "noop", "--tier", "easy", "--jobs", "0"], "--jobs"),
        (["run", "--agent", "noop", "--tier", "easy", "--trials", "-1"], "--trials"),
        (["run", "--agent", "noop", "--tier", "bogus"], "--tier"),
        (["run", "--agent", "noop", "--tier", "easy", "--rubric", "foo"], "--rubric"),
    ],
)
def test_bad_run_options_give_one_clear_error_and_exit_2(capsys, tmp_path: Path, args, message):
    r = invoke(capsys, *args, "--results", str(tmp_path))
    assert r.exit_code == 2
    assert message in r.err and "Traceback" not in r.err and "Usage:" not in r.err
    lines = r.err.strip().splitlines()
    assert lines[0].startswith("error: ") and lines[-1].startswith("hint: ")


def test_resume_applies_how_to_run_options_and_refuses_plan_changes(capsys, tmp_path, tiny_challenges):
    args = ["run", "--agent", "noop", "--challenge", "easy/adder", "--trials", "3", "--challenges",
            str(tiny_challenges), "--results", str(tmp_path), "--run-id", "rs"]
    assert invoke(capsys, *args).exit_code == 0
    for n in (2, 3):
        (tmp_path / "rs" / "trials" / "noop" / "easy" / "adder" / f"trial-{n}" / "record.json").unlink()
    from agentbench.cli.run import resume_with_options, resumed_config

    options = {"jobs": 4, "retries": 3, "executor": "local", "executor_address": None, "output": None,
               "attempts": 1}
    config = resume_with_options(resumed_config(tmp_path, "rs"), options, frozenset({"jobs"}))
    assert (config.jobs, config.retries, config.trials) == (4, 3, 3)
    r = invoke(capsys, "run", "--resume", "rs", "--results", str(tmp_path), "--agent", "reference")
    assert r.exit_code == 2 and "--agent cannot change a run" in r.err
    r = invoke(capsys, "run", "--resume", "rs", "--results", str(tmp_path), "--jobs", jobs())
    assert r.exit_code == 0, r.err
    assert len(loads_run((tmp_path / "noop.json").read_text()).trials) == 3


def test_resume_keeps_the_runs_attempts_and_refuses_to_change_them(capsys, tmp_path, tiny_challenges):
    args = ["run", "--agent", "noop", "--challenge", "easy/adder", "--challenges", str(tiny_challenges),
            "--results", str(tmp_path), "--run-id", "ra", "--attempts", "2"]
    assert invoke(capsys, *args).exit_code == 0
    from agentbench.cli.run import resume_with_options, resumed_config

    options = {"jobs": 1, "retries": 1, "executor": "local", "executor_address": None, "output": None,
               "attempts": 1}
    assert resume_with_options(resumed_config(tmp_path, "ra"), options, frozenset()).attempts == 2
    r = invoke(capsys, "run", "--resume", "ra", "--results", str(tmp_path), "--attempts", "1")
    assert r.exit_code == 2 and "--attempts cannot change a run" in r.err


def test_regrade_rescores_kept_workspaces_without_rerunning_the_agent(capsys, tmp_path, tiny_challenges):
    args = ["run", "--agent", "reference", "--challenge", "easy/adder", "--challenges",
            str(tiny_challenges), "--results", str(tmp_path), "--run-id", "rg"]
    assert invoke(capsys, *args).exit_code == 0
    before = loads_run((tmp_path / "reference.json").read_text()).trials[0]
    # a "scorer fix" stand-in: the kept workspace changes, so the new measurement must differ
    kept = tmp_path / "rg" / before.logs_dir / "workspace"
    (kept / "tests" / "test_adder.py").write_text("def test_fails():\n    assert False\n")
    r = invoke(capsys, "regrade", "rg", "--results", str(tmp_path), "--rubric", "verified")
    assert r.exit_code == 0, r.err
    after = loads_run((tmp_path / "reference.json").read_text()).trials[0]
    assert after.adapter == before.adapter  # the agent's time and transcript are kept
    assert (after.measurements.tests.passed, after.measurements.tests.failed) == (0, 1)
    assert after.score.rubric == "verified" and after.seed_score.tests == 0
    assert (tmp_path / "rg" / before.logs_dir / "record.orig.json").is_file()


def test_a_tier_with_an_imported_folder_runs_that_folder_s_challenges_only(capsys, tmp_path: Path, tiny_challenges):
    r = invoke(capsys, "run", "--agent", "noop", "--tier", "easy", "--challenges", str(tiny_challenges),
               "--results", str(tmp_path), "--run-id", "imported")
    assert r.exit_code == 0, r.out + r.err
    run = loads_run((tmp_path / "imported" / "noop.json").read_text())
    assert {t.challenge_id for t in run.trials} == {"easy/adder"}
