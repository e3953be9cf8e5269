"""A CLI that cannot start is the infrastructure's failure; a CLI that only says so is not.

"Cannot start" rests on what the agent cannot forge: the process never started, or the harness's own
check, run in the same confinement, finds the executable (or its `#!` interpreter) cannot run there.
What the CLI printed and its exit status never decide it.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from agentbench.adapters.command import CommandTemplateAdapter
from agentbench.models import AgentConfig
from agentbench.sandbox import bwrap_path
from tests.adapters.helpers import trial_context

SANDBOXES = ["none", "bwrap"] if bwrap_path() else ["none"]


def agent(command: tuple[str, ...]) -> CommandTemplateAdapter:
    return CommandTemplateAdapter(AgentConfig(name="fake", adapter="command", command=command))


def run(adapter: CommandTemplateAdapter, tmp_path: Path, sandbox: str = "none"):  # type: ignore[no-untyped-def]
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    return adapter.run_challenge("p", workspace, 1, context=trial_context(tmp_path / "t", sandbox))


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_an_executable_that_cannot_start_is_infra_error(tmp_path: Path, sandbox: str) -> None:
    cli = tmp_path / "cli"
    cli.write_text(f"#!{tmp_path}/missing-interpreter\n")
    cli.chmod(0o755)
    result = run(agent((str(cli),)), tmp_path, sandbox)
    assert result.infra_error and not result.success
    assert result.error is not None and result.error.startswith("cannot start")
    assert "No such file or directory" in result.error or (
        "missing-interpreter: not an executable file here" in result.error)


def script(tmp_path: Path, body: str) -> tuple[str, ...]:
    path = tmp_path / "fake.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return (sys.executable, str(path))


@pytest.mark.parametrize("body", [
    # it did work (wrote a file), then claimed the sandbox refused it
    """
    import sys
    open("out.py", "w").write("x = 1\\n")
    print("bwrap: execvp claude: No such file or directory", file=sys.stderr)
    sys.exit(1)
    """,
    # it printed on stdout first: it was running
    """
    import sys
    print("thinking...")
    print("bwrap: execvp claude: No such file or directory", file=sys.stderr)
    sys.exit(1)
    """,
    # an ordinary crash
    """
    raise SystemExit("Traceback: something broke")
    """,
    # a faked start failure: the shell's words and status, nothing written, nothing on stdout
    """
    import sys
    print("sh: 1: claude: not found", file=sys.stderr)
    sys.exit(127)
    """,
    """
    import sys
    print("bwrap: execvp claude: No such file or directory", file=sys.stderr)
    sys.exit(1)
    """,
])
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_cli_claiming_it_could_not_start_is_the_agents_failure(tmp_path: Path, body: str,
                                                                 sandbox: str) -> None:
    result = run(agent(script(tmp_path, body)), tmp_path, sandbox)
    assert not result.success and not result.infra_error
