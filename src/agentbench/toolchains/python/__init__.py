"""The Python toolchain: venvs from a cached template, pytest under the harness's probe, coverage.py
over every product file, lizard-ready source lists, hidden tests against a copy of the project."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from agentbench.models import AcceptanceSpec, BuildMeasurement, Challenge, CoverageMeasurement
from agentbench.toolchains.base import CommandSpec, HiddenRun, MeasureContext, OwnTests, SourceFiles
from agentbench.toolchains.canaries import HiddenCatalog
from agentbench.toolchains.python import hidden
from agentbench.toolchains.python.build import measure_build
from agentbench.toolchains.python.coverage import coverage_config, measure_coverage
from agentbench.toolchains.python.env import (
    PythonEnv,
    command_env,
    create_env,
    template_site_packages,
)
from agentbench.toolchains.python.interpreter import base_python
from agentbench.toolchains.python.lint import lint_python_challenge
from agentbench.toolchains.python.sources import classify_sources
from agentbench.toolchains.python.testrun import run_probed, to_measurement
from agentbench.workspace import copy_tree


def coverage_core() -> dict[str, str]:
    """On Python 3.12+ coverage measures through sys.monitoring, much cheaper in every process it
    starts in (the trial environments' Python, see `interpreter`)."""
    series = tuple(int(part) for part in base_python().version.split(".")[:2])
    return {"COVERAGE_CORE": "sysmon"} if series >= (3, 12) else {}


def _env(work: Path) -> PythonEnv:
    root = work / "venv"
    site = next(iter(sorted((root / "lib").glob("python3*/site-packages"))))
    return PythonEnv(root=root, python=root / "bin" / "python", site_packages=site)


class PythonToolchain:
    """Measures Python challenges (see the package docstring)."""

    name = "python"
    aliases: tuple[str, ...] = ("py", "python3")
    hidden_alongside = True
    """The hidden run has its own environment and copy: it may run beside the build and own tests."""

    def prepare_run(self, cache: Path, log_dir: Path,
                    announce: Callable[[str], None] = lambda _: None) -> Path:
        """The cached template environment's site-packages (built once)."""
        return template_site_packages(cache, log_dir, announce)

    def prepare(self, challenge: Challenge, ctx: MeasureContext) -> Path:
        """A fresh folder holding the trial's venv (commands may write it: pip installs there)."""
        work = ctx.private_dir("env")
        create_env(work / "venv", ctx.assets)
        ctx.let_write(work)  # NOTE: setup commands install into it; the harness never runs it
        return work

    def sources(self, workspace: Path) -> SourceFiles:
        """Product code and tests (see `sources`)."""
        return classify_sources(workspace)

    def build(self, challenge: Challenge, ctx: MeasureContext, work: Path,
              sources: SourceFiles) -> BuildMeasurement:
        """Setup commands, or compile every source file."""
        return measure_build(challenge, _env(work), work, ctx, sources)

    def run_tests(self, challenge: Challenge, ctx: MeasureContext, work: Path) -> OwnTests:
        """Each test command under the probe, which starts coverage.py in the pytest process."""
        rc = coverage_config(work, ctx.dirs.workspace)
        start = ctx.private_dir("own-tests-start") / "workspace"
        copy_tree(ctx.dirs.workspace, start)  # NOTE: the second collector starts from this same tree
        ctx.let_write(work)
        env = command_env(_env(work), ctx.dirs, {"COVERAGE_PROCESS_START": str(rc), **coverage_core()})
        runs = [run_probed(CommandSpec(command=command, env=env, log_name=f"test-{index}"),
                           ctx, ctx.confinement(work))
                for index, command in enumerate(challenge.test_commands, start=1)]
        tested = any(run.tally.collected for run in runs)
        # NOTE: no test collected anywhere (noop, a stub): nothing to confirm, no second run
        confirmed = self._trace(challenge, _restored(ctx, start), work) if tested else {}
        return OwnTests(tests=to_measurement(runs, ctx.dirs.workspace),
                        coverage_data=work / "coverage", confirmed_lines=confirmed)

    @staticmethod
    def _trace(challenge: Challenge, ctx: MeasureContext, work: Path) -> dict[str, frozenset[int]]:
        """Each test command once more, coverage.py off, the probe's own line collector on: the lines
        it saw run (see `coverage`); its outcomes are logged (`trace-N`), never counted."""
        env = command_env(_env(work), ctx.dirs)
        seen: dict[str, set[int]] = {}
        for index, command in enumerate(challenge.test_commands, start=1):
            run = run_probed(CommandSpec(command=command, env=env, log_name=f"trace-{index}"),
                             ctx, ctx.confinement(work), trace=(ctx.dirs.workspace,))
            for name, lines in run.tally.lines:
                seen.setdefault(os.path.realpath(name), set()).update(lines)
        return {name: frozenset(lines) for name, lines in seen.items()}

    def coverage(self, own: OwnTests, sources: SourceFiles, ctx: MeasureContext) -> CoverageMeasurement:
        """Statements covered over every product file."""
        return measure_coverage(own.coverage_data, sources, ctx, own.confirmed_lines)

    def run_hidden(self, spec: AcceptanceSpec, ctx: MeasureContext, project: Path) -> HiddenRun:
        """The hidden tests against a copy of `project`."""
        return hidden.run_hidden_tests(spec, ctx, project)

    def survey_hidden(self, spec: AcceptanceSpec, reference: Path,
                      ctx: MeasureContext) -> HiddenCatalog | None:
        """Hidden tests and verified canaries on the reference solution."""
        return hidden.survey_hidden_tests(spec, reference, ctx)

    def lint(self, challenge: Challenge) -> tuple[str, ...]:
        """Test commands the harness cannot count; hidden tests needing more than it provides."""
        return lint_python_challenge(challenge)


def _restored(ctx: MeasureContext, start: Path) -> MeasureContext:
    """`ctx` with its workspace put back as it was before the first test run (whatever the tests
    changed in it, e.g. a conftest rewriting or replacing a product file, is gone), so both collectors
    run the same code."""
    shutil.rmtree(ctx.dirs.workspace)
    copy_tree(start, ctx.dirs.workspace)
    ctx.dirs.workspace.mkdir(exist_ok=True)
    ctx.let_write(ctx.dirs.workspace)
    return ctx
