"""Each real agent CLI on a built-in brownfield challenge: `agentbench run` on
medium/py-ledger-monthly (an existing project in the workspace), the CLI pointed at the scripted
model server, the model writing the files the reference adds with the CLI's own tools; the change
must resolve every FAIL_TO_PASS and PASS_TO_PASS test and the diff must be that change."""

from __future__ import annotations

import pytest

from agentbench.adapters.registry import get_adapter
from agentbench.loader import discover_challenges, select_challenges
from agentbench.modelserver import RunningServer
from agentbench.modelserver.script import Script, ScriptedFile
from agentbench.records import loads_run
from tests.adapters.test_full_runs import EXECUTABLES
from tests.cli.helpers import invoke

CHALLENGE = "medium/py-ledger-monthly"


def _change_script(challenge) -> Script:
    """The files the reference adds or changes against the starting tree."""
    start, ref = challenge.workspace.folder, challenge.reference_dir
    files = tuple(ScriptedFile(path=str(p.relative_to(ref)), content=p.read_text(encoding="utf-8"))
                  for p in sorted(ref.rglob("*")) if p.is_file() and "__pycache__" not in p.parts
                  and (not (start / p.relative_to(ref)).is_file()
                       or (start / p.relative_to(ref)).read_bytes() != p.read_bytes()))
    assert files, "the reference changes nothing"
    return Script(files=files)


@pytest.mark.realcli
@pytest.mark.parametrize("agent", sorted(EXECUTABLES))
def test_real_cli_completes_a_brownfield_challenge(agent, real_cli, capsys, tmp_path):
    real_cli(EXECUTABLES[agent])
    (challenge,) = select_challenges(discover_challenges(), ids=(CHALLENGE,))
    script = _change_script(challenge)
    adapter = get_adapter(agent)
    with RunningServer(script) as server:
        env = ", ".join(f'{k} = "{v.format(url=server.url)}"' for k, v in adapter.scripted_env)
        config = tmp_path / "agentbench.toml"
        config.write_text(f"[agents.{agent}]\nenv = {{ {env} }}\n")
        r = invoke(capsys, "run", "--agent", agent, "--challenge", CHALLENGE, "--agents-config",
                   str(config), "--results", str(tmp_path / "r"))
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((tmp_path / "r" / f"{agent}.json").read_text()).trials
    assert trial.status == "completed", trial.error
    assert trial.measurements.acceptance.sets.resolved, trial.measurements.acceptance.sets.failing
    assert trial.verified_score.total >= 80
    m = trial.measurements  # an honest run is never flagged (issue 21: no false positives)
    assert (m.acceptance.tampering, m.acceptance.tests.tampering, m.tests.tampering) == ((), (), ())
    assert trial.changes.protected == () and trial.changes.files_changed >= len(script.files)
