"""Shared fixtures of the adapter tests: finding a real agent CLI installed by `ci/install/*.sh`."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable

import pytest

TOOLS_BIN = os.path.join(os.environ.get("AGENTBENCH_TOOLS", "/opt/agentbench-tools"), "bin")
"""Where `ci/install/*.sh` links the agent CLIs (and Node 22)."""


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
            message = f"{executable} is not installed (run ci/install/*.sh)"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
        return path

    return find
