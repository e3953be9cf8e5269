"""The TypeScript/JavaScript toolchain (Node 22): setup commands or a parse of every file, node:test
under the harness's reporter, V8 line coverage of every product file, hidden tests against a copy of
the project (a child process per test file, the verdict in the parent), and a private copy of a
warmed npm cache per trial."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from agentbench.errors import RunError
from agentbench.models import AcceptanceSpec, BuildMeasurement, Challenge, CoverageMeasurement
from agentbench.toolchains.base import HiddenRun, MeasureContext, OwnTests, SourceFiles
from agentbench.toolchains.canaries import HiddenCatalog
from agentbench.toolchains.node import hidden
from agentbench.toolchains.node.assets import load_tools, node_assets, trial_npm_cache
from agentbench.toolchains.node.build import measure_build
from agentbench.toolchains.node.confirm import collect, load_confirmed
from agentbench.toolchains.node.coverage import countable_lines_file, measure_coverage
from agentbench.toolchains.node.lint import lint_node_challenge
from agentbench.toolchains.node.sources import classify_sources
from agentbench.toolchains.node.testrun import ReportedCommand, run_reported, to_measurement
from agentbench.toolchains.node.tools import NodeTools, command_env, find_node_tools, npm_variables


class TypeScriptToolchain:
    """Measures TypeScript and JavaScript challenges (see the package docstring)."""

    name = "typescript"
    aliases: tuple[str, ...] = ("ts", "javascript", "js", "node")
    hidden_alongside = True
    """The hidden run has its own copy, npm cache and folders: it may run beside the own steps."""

    def missing(self) -> str | None:
        """Why TypeScript challenges cannot run here (no Node >= 22 or npm), None when they can."""
        import tempfile

        try:
            with tempfile.TemporaryDirectory(prefix="agentbench-node-check-") as logs:
                find_node_tools(Path(logs))
        except RunError as exc:
            return f"{exc.message}; {exc.hint}"
        return None

    def prepare_run(self, cache: Path, log_dir: Path,
                    announce: Callable[[str], None] = lambda _: None) -> Path:
        """The cached assets: where Node and npm are, and the warmed npm cache."""
        return node_assets(cache, log_dir, announce)

    def prepare(self, challenge: Challenge, ctx: MeasureContext) -> Path:
        """A fresh folder holding the trial's own copy of the npm cache and its coverage folder."""
        work = ctx.private_dir("env")
        trial_npm_cache(ctx.assets, work / "npm-cache")
        (work / "coverage").mkdir()
        ctx.let_write(work)  # NOTE: the trial's commands install and write coverage there
        return work

    def sources(self, workspace: Path) -> SourceFiles:
        """Product code and tests (see `sources`)."""
        return classify_sources(workspace)

    def build(self, challenge: Challenge, ctx: MeasureContext, work: Path,
              sources: SourceFiles) -> BuildMeasurement:
        """Setup commands, or a parse of every source file."""
        tools = load_tools(ctx.assets)
        env = command_env(tools, ctx.dirs, npm_variables(work / "npm-cache"))
        return measure_build(challenge, ctx, work, sources, env, tools)

    def run_tests(self, challenge: Challenge, ctx: MeasureContext, work: Path) -> OwnTests:
        """Each test command under the reporter, with V8 coverage on in every Node process; with a
        core free, the snapshot's countable lines are worked out meanwhile (`countable_lines_file`)."""
        tools = load_tools(ctx.assets)
        with _beside(ctx, tools) as groundwork:
            env = command_env(tools, ctx.dirs, {**npm_variables(work / "npm-cache"),
                                                "NODE_V8_COVERAGE": str(work / "coverage")})
            runs = [run_reported(ReportedCommand(command=command, env=env, log_name=f"test-{index}"),
                                 ctx, ctx.confinement(work), tools)
                    for index, command in enumerate(challenge.test_commands, start=1)]
            second = command_env(tools, ctx.dirs, npm_variables(work / "npm-cache"))
            tested = any(run.tally.collected for run in runs)  # none (noop, a stub): no second run
            commands = challenge.test_commands if tested else ()
            confirmed = collect(commands, second, ctx, work, tools)
        return OwnTests(tests=to_measurement(runs, ctx.dirs.workspace), coverage_data=work / "coverage",
                        confirmed_data=confirmed, groundwork=_found(groundwork))

    def coverage(self, own: OwnTests, sources: SourceFiles, ctx: MeasureContext) -> CoverageMeasurement:
        """Lines covered over every product file, where the harness's second collector agrees."""
        return measure_coverage(own.coverage_data, sources, ctx, load_tools(ctx.assets),
                                load_confirmed(own.confirmed_data), own.groundwork)

    def run_hidden(self, spec: AcceptanceSpec, ctx: MeasureContext, project: Path) -> HiddenRun:
        """The hidden tests against a copy of `project`."""
        return hidden.run_hidden_tests(spec, ctx, project, load_tools(ctx.assets))

    def survey_hidden(self, spec: AcceptanceSpec, reference: Path,
                      ctx: MeasureContext) -> HiddenCatalog | None:
        """The hidden tests' ids on the reference solution."""
        return hidden.survey_hidden_tests(spec, reference, ctx, load_tools(ctx.assets))

    def lint(self, challenge: Challenge) -> tuple[str, ...]:
        """Test commands the harness cannot count; hidden tests needing more than it provides."""
        return lint_node_challenge(challenge)


@contextlib.contextmanager
def _beside(ctx: MeasureContext, tools: NodeTools) -> Iterator[Future[Path] | None]:
    """The snapshot's countable lines worked out in a thread while the block runs, when the run
    leaves a core free and the snapshot is known (else None: coverage works them out itself)."""
    if not ctx.side_by_side or ctx.snapshot is None:
        yield None
        return
    snapshot = ctx.snapshot
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="coverage-lines") as pool:
        yield pool.submit(lambda: countable_lines_file(classify_sources(snapshot).product, snapshot,
                                                       ctx, tools))


def _found(groundwork: Future[Path] | None) -> Path | None:
    """`_beside`'s file; None when it was not worked out or that failed (coverage then works the
    lines out itself, and a failure there is the coverage step's, not the own tests')."""
    if groundwork is None or groundwork.exception() is not None:
        return None
    return groundwork.result()
