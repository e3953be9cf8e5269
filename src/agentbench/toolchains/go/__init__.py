"""The Go toolchain: `go build ./...` or the setup commands, `go test -json` counted by the harness,
statement coverage of every package from `-coverpkg=./... -coverprofile`, hidden `_test.go` files in
a copy of the project, and the warmed build cache read in place (`assets.layered`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agentbench.errors import RunError
from agentbench.models import (
    AcceptanceSpec,
    BuildMeasurement,
    Challenge,
    CommandResult,
    CoverageMeasurement,
    TestMeasurement,
)
from agentbench.toolchains.base import (
    CommandSpec,
    HiddenRun,
    MeasureContext,
    OwnTests,
    SourceFiles,
    combine_counts,
    command_argv,
    read_log,
    run_command,
)
from agentbench.toolchains.canaries import HiddenCatalog
from agentbench.toolchains.go import hidden
from agentbench.toolchains.go.assets import go_assets, layered, load_go
from agentbench.toolchains.go.collect import (
    Collected,
    install_exec,
    own_exec,
    run_with_channel,
    to_profile,
)
from agentbench.toolchains.go.coverage import expected_profiles, measure_coverage
from agentbench.toolchains.go.gotest import Tally, go_test_argv, tally
from agentbench.toolchains.go.lint import lint_go_challenge
from agentbench.toolchains.go.sources import classify_sources, test_files_of
from agentbench.toolchains.go.tools import find_go, go_env


class GoToolchain:
    """Measures Go challenges (see the package docstring)."""

    name = "go"
    aliases: tuple[str, ...] = ("golang",)
    hidden_alongside = True
    """The hidden run has its own copy, folders and build-cache layer: it may run beside the own steps."""

    def missing(self) -> str | None:
        """Why Go challenges cannot run here (Go not found), None when they can."""
        try:
            find_go()
        except RunError as exc:
            return f"{exc.message}; {exc.hint}"
        return None

    def prepare_run(self, cache: Path, log_dir: Path,
                    announce: Callable[[str], None] = lambda _: None) -> Path:
        """The cached assets: where Go is, and the warmed build cache."""
        return go_assets(cache, log_dir, announce)

    def prepare(self, challenge: Challenge, ctx: MeasureContext) -> Path:
        """A fresh folder with the trial's own build cache, GOPATH and coverage folder."""
        work = ctx.private_dir("env")
        layered(ctx.assets, work)
        (work / "gopath").mkdir()
        ctx.let_write(work)  # NOTE: the trial's builds and tests write the caches and profiles there
        return work

    def sources(self, workspace: Path) -> SourceFiles:
        """Product code and tests (see `sources`)."""
        return classify_sources(workspace)

    def build(self, challenge: Challenge, ctx: MeasureContext, work: Path,
              sources: SourceFiles) -> BuildMeasurement:
        """The setup commands in order, or `go build ./...`; a project with no Go file does not build."""
        go = load_go(ctx.assets)
        if not challenge.setup_commands and not sources.product and not sources.tests:
            return BuildMeasurement(success=False)
        commands = challenge.setup_commands or ("go build ./...",)
        results: list[CommandResult] = []
        for index, command in enumerate(commands, start=1):
            argv = _with_go(command, go)
            results.append(run_command(CommandSpec(command=command, env=_env(go, ctx, work),
                                                   log_name=f"setup-{index}", argv=argv),
                                       ctx, ctx.confinement(work)))
            if not results[-1].ok:
                break
        return BuildMeasurement(success=all(r.ok for r in results), commands=tuple(results))

    def run_tests(self, challenge: Challenge, ctx: MeasureContext, work: Path) -> OwnTests:
        """Each `go test` command with -json and coverage of every package of the module, collected
        by the harness's -exec program (`collect`)."""
        go = load_go(ctx.assets)
        runs: list[tuple[CommandResult, Tally]] = []
        program, collected = install_exec(ctx), Collected()
        for index, command in enumerate(challenge.test_commands, start=1):
            argv, direct = go_test_argv(command, str(go), ("-count=1", "-coverpkg=./...", program.flag))
            spec = CommandSpec(command=command, env=_env(go, ctx, work), log_name=f"test-{index}",
                               argv=argv)
            if direct and not own_exec(tuple(command_argv(command))):
                result = run_with_channel(spec, ctx, work, program, collected)
            else:
                result = run_command(spec, ctx, ctx.confinement(work))
            runs.append((result, tally(read_log(ctx, result), returncode=result.returncode,
                                       timed_out=result.timed_out, direct=direct)))
        if collected.void:
            (ctx.logs() / "coverage-void.log").write_text("\n".join(collected.void) + "\n", encoding="utf-8")
        profile = to_profile(collected, ctx, go, work)
        names = ctx.private_dir("cover-names") / "profiles"
        names.write_text(f"{profile}\n" if profile else "", encoding="utf-8")
        return OwnTests(tests=_measurement(runs, ctx), coverage_data=names)

    def coverage(self, own: OwnTests, sources: SourceFiles, ctx: MeasureContext) -> CoverageMeasurement:
        """Statements covered over every product file, from the profile the harness made itself."""
        profiles = expected_profiles(own.coverage_data) if own.coverage_data is not None else []
        return measure_coverage(profiles, sources, ctx)

    def run_hidden(self, spec: AcceptanceSpec, ctx: MeasureContext, project: Path) -> HiddenRun:
        """The hidden tests in a copy of `project`."""
        return hidden.run_hidden_tests(spec, ctx, project, load_go(ctx.assets))

    def survey_hidden(self, spec: AcceptanceSpec, reference: Path,
                      ctx: MeasureContext) -> HiddenCatalog | None:
        """The hidden tests' ids on the reference solution."""
        return hidden.survey_hidden_tests(spec, reference, ctx, load_go(ctx.assets))

    def lint(self, challenge: Challenge) -> tuple[str, ...]:
        """Test commands the harness cannot count; hidden tests needing more than it provides."""
        return lint_go_challenge(challenge)


def _env(go: Path, ctx: MeasureContext, work: Path) -> dict[str, str]:
    """A go command's environment: caches in `work`, the warmed build cache read in place."""
    return go_env(go, ctx.dirs, work, layered(ctx.assets, work))


def _with_go(command: str, go: Path) -> tuple[str, ...]:
    argv = command_argv(command)
    return (str(go), *argv[1:]) if argv and argv[0] == "go" else tuple(argv)


def _measurement(runs: list[tuple[CommandResult, Tally]], ctx: MeasureContext) -> TestMeasurement:
    """Add up the tallies of several commands; any unestablished or forged count voids them all."""
    tallies = [t for _, t in runs]
    packages = tuple(sorted({p for t in tallies for p in t.packages}))
    return combine_counts(tallies, tuple(r for r, _ in runs), test_files_of(packages, ctx.dirs.workspace))
