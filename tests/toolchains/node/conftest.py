"""Real `node --test` runs under the harness's reporter, on little projects the tests write."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from agentbench.models import Challenge, Rubric
from agentbench.toolchains import MeasureContext, OwnTests
from agentbench.toolchains.node import TypeScriptToolchain
from agentbench.toolchains.node.assets import node_assets
from agentbench.workspace import cache_dir
from tests.requirements import require
from tests.toolchains.helpers import own_tests_runner


@pytest.fixture(scope="session")
def assets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require("node22")
    return node_assets(cache_dir(), tmp_path_factory.mktemp("logs"))


def challenge(*test_commands: str) -> Challenge:
    return Challenge(id="easy/x", tier="easy", name="x", language="typescript", prompt="p",
                     expected_files=(), test_commands=test_commands or ("node --test",),
                     scoring_rubric=Rubric())


@pytest.fixture
def own_tests(tmp_path: Path, assets: Path) -> Callable[..., tuple[OwnTests, MeasureContext]]:
    """`own_tests(files, *commands)` -> what the harness measured of the agent's own tests."""
    return own_tests_runner(tmp_path, assets, TypeScriptToolchain(), challenge)
