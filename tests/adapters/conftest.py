"""Shared fixtures of the adapter tests: finding a real agent CLI installed by `ci/install/*.sh`."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator

import pytest

from agentbench.modelserver import RunningServer, Script, ScriptedFile
from tests.requirements import missing

TOOLS_BIN = os.path.join(os.environ.get("AGENTBENCH_TOOLS", "/opt/agentbench-tools"), "bin")
"""Where `ci/install/*.sh` links the agent CLIs (and Node 22)."""
INSTALL_SCRIPTS = {"claude": "claude-code", "qwen": "qwen"}
"""The install script of each executable whose name differs from its script's."""


@pytest.fixture
def real_cli(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], str]:
    """`real_cli("gemini")` -> the executable's path, with TOOLS_BIN first on PATH.

    A missing CLI fails the test when the environment variable CI is set (CI installs them all)
    and skips it otherwise.
    """
    monkeypatch.setenv("PATH", TOOLS_BIN + os.pathsep + os.environ.get("PATH", ""))

    def find(executable: str) -> str:
        path = shutil.which(executable)
        if path is None:
            script = INSTALL_SCRIPTS.get(executable, executable)
            missing(f"needs the {executable} CLI: bash ci/install/{script}.sh")
        return path

    return find


@pytest.fixture
def server() -> Iterator[RunningServer]:
    """A scripted model server that writes `a.py` and finishes (11 input, 3 output tokens a call)."""
    script = Script(files=(ScriptedFile(path="a.py", content="A = 1\n"),), final_message="Finished.",
                    input_tokens=11, output_tokens=3)
    with RunningServer(script) as running:
        yield running
