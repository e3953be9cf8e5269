"""Real `go test` runs counted by the harness, on little modules the tests write."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from agentbench.models import Challenge, Rubric
from agentbench.toolchains import MeasureContext, OwnTests
from agentbench.toolchains.go import GoToolchain
from agentbench.toolchains.go.assets import go_assets
from agentbench.workspace import cache_dir
from tests.requirements import require
from tests.toolchains.helpers import own_tests_runner

GO_MOD = "module example.com/m\n\ngo 1.22\n"


@pytest.fixture(scope="session")
def assets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require("go")
    return go_assets(cache_dir(), tmp_path_factory.mktemp("logs"))


def challenge(*test_commands: str) -> Challenge:
    return Challenge(id="easy/x", tier="easy", name="x", language="go", prompt="p", expected_files=(),
                     test_commands=test_commands or ("go test ./...",), scoring_rubric=Rubric())


@pytest.fixture
def own_tests(tmp_path: Path, assets: Path) -> Callable[..., tuple[OwnTests, MeasureContext]]:
    """`own_tests(files, *commands)` -> what the harness measured of the agent's own tests."""
    return own_tests_runner(tmp_path, assets, GoToolchain(), challenge, {"go.mod": GO_MOD})
