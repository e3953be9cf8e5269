"""What the Go and TypeScript toolchain tests share: a trial laid out with the files a test writes,
and a runner of the agent's test commands through a toolchain as a trial would run them."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path

from agentbench.models import Challenge
from agentbench.toolchains import MeasureContext, OwnTests, Toolchain
from agentbench.workspace import make_trial_dirs


def trial_context(tmp_path: Path, assets: Path, files: Mapping[str, str]) -> MeasureContext:
    """A measuring context over a fresh trial whose workspace holds `files` (dedented)."""
    ctx = MeasureContext(dirs=make_trial_dirs(tmp_path / "t"), trial_dir=tmp_path / "trial", assets=assets)
    for name, text in files.items():
        path = ctx.dirs.workspace / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return ctx


def own_tests_runner(tmp_path: Path, assets: Path, toolchain: Toolchain,
                     challenge: Callable[..., Challenge], defaults: Mapping[str, str] | None = None
                     ) -> Callable[..., tuple[OwnTests, MeasureContext]]:
    """`run(files, *commands)` -> what the harness measured of the agent's own tests."""

    def run(files: Mapping[str, str], *commands: str) -> tuple[OwnTests, MeasureContext]:
        ctx = trial_context(tmp_path, assets, {**(defaults or {}), **files})
        work = toolchain.prepare(challenge(*commands), ctx)
        return toolchain.run_tests(challenge(*commands), ctx, work), ctx

    return run
