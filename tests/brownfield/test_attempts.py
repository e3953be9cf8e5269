"""`--attempts 2`: an agent whose first attempt fails the visible tests is prompted again with their
output in the same workspace; both attempts are recorded, pass rates 1 and 2 reported."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from agentbench.records import loads_run
from tests.brownfield.fixtures import BUGGY, FIXED, make_challenge
from tests.cli.helpers import invoke

AGENT = r'''
import sys
prompt = open(sys.argv[1]).read()
path = "src/mathy/__init__.py"
if "The tests failed" in prompt and "test_add" in prompt:
    open(path, "w").write(FIXED)
else:
    open(path, "w").write(BUGGY.replace("return a + b", "return a - b"))
'''


def test_second_attempt_with_the_test_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = make_challenge(tmp_path / "challenges", use_git=False)
    script = tmp_path / "agent.py"
    script.write_text(f"BUGGY = {BUGGY!r}\nFIXED = {FIXED!r}\n" + AGENT)
    config = tmp_path / "agents.toml"
    config.write_text(f'[agents.learner]\nadapter = "command"\n'
                      f'command = ["{sys.executable}", "{script}", "{{prompt_file}}"]\n')
    results = tmp_path / "results"
    r = invoke(capsys, "run", "--agent", "learner", "--agent", "noop", "--challenge", "medium/clamp",
               "--challenges", str(root), "--results", str(results), "--agents-config", str(config),
               "--attempts", "2", "--run-id", "r")
    assert r.exit_code == 0, r.err[-3000:]
    (trial,) = loads_run((results / "learner.json").read_text()).trials
    (first,) = trial.attempts
    assert not first.passed and first.retried and first.visible_passed < first.visible_total
    assert trial.measurements.acceptance.sets.resolved
    folder = results / "r" / trial.logs_dir
    feedback = (folder / "prompt-2.md").read_text()
    assert "The tests failed" in feedback and "test_add" in feedback
    assert (folder / "attempt-1" / "logs").is_dir() and (folder / "attempt-2" / "agent").is_dir()
    (noop,) = loads_run((results / "noop.json").read_text()).trials
    assert not noop.attempts[0].retried  # its visible tests pass: nothing to feed back
    compared = invoke(capsys, "compare", str(results / "learner.json"), str(results / "noop.json"))
    table = compared.out.split("Two attempts")[1]
    row = next(line for line in table.splitlines() if "│ learner" in line)
    assert "0.0%" in row and "100.0%" in row
    shown = invoke(capsys, "show", "r", "learner/medium/clamp/1", "--results", str(results))
    assert "attempt 1: failed" in " ".join(shown.out.split())
