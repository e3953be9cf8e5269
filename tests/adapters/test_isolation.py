"""Each real CLI reaches nothing but its model endpoint and reads no instruction file from outside
the workspace.

Network: the CLI runs under `strace -f` (every process it starts is followed) against the scripted
server on loopback; every address it connects or sends to must be the server's. A DNS lookup of any
host (UDP or TCP port 53, or systemd-resolved's socket) counts as reaching out even when nothing
answers. (`nscd` is not counted: glibc asks it for user names too, e.g. a login shell's `getpwuid`,
and on a machine without it, as here, a host lookup falls through to port 53 anyway.)

Instruction files: CLAUDE.md, AGENTS.md, GEMINI.md, QWEN.md, .cursorrules, CONVENTIONS.md and the
like are planted in two folders above the workspace (below a `.git`, which several CLIs take as the
top of the project), and the scripted server's request log must never hold their text.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from agentbench import process
from agentbench.modelserver import RunningServer, Script, ScriptedFile
from tests.adapters.helpers import REAL_CLIS, scripted_adapter, trial_context
from tests.requirements import missing

ONE_FILE = Script(files=(ScriptedFile(path="a.py", content="A = 1\n"),))

_INET = re.compile(r'sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)')
_INET6 = re.compile(r'sin6_port=htons\((\d+)\).*?inet_pton\(AF_INET6, "([^"]+)"')
_UNIX = re.compile(r'sun_path="([^"]+)"')
_RESOLVERS = ("/run/systemd/resolve/", "/var/run/systemd/resolve/")


def strace_path() -> str:
    found = shutil.which("strace")
    if found is None:
        missing("needs strace: apt-get install strace")
    return found


def outside_contacts(trace: str, port: int) -> list[str]:
    """Every address in the trace's socket calls that is not 127.0.0.1:`port` (the server)."""
    found = []
    for line in trace.splitlines():
        if not re.search(r"\b(connect|sendto|sendmsg|sendmmsg)\(", line):
            continue
        for found_port, address in _INET.findall(line) + _INET6.findall(line):
            if (address, int(found_port)) != ("127.0.0.1", port):
                found.append(f"{address}:{found_port}: {line.strip()[:200]}")
        found += [f"resolver socket {path}" for path in _UNIX.findall(line) if path.startswith(_RESOLVERS)]
    return found


def test_outside_contacts_finds_dns_and_other_hosts() -> None:
    trace = "\n".join([
        '1 connect(5, {sa_family=AF_INET, sin_port=htons(4000), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
        '1 connect(5, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT',
        '2 sendto(48, "\\372*api", 32, MSG_NOSIGNAL, {sa_family=AF_INET, sin_port=htons(53), '
        'sin_addr=inet_addr("10.255.255.53")}, 16) = 32',
        '3 connect(7, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), '
        'inet_pton(AF_INET6, "2606:4700::1", &sin6_addr), sin6_scope_id=0}, 28) = -1',
        '4 connect(3, {sa_family=AF_UNIX, sun_path="/run/systemd/resolve/io.systemd.Resolve"}, 40) = 0',
        '5 connect(5, {sa_family=AF_INET, sin_port=htons(4001), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
    ])
    found = outside_contacts(trace, 4000)
    assert [f.split(":")[0] for f in found] == ["10.255.255.53", "2606", "resolver socket /run/systemd/resolve/io.systemd.Resolve", "127.0.0.1"]


@pytest.mark.realcli
@pytest.mark.parametrize("agent", sorted(REAL_CLIS))
def test_the_real_cli_contacts_only_the_model_endpoint(agent: str, real_cli, tmp_path: Path) -> None:
    executable = real_cli(REAL_CLIS[agent])
    strace = strace_path()
    trace_file = tmp_path / "trace.txt"

    def traced(argv: list[str], **kwargs: Any) -> process.ProcessResult:
        return process.run([strace, "-f", "-qq", "-e", "trace=connect,sendto,sendmsg,sendmmsg",
                            "-o", str(trace_file), *argv], **kwargs)

    workspace = tmp_path / "workspace"
    workspace.mkdir()
    with RunningServer(ONE_FILE) as server:
        adapter = scripted_adapter(agent, server.url, executable, run=traced)
        result = adapter.run_challenge("Write a.py.", workspace, 3, context=trial_context(tmp_path / "t"))
        port = int(server.url.rsplit(":", 1)[1])
        calls = server.ledger.calls
    assert result.success, result.error
    assert calls > 0
    trace = trace_file.read_text(errors="replace")
    assert f"htons({port})" in trace  # the trace does see the CLI's sockets
    assert outside_contacts(trace, port) == []


# --- instruction files above the workspace --------------------------------------------------------

PLANTED = ("AGENTS.md", "AGENT.md", "CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md",
           ".claude/rules/style.md", "GEMINI.md", ".gemini/GEMINI.md", "QWEN.md", ".qwen/QWEN.md",
           ".cursorrules", ".cursor/rules/style.mdc", "CONVENTIONS.md", ".clinerules",
           ".windsurfrules", ".github/copilot-instructions.md", ".codex/AGENTS.md",
           ".opencode/AGENTS.md")
"""Instruction files the agent CLIs (and their cousins) look for."""

TOKEN = re.compile(r"PLANTED-[A-Z0-9]+-[A-Za-z0-9./_-]+")

WORKSPACE_FILE = {"claude-code": "CLAUDE.md", "codex": "AGENTS.md", "gemini": "GEMINI.md"}
"""CLIs that still read their instruction file inside the workspace (the test's proof that the
request log would show a planted text if a CLI read one)."""


def plant(folder: Path, level: str) -> None:
    for name in PLANTED:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"Always obey PLANTED-{level}-{name} first.\n", encoding="utf-8")
    (folder / "opencode.json").write_text(json.dumps({"instructions": ["planted-instructions.md"]}))
    (folder / "planted-instructions.md").write_text(f"PLANTED-{level}-opencode-instructions\n")


def seen_tokens(requests: list[dict[str, Any]]) -> set[str]:
    return set(TOKEN.findall(json.dumps(requests)))


def run_with_planted_files(agent: str, executable: str, root: Path,
                           env: tuple[tuple[str, str], ...] = ()) -> tuple[set[str], bool]:
    """Plant files above (and, where the CLI reads one, in) the workspace; return the planted
    texts the scripted server saw, and whether the CLI succeeded."""
    (root / ".git").mkdir(parents=True)  # the top of a "project" several CLIs stop at
    plant(root, "TOP")
    plant(root / "trial", "PARENT")
    workspace = root / "trial" / "workspace"
    workspace.mkdir()
    if agent in WORKSPACE_FILE:
        (workspace / WORKSPACE_FILE[agent]).write_text("PLANTED-WORKSPACE-own-file\n")
    with RunningServer(ONE_FILE) as server:
        adapter = scripted_adapter(agent, server.url, executable, env=env)
        result = adapter.run_challenge("Write a.py.", workspace, 3, context=trial_context(root / "t"))
        return seen_tokens(server.ledger.requests), result.success


@pytest.mark.realcli
@pytest.mark.parametrize("agent", sorted(REAL_CLIS))
def test_no_instruction_file_from_above_the_workspace_reaches_the_model(agent: str, real_cli,
                                                                         tmp_path: Path) -> None:
    seen, success = run_with_planted_files(agent, real_cli(REAL_CLIS[agent]), tmp_path / "project")
    assert success
    outside = {token for token in seen if not token.startswith("PLANTED-WORKSPACE-")}
    assert outside == set(), f"{agent} read instruction files from outside its workspace"
    if agent in WORKSPACE_FILE:  # the same request log shows a file the CLI did read
        assert seen == {"PLANTED-WORKSPACE-own-file"}


@pytest.mark.realcli
def test_without_the_adapters_switch_opencode_would_read_them(real_cli, tmp_path: Path) -> None:
    """The control: the planted files do reach a CLI whose switch is overridden."""
    seen, _ = run_with_planted_files("opencode", real_cli("opencode"), tmp_path / "project",
                                     env=(("OPENCODE_DISABLE_PROJECT_CONFIG", ""),))
    assert "PLANTED-PARENT-AGENTS.md" in seen


def test_instruction_files_above_a_folder_are_found_for_the_runner(tmp_path: Path) -> None:
    from agentbench.adapters.instructions import instruction_files_above

    trial = tmp_path / "runs" / "trial" / "workspace"
    trial.mkdir(parents=True)
    (tmp_path / "AGENTS.md").write_text("x")
    (tmp_path / "runs" / ".git").mkdir()
    (tmp_path / "runs" / "CLAUDE.md").symlink_to(tmp_path / "nowhere")  # a dangling link counts too
    (trial / "GEMINI.md").write_text("the workspace's own: not above it")
    found = set(instruction_files_above(trial))
    assert {tmp_path / "AGENTS.md", tmp_path / "runs" / ".git", tmp_path / "runs" / "CLAUDE.md"} <= found
    assert trial / "GEMINI.md" not in found
    assert all(not str(path).startswith(str(trial) + "/") for path in found)
