"""The version probe never runs the agent unconfined.

The six CLIs' versions are read from their package metadata, without running anything. Where a run
is unavoidable (the generic `command` agent, a third-party CLI), the executable runs confined like an
agent, for a few seconds, its output capped: a hanging, flooding or daemon-leaving executable costs at
most that limit and leaves nothing running, and under bwrap it cannot write outside.
"""

from __future__ import annotations

import json
import sys
import textwrap
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from agentbench import process
from agentbench.adapters.cli_base import VERSION_TIMEOUT_S
from agentbench.adapters.command import CommandTemplateAdapter
from agentbench.adapters.registry import ADAPTERS
from agentbench.adapters.versions import NpmPackage, PythonDistribution, read_version
from agentbench.models import AgentConfig
from agentbench.sandbox import Confinement, bwrap_path
from tests.adapters.helpers import REAL_CLIS
from tests.requirements import CI, missing, require

PACKAGE_VERSIONS = {"claude-code": "2.1.332", "codex": "0.171.0", "gemini": "0.61.0",
                    "aider": "0.86.2", "opencode": "1.18.33", "qwen": "0.24.4"}
"""What ci/install/*.sh pins."""


def never_run(argv: Any, **kwargs: Any) -> process.ProcessResult:
    raise AssertionError(f"the version probe ran {argv}")


def sandboxes() -> list[str]:
    """`none`, plus `bwrap` where installed (CI installs it: missing there is a failure)."""
    if bwrap_path() is None and CI:
        missing("needs bubblewrap: apt-get install bubblewrap")
    return ["none", "bwrap"] if bwrap_path() else ["none"]


@pytest.mark.realcli
@pytest.mark.parametrize("agent", sorted(REAL_CLIS))
def test_each_real_cli_version_comes_from_its_package_without_running_it(agent: str, real_cli) -> None:
    executable = real_cli(REAL_CLIS[agent])
    adapter = ADAPTERS[agent](AgentConfig(name=agent, executable=executable), run=never_run)  # type: ignore[call-arg]
    assert adapter.version() == PACKAGE_VERSIONS[agent]


def test_an_npm_cli_linked_into_a_bin_folder_is_read_from_its_package_json(tmp_path: Path) -> None:
    package = tmp_path / "lib" / "node_modules" / "@acme" / "agent"
    (package / "dist").mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": "@acme/agent", "version": "3.2.1"}))
    (package / "node_modules" / "dep").mkdir(parents=True)  # a nested package is not the CLI's
    (package / "node_modules" / "dep" / "package.json").write_text('{"name": "dep", "version": "9"}')
    marker = tmp_path / "ran"
    cli = package / "dist" / "cli.js"
    cli.write_text(f"#!/bin/sh\ntouch {marker}\necho 6.6.6\n")
    cli.chmod(0o755)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "agent").symlink_to(cli)
    assert read_version(str(tmp_path / "bin" / "agent"), NpmPackage("@acme/agent")) == "3.2.1"
    assert read_version(str(tmp_path / "bin" / "agent"), NpmPackage("@other/agent")) is None
    assert not marker.exists()


def test_package_metadata_that_is_a_link_or_not_a_version_is_not_believed(tmp_path: Path) -> None:
    package = tmp_path / "node_modules" / "agent"
    package.mkdir(parents=True)
    (package / "cli.js").write_text("")
    (tmp_path / "real.json").write_text(json.dumps({"name": "agent", "version": "1.0.0"}))
    (package / "package.json").symlink_to(tmp_path / "real.json")
    assert read_version(str(package / "cli.js"), NpmPackage("agent")) is None
    (package / "package.json").unlink()
    (package / "package.json").write_text(json.dumps({"name": "agent", "version": "\x1b[31m1.0"}))
    assert read_version(str(package / "cli.js"), NpmPackage("agent")) is None


def test_a_python_cli_version_comes_from_its_venvs_dist_info(tmp_path: Path) -> None:
    site = tmp_path / "venv" / "lib" / "python3.12" / "site-packages"
    (site / "aider_chat-0.86.2.dist-info").mkdir(parents=True)
    (site / "aider_chat-0.86.2.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: aider-chat\nVersion: 0.86.2\n\nlong text\n")
    (site / "other-1.0.dist-info").mkdir()
    (site / "other-1.0.dist-info" / "METADATA").write_text("Name: other\nVersion: 1.0\n")
    (tmp_path / "venv" / "bin").mkdir()
    (tmp_path / "venv" / "bin" / "aider").write_text("#!/bin/sh\nexit 9\n")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "aider").symlink_to(tmp_path / "venv" / "bin" / "aider")
    assert read_version(str(tmp_path / "bin" / "aider"), PythonDistribution("aider-chat")) == "0.86.2"
    assert read_version(str(tmp_path / "bin" / "aider"), PythonDistribution("nope")) is None


# --- a probe that has to run the executable: confined, a few seconds, output capped ---------------


def command_agent(tmp_path: Path, script: str) -> CommandTemplateAdapter:
    path = tmp_path / f"agent-{uuid.uuid4().hex[:8]}.py"
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(script), encoding="utf-8")
    path.chmod(0o755)
    return CommandTemplateAdapter(AgentConfig(name="mine", adapter="command",
                                              command=(str(path), "{prompt_file}")))


def processes_with(tag: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if tag.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.parametrize("sandbox", sandboxes())
def test_a_plain_version_is_read_from_a_confined_run(tmp_path: Path, sandbox: str) -> None:
    agent = command_agent(tmp_path, 'import sys\nprint("my-agent 1.4.2" if sys.argv[1:] == ["--version"] else "?")\n')
    assert agent.version(Confinement(sandbox=sandbox)) == "my-agent 1.4.2"


@pytest.mark.parametrize("sandbox", sandboxes())
def test_a_hanging_executable_costs_at_most_the_probe_limit(tmp_path: Path, sandbox: str) -> None:
    tag = f"hang-{uuid.uuid4().hex}"
    agent = command_agent(tmp_path, f'import time\ntime.sleep(1000)  # {tag}\n')
    started = time.monotonic()
    assert agent.version(Confinement(sandbox=sandbox)) is None
    assert time.monotonic() - started < VERSION_TIMEOUT_S + process.KILL_GRACE_SECONDS + 3
    assert processes_with(tag) == []


@pytest.mark.parametrize("sandbox", sandboxes())
def test_a_flooding_executable_costs_at_most_the_probe_limit(tmp_path: Path, sandbox: str) -> None:
    agent = command_agent(tmp_path, 'import sys\nwhile True:\n    sys.stdout.write("x" * 65536)\n')
    started = time.monotonic()
    assert agent.version(Confinement(sandbox=sandbox)) is None
    assert time.monotonic() - started < VERSION_TIMEOUT_S + process.KILL_GRACE_SECONDS + 3


@pytest.mark.parametrize("sandbox", sandboxes())
def test_an_executable_leaving_a_daemon_leaves_nothing_running(tmp_path: Path, sandbox: str) -> None:
    if sandbox == "none":  # a daemon that empties its environment and leaves the session is found
        require("cgroups")  # by its cgroup only (bwrap: by its PID namespace)
    tag = f"daemon-{uuid.uuid4().hex}"
    agent = command_agent(tmp_path, f'''
        import os, sys
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(1000)", "{tag}"], {{}})
            os._exit(0)
        print("agent 2.0")
    ''')
    assert agent.version(Confinement(sandbox=sandbox)) == "agent 2.0"
    deadline = time.monotonic() + 5
    while processes_with(tag) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(tag) == []


def test_under_bwrap_the_probe_cannot_write_outside(tmp_path: Path) -> None:
    require("bwrap")
    target = Path.home() / f".agentbench-probe-{uuid.uuid4().hex}"
    agent = command_agent(tmp_path, f'''
        try:
            open("{target}", "w").write("escaped")
        except OSError:
            pass
        print("agent 3.0")
    ''')
    try:
        assert agent.version(Confinement(sandbox="bwrap")) == "agent 3.0"
        assert not target.exists()
    finally:
        if target.exists():
            target.unlink()


def test_the_default_probe_runs_in_bwrap_where_installed(tmp_path: Path) -> None:
    require("bwrap")
    agent = command_agent(tmp_path, '''
        import os
        print("pid-1-is-" + open("/proc/1/comm").read().strip())
    ''')
    # no confinement given (agentbench agents, doctor): the strongest there is, bwrap's PID namespace
    assert agent.version() == "pid-1-is-bwrap"
