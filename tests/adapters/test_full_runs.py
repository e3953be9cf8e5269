"""Each real agent CLI through the whole pipeline: `agentbench run` on easy/password-gen, the CLI
pointed at the scripted model server by the agents config file (as the README documents), the
model "writing" the challenge's reference solution with the CLI's own tools."""

from __future__ import annotations

import pytest

from agentbench.adapters.registry import get_adapter
from agentbench.loader import discover_challenges, select_challenges
from agentbench.modelserver import RunningServer, script_from_directory
from agentbench.records import loads_run
from tests.cli.helpers import invoke

EXECUTABLES = {"claude-code": "claude", "codex": "codex", "gemini": "gemini", "aider": "aider",
               "opencode": "opencode", "qwen": "qwen"}


@pytest.mark.realcli
@pytest.mark.parametrize("agent", sorted(EXECUTABLES))
def test_real_cli_solves_a_challenge_through_agentbench_run(agent, real_cli, capsys, tmp_path):
    real_cli(EXECUTABLES[agent])
    (challenge,) = select_challenges(discover_challenges(), ids=("easy/password-gen",))
    adapter = get_adapter(agent)
    with RunningServer(script_from_directory(challenge.reference_dir)) as server:
        env = ", ".join(f'{k} = "{v.format(url=server.url)}"' for k, v in adapter.scripted_env)
        config = tmp_path / "agentbench.toml"
        config.write_text(f"[agents.{agent}]\nenv = {{ {env} }}\n")
        r = invoke(capsys, "run", "--agent", agent, "--challenge", challenge.id,
                   "--agents-config", str(config), "--results", str(tmp_path / "r"))
        ledger = server.ledger
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((tmp_path / "r" / f"{agent}.json").read_text()).trials
    assert trial.status == "completed", trial.error
    assert trial.acceptance_rate == 1.0
    m = trial.measurements  # an honest run is never flagged (issue 21: no false positives)
    assert (m.acceptance.tampering, m.acceptance.tests.tampering, m.tests.tampering) == ((), (), ())
    assert trial.score.total >= 90
    assert trial.adapter.version
    if agent != "aider":  # aider prints rounded counts ("1.2k")
        assert (trial.adapter.input_tokens, trial.adapter.output_tokens) == (
            ledger.input_tokens, ledger.output_tokens)
