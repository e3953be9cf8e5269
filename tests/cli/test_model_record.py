"""The model a trial used reaches its record, `run.json`, `compare` and reports: a real run of a
small command agent (written by the test) whose agents config sets the model."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from agentbench.records import loads_run
from tests.cli.helpers import invoke
from tests.conftest import open_to_trial_users

AGENT = """\
import sys
print("asked for model", sys.argv[2])
"""


def _config(tmp_path: Path, extra: str = "") -> Path:
    (tmp_path / "agent").mkdir()
    folder = open_to_trial_users(tmp_path / "agent")
    (folder / "agent.py").write_text(AGENT)
    (folder / "agent.py").chmod(0o755)
    config = tmp_path / "agents.toml"
    config.write_text(f'[agents.cmd]\nadapter = "command"\nmodel = "m-test-1"\n'
                      f'command = ["{sys.executable}", "{folder / "agent.py"}", "{{prompt_file}}", '
                      f'"{{model}}"]\n{extra}')
    return config


def test_the_configured_model_is_in_the_record_the_plan_and_compare(capsys, tmp_path,
                                                                     tiny_challenges):
    config = _config(tmp_path)
    results = tmp_path / "results"
    r = invoke(capsys, "run", "--agent", "cmd", "--agents-config", str(config), "--challenge",
               "easy/adder", "--challenges", str(tiny_challenges), "--results", str(results),
               "--run-id", "r1")
    assert r.exit_code == 0, r.err
    plan = json.loads((results / "r1" / "run.json").read_text())
    assert plan["agent_models"] == [["cmd", "m-test-1"]]
    (trial,) = loads_run((results / "cmd.json").read_text()).trials
    assert trial.adapter.model == "m-test-1"
    assert "asked for model m-test-1" in trial.adapter.final_message
    out = invoke(capsys, "compare", str(results / "cmd.json"), "--format", "json")
    (agent,) = json.loads(out.out)["agents"]
    assert agent["model"] == "m-test-1"
