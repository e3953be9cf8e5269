"""Behaviour metrics from trajectories, the `expect:` block of a challenge, and the behaviour and
expectation tables in compare and the reports (never part of a score)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentbench.adapters.trajectory import Header, Step, StepList, Trajectory, dumps
from agentbench.comparison import CompareOptions, build_comparison
from agentbench.comparison.behaviour import check_expectations, summarise, trial_behaviour
from agentbench.comparison.evidence import trial_folder, with_behaviour
from agentbench.errors import ChallengeError
from agentbench.loader import load_challenge
from agentbench.models import Expectations
from agentbench.report import Format, render
from agentbench.report.views import behaviour as behaviour_view
from agentbench.report.views import expectations as expectations_view
from tests.test_comparison import make_run

BASE = """\
name: "x"
language: python
prompt: "p"
expected_files: [a.py]
test_commands: ["python -m pytest"]
scoring_rubric: {}
"""


def sample_steps(test_last: bool = True) -> list[Step]:
    steps = StepList()
    steps.model(text="plan", time="2026-01-01T00:00:01Z")
    steps.call("Read", {"file_path": "/w/a.py"}, call_id="1", target="a.py", time="2026-01-01T00:00:02Z")
    steps.call("Write", {"file_path": "a.py"}, call_id="2", target="a.py", time="2026-01-01T00:00:05Z")
    steps.call("Edit", {"file_path": "a.py"}, call_id="3", target="./a.py")
    steps.call("Bash", {"command": "python -m pytest -q"}, call_id="4", target="python -m pytest -q")
    steps.result("4", "1 failed", is_error=True, exit_code=1)
    steps.model(text="fix")
    steps.call("apply_patch", {}, call_id="5", target="b.py, c.py")
    if test_last:
        steps.call("Bash", {"command": "pytest"}, call_id="6", target="pytest")
    steps.call("Grep", {"pattern": "x"}, call_id="7", target="x")
    return [Step(type="prompt", text="p"), *steps.steps]


def test_trial_behaviour_counts():
    b = trial_behaviour(sample_steps(), parsed=True, started_at="2026-01-01T00:00:00+00:00")
    assert dict(b.tool_calls) == {"read": 1, "write": 3, "shell": 2, "search": 1, "other": 0}
    assert b.total_calls == 7 and b.shell_commands == 2 and b.turns == 2
    assert b.files_written == 3  # a.py (twice, once as ./a.py), b.py, c.py
    assert b.first_write_s == 5.0 and b.failed_calls == 1
    assert b.ran_tests and b.tested_after_last_write
    assert dict(b.tools)["Bash"] == 2
    late = trial_behaviour(sample_steps(test_last=False), parsed=True)
    assert late.ran_tests and not late.tested_after_last_write
    assert late.first_write_s == 4.0  # from the first timestamp without a start time


def test_expectations_checked_and_unknown_when_unread():
    expect = Expectations(ran_tests=True, max_turns=1, max_shell_commands=5,
                          max_seconds_to_first_write=2.0)
    b = trial_behaviour(sample_steps(), parsed=True, started_at="2026-01-01T00:00:00Z")
    checks = {c.name: c for c in check_expectations(expect, b, "easy/x", 1)}
    assert checks["ran_tests"].met and checks["max_shell_commands"].met
    assert checks["max_turns"].met is False and checks["max_turns"].actual == "2"
    assert checks["max_seconds_to_first_write"].met is False
    unread = trial_behaviour([Step(type="prompt")], parsed=False)
    assert all(c.met is None for c in check_expectations(expect, unread, "easy/x", 2))
    summary = summarise("a", [b, unread], check_expectations(expect, b, "easy/x", 1))
    assert summary.trials == 1 and summary.unreadable == 1 and summary.checks_met == 2
    assert summary.ran_tests == 1.0 and summary.turns == 2.0


def test_expect_block_in_yaml(tmp_path):
    (tmp_path / "easy").mkdir()
    path = tmp_path / "easy" / "x.yaml"
    path.write_text(BASE + "expect: {ran_tests: true, max_turns: 40, max_seconds_to_first_write: 1.5}\n")
    assert load_challenge(path).expect == Expectations(ran_tests=True, max_turns=40,
                                                       max_seconds_to_first_write=1.5)
    path.write_text(BASE)
    assert load_challenge(path).expect is None
    for bad, message in (("expect: {max_turns: -1}", "whole number >= 0"),
                         ("expect: {max_turns: 2.5}", "whole number"),
                         ("expect: {ran_tests: 1}", "true or false"),
                         ("expect: {max_turn: 3}", "unknown field"),
                         ("expect: [1]", "expected a mapping")):
        path.write_text(BASE + bad + "\n")
        with pytest.raises(ChallengeError, match=message):
            load_challenge(path)


def write_run(results: Path, run, steps_by_trial, expect: str = "") -> Path:
    """A results file, its run plan and trajectories, as `agentbench run` lays them out."""
    root = results / run.run_id
    challenges = results / "challenges"
    for cid in {t.challenge_id for t in run.trials}:
        tier, name = cid.split("/")
        (challenges / tier).mkdir(parents=True, exist_ok=True)
        (challenges / tier / f"{name}.yaml").write_text(BASE + expect)
    plan = {"run_id": run.run_id, "agents": [run.agent], "challenge_ids": sorted({t.challenge_id for t in run.trials}),
            "challenge_dirs": [str(challenges)], "trials": 1, "rubric": "seed", "model": None,
            "agents_config": None, "sandbox": "none", "agent_timeout_s": None, "created_at": "x"}
    root.mkdir(parents=True, exist_ok=True)
    (root / "run.json").write_text(json.dumps(plan))
    for trial in run.trials:
        folder = trial_folder(root, trial)
        folder.mkdir(parents=True, exist_ok=True)
        steps = steps_by_trial(trial)
        (folder / "trajectory.jsonl").write_text(
            dumps(Trajectory(header=Header(agent=trial.agent, parsed=True), steps=tuple(steps))))
    path = results / f"{run.agent}.json"
    return path


def test_compare_and_reports_show_behaviour_and_expectations(tmp_path):
    runs = [make_run("alpha", {"easy/one": [80.0], "easy/two": [70.0]}),
            make_run("beta", {"easy/one": [60.0], "easy/two": [50.0]})]
    files = [write_run(tmp_path / r.agent, r, lambda t: sample_steps(t.agent == "alpha"),
                       expect="expect: {ran_tests: true, max_turns: 1}\n") for r in runs]
    c = with_behaviour(build_comparison(runs, options=CompareOptions()), runs, [f.parent for f in files])
    view = behaviour_view(c)
    assert view is not None and [r[0] for r in view.rows] == ["alpha", "beta"]
    assert view.rows[0][1].startswith("Bash x4") and view.rows[0][2] == "2"
    checks = expectations_view(c)
    assert checks is not None and checks.rows[0][1] == "2/4"
    assert "max_turns: expected at most 1, was 2" in checks.rows[0][2]
    assert [a.aggregate for a in c.agents] == [75.0, 55.0]  # the scores are untouched
    markdown = render(c, Format.MARKDOWN)
    assert "Behaviour (from each trial's trajectory)" in markdown and "not scored" in markdown
    html = render(c, Format.HTML)
    assert 'id="table-behaviour"' in html and 'id="table-expectations"' in html
    assert json.loads(render(c, Format.JSON))["behaviour"][0]["label"] == "alpha"


def test_no_trajectory_no_table(tmp_path):
    runs = [make_run("alpha", {"easy/one": [80.0]})]
    c = with_behaviour(build_comparison(runs, options=CompareOptions()), runs,
                       [tmp_path])
    assert c.behaviour == () and behaviour_view(c) is None and expectations_view(c) is None


def test_a_record_naming_a_folder_outside_the_run_is_not_followed(tmp_path):
    run = make_run("alpha", {"easy/one": [80.0]})
    from dataclasses import replace

    evil = replace(run.trials[0], logs_dir="../../elsewhere")
    assert trial_folder(tmp_path, evil) is None
    assert trial_folder(tmp_path, replace(evil, logs_dir="/etc")) is None


def test_a_trial_a_latest_export_took_from_an_earlier_run_is_found_in_that_run(tmp_path):
    from dataclasses import replace

    trial = make_run("alpha", {"easy/one": [80.0]}).trials[0]
    earlier = replace(trial, logs_dir="../20261201-run/trials/alpha/easy/one/trial-1")
    assert trial_folder(tmp_path / "latest-run", earlier) == (
        tmp_path / "20261201-run" / "trials" / "alpha" / "easy" / "one" / "trial-1")
    assert trial_folder(tmp_path / "latest-run", replace(trial, logs_dir="../../x")) is None
    assert trial_folder(tmp_path / "latest-run", replace(trial, logs_dir="..")) is None


def test_show_summarises_a_trial_s_trajectory(tmp_path):
    from agentbench.cli.show import _behaviour

    trial = make_run("alpha", {"easy/one": [80.0]}).trials[0]
    (tmp_path / "trajectory.jsonl").write_text(
        dumps(Trajectory(header=Header(agent="alpha", parsed=True), steps=tuple(sample_steps(True)))))
    line = _behaviour(trial, tmp_path)
    assert "tool calls read" in line and "ran its own tests: yes" in line, line
    assert _behaviour(trial, tmp_path / "missing") == "no readable trajectory"
