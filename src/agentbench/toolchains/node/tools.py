"""Finding Node 22 and npm, and the explicit environment every Node command of a trial runs with.

Tools are looked up in `$AGENTBENCH_TOOLS/bin` (default /opt/agentbench-tools/bin, where
`ci/install/node22.sh` links Node 22) first, then on PATH; no system Node is assumed. A missing tool,
or a Node older than 22, is a RunError naming the install script.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from agentbench import process
from agentbench.errors import RunError
from agentbench.workspace import TrialDirs

TOOLS_VARIABLE = "AGENTBENCH_TOOLS"
DEFAULT_TOOLS = "/opt/agentbench-tools"
INSTALL_HINT = "install Node 22 with `bash ci/install/node22.sh` (it links $AGENTBENCH_TOOLS/bin/node)"
MIN_NODE_MAJOR = 22
BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
PASSED_VARIABLES = ("NODE_EXTRA_CA_CERTS",)
"""Variables of AgentBench's own environment that npm needs to reach the registry (never secrets)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeTools:
    """The Node and npm a run measures with."""

    node: Path
    """Node 22 or newer."""
    npm: Path
    """npm (run by that Node: its folder comes first on PATH)."""
    version: str
    """`node --version`, e.g. v22.23.5."""

    @property
    def path(self) -> str:
        """PATH for commands: Node's folder, npm's, then the system's."""
        folders = dict.fromkeys([str(self.node.parent), str(self.npm.parent), BASE_PATH])
        return ":".join(folders)


def find_tool(name: str, hint: str) -> Path:
    """`name` from $AGENTBENCH_TOOLS/bin, else from PATH (RunError with `hint` when missing)."""
    tools = Path(os.environ.get(TOOLS_VARIABLE) or DEFAULT_TOOLS) / "bin" / name
    if tools.is_file() and os.access(tools, os.X_OK):
        return tools
    found = shutil.which(name)
    if found is None:
        raise RunError(f"'{name}' was found neither in {tools.parent} nor on PATH", hint)
    return Path(found)


def find_node_tools(log_dir: Path) -> NodeTools:
    """Node (>= 22) and npm, checked by running `node --version` (RunError otherwise)."""
    node = find_tool("node", INSTALL_HINT)
    npm = find_tool("npm", INSTALL_HINT + "; npm comes with your Node installation")
    log_dir.mkdir(parents=True, exist_ok=True)
    result = process.run([str(node), "--version"], cwd=log_dir, env={"PATH": BASE_PATH}, timeout_s=60,
                         stdout_path=log_dir / "node-version.log", stderr_path=log_dir / "node-version.err")
    version = result.stdout_path.read_text(errors="replace").strip()
    major = version.lstrip("v").split(".")[0]
    if not result.ok or not major.isdigit() or int(major) < MIN_NODE_MAJOR:
        raise RunError(f"{node} is Node {version or '(unknown)'}; TypeScript challenges need Node "
                       f"{MIN_NODE_MAJOR} or newer", INSTALL_HINT)
    return NodeTools(node=node, npm=npm, version=version)


def npm_variables(cache: Path) -> dict[str, str]:
    """npm settings every command gets: the given cache, offline first, no audit/fund/update noise."""
    return {"npm_config_cache": str(cache), "npm_config_prefer_offline": "true",
            "npm_config_audit": "false", "npm_config_fund": "false",
            "npm_config_update_notifier": "false", "npm_config_loglevel": "warn"}


def command_env(tools: NodeTools, dirs: TrialDirs, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The explicit environment of a Node command: nothing leaks in from AgentBench's own."""
    env = {"PATH": tools.path, "HOME": str(dirs.home), "TMPDIR": str(dirs.tmp), "LANG": "C.UTF-8",
           "LC_ALL": "C.UTF-8", "NODE_NO_WARNINGS": "1", "CI": "true"}
    env.update({name: os.environ[name] for name in PASSED_VARIABLES if name in os.environ})
    return {**env, **(extra or {})}
