"""Finding Go, the cached assets (a warmed build cache), and the environment of every Go command.

`go` is looked up in `$AGENTBENCH_TOOLS/bin` (where `ci/install/go.sh` links it) first, then on PATH;
missing, it is a RunError naming the install script. Every command runs with an explicit environment:
the warmed build cache read in place with a layer of the command's own for what it builds
(`assets.layered`: one trial's build outputs never reach another), a module cache and GOPATH of the harness's, no network for modules (GOPROXY=off), no cgo,
no user configuration file (GOENV=off), no workspace file (GOWORK=off), no toolchain download.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from agentbench.errors import RunError
from agentbench.workspace import TrialDirs

TOOLS_VARIABLE = "AGENTBENCH_TOOLS"
DEFAULT_TOOLS = "/opt/agentbench-tools"
INSTALL_HINT = "install Go with `bash ci/install/go.sh` (it links $AGENTBENCH_TOOLS/bin/go)"
BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
SYSTEM_PYTHON = Path("/usr/bin/python3")
"""Runs the harness's -exec and cache programs (standard library only): the system's, visible
read-only in every sandbox; without one, the Python running AgentBench."""


def find_go() -> Path:
    """`go` from $AGENTBENCH_TOOLS/bin, else from PATH (RunError naming the install script)."""
    tools = Path(os.environ.get(TOOLS_VARIABLE) or DEFAULT_TOOLS) / "bin" / "go"
    if tools.is_file() and os.access(tools, os.X_OK):
        return tools
    found = shutil.which("go")
    if found is None:
        raise RunError(f"'go' was found neither in {tools.parent} nor on PATH", INSTALL_HINT)
    return Path(found)


def go_env(go: Path, dirs: TrialDirs, work: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The explicit environment of a Go command whose caches live in `work` (see the module docstring)."""
    return {
        "PATH": f"{go.parent}:{BASE_PATH}", "HOME": str(dirs.home), "TMPDIR": str(dirs.tmp),
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "GOCACHE": str(work / "gocache"),
        "GOPATH": str(work / "gopath"), "GOMODCACHE": str(work / "gopath" / "pkg" / "mod"),
        "GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOSUMDB": "off", "GOTOOLCHAIN": "local",
        "GOENV": "off", "GOWORK": "off", "CGO_ENABLED": "0", "GOTELEMETRY": "off",
        **(extra or {}),
    }
