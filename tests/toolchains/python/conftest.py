"""Real pytest runs under the harness's probe, on little projects the tests write."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from agentbench.models import Challenge, Rubric, TestMeasurement
from agentbench.toolchains import MeasureContext
from agentbench.toolchains.python import PythonToolchain
from agentbench.toolchains.python.env import template_site_packages
from agentbench.workspace import cache_dir, make_trial_dirs


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return template_site_packages(cache_dir(), tmp_path_factory.mktemp("logs"))


def challenge(*test_commands: str) -> Challenge:
    return Challenge(id="easy/x", tier="easy", name="x", language="python", prompt="p",
                     expected_files=(), test_commands=test_commands or ("python -m pytest tests -q",),
                     scoring_rubric=Rubric())


def context(tmp_path: Path, template: Path, files: Mapping[str, str]) -> MeasureContext:
    ctx = MeasureContext(dirs=make_trial_dirs(tmp_path / "t"), trial_dir=tmp_path / "trial",
                         assets=template)
    for name, text in files.items():
        path = ctx.dirs.workspace / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return ctx


@pytest.fixture
def own_tests(tmp_path: Path, template: Path) -> Callable[..., TestMeasurement]:
    """`own_tests(files, *commands)` -> what the harness counts for the agent's own tests."""

    def run(files: Mapping[str, str], *commands: str) -> TestMeasurement:
        ctx = context(tmp_path, template, files)
        toolchain = PythonToolchain()
        work = toolchain.prepare(challenge(*commands), ctx)
        return toolchain.run_tests(challenge(*commands), ctx, work).tests

    return run
