"""A real agent CLI through the whole pipeline on a TypeScript challenge: `agentbench run` on
easy/ts-word-count, the CLI pointed at the scripted model server (the model "writes" the reference
solution with the CLI's own tools), then measured by the TypeScript toolchain."""

from __future__ import annotations

import pytest

from agentbench.adapters.registry import get_adapter
from agentbench.loader import discover_challenges, select_challenges
from agentbench.modelserver import RunningServer, script_from_directory
from agentbench.records import loads_run
from tests.cli.helpers import invoke


@pytest.mark.realcli
def test_a_real_cli_solves_a_typescript_challenge(real_cli, capsys, tmp_path):
    real_cli("claude")
    (challenge,) = select_challenges(discover_challenges(), ids=("easy/ts-word-count",))
    adapter = get_adapter("claude-code")
    with RunningServer(script_from_directory(challenge.reference_dir)) as server:
        env = ", ".join(f'{k} = "{v.format(url=server.url)}"' for k, v in adapter.scripted_env)
        config = tmp_path / "agentbench.toml"
        config.write_text(f"[agents.claude-code]\nenv = {{ {env} }}\n")
        r = invoke(capsys, "run", "--agent", "claude-code", "--challenge", challenge.id,
                   "--agents-config", str(config), "--results", str(tmp_path / "r"))
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((tmp_path / "r" / "claude-code.json").read_text()).trials
    assert trial.status == "completed", trial.error
    assert trial.acceptance_rate == 1.0
    m = trial.measurements  # an honest run is never flagged (issue 21: no false positives)
    assert (m.acceptance.tampering, m.acceptance.tests.tampering, m.tests.tampering) == ((), (), ())
    assert trial.measurements.build.success and trial.measurements.tests.passed >= 10
    assert trial.score.total >= 90
