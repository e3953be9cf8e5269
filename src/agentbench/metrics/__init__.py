"""Measuring a trial's workspace: the order of the steps and the language-free parts.

`measure` is the only public entry. It measures a *snapshot* of the workspace (`agentbench.snapshot`:
regular files only, bounded, in a folder no process of the trial can write), taken when the agent
stopped. It asks the challenge language's toolchain (`agentbench.toolchains`) which files of the
snapshot are product code and which are tests, runs the hidden tests against a fresh copy of it, then
builds the project and runs the agent's own tests in another fresh copy (with a fresh home and temp)
under the harness's control, and finally scores coverage (the data mapped onto the snapshot's
files), quality (lizard over the snapshot's product files) and completeness (the checklist in
`completeness`, over the snapshot). Nothing read after the agent's own code ran (setup, own tests)
comes from a tree that code could write. Each step returns one frozen measurement; their logs land
in the trial folder.

When the run leaves a core free (`MeasureContext.side_by_side`) and the toolchain's hidden run shares
nothing with its build and own tests (`hidden_alongside`), the hidden tests run in a thread of their
own beside the other steps: the copies are made from the snapshot before either starts, and every
process that could reach the hidden run at that time runs the agent's code as the trial's user,
which the hidden run's own process already does (its verdict rests on the canaries, not on anything
in that process; docs/scoring-integrity.md).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from agentbench.metrics.change import change_sets
from agentbench.metrics.completeness import measure_completeness
from agentbench.metrics.quality import measure_quality
from agentbench.metrics.steps import Steps
from agentbench.models import (
    AcceptanceMeasurement,
    BuildMeasurement,
    Challenge,
    CompletenessMeasurement,
    CoverageMeasurement,
    Measurements,
    QualityMeasurement,
    StepFailure,
    TestMeasurement,
)
from agentbench.snapshot import Snapshot, take_snapshot
from agentbench.toolchains import HiddenRun, MeasureContext, Toolchain, get_toolchain
from agentbench.toolchains.base import OwnTests, SourceFiles
from agentbench.workspace import copy_tree, make_trial_dirs

__all__ = ["MeasureContext", "Steps", "failed_measurements", "measure", "side_by_side", "snapshot_of"]

T = TypeVar("T")


def snapshot_of(ctx: MeasureContext) -> Snapshot:
    """A snapshot of `ctx`'s workspace in a fresh harness-private folder of the trial's root."""
    return take_snapshot(ctx.dirs.workspace, ctx.dirs.base / f"snapshot-{secrets.token_hex(8)}")


def measure(challenge: Challenge, ctx: MeasureContext, toolchain: Toolchain | None = None,
            snapshot: Snapshot | None = None, steps: Steps | None = None) -> Measurements:
    """Measure `snapshot` (default: one taken now of `ctx.dirs.workspace`; see the module docstring).

    Each step runs through `steps` (`metrics.steps`): one that raises counts zero and is recorded in
    `failures`; the others are measured as usual."""
    toolchain = toolchain or get_toolchain(challenge.language)
    steps = steps or Steps(ctx.logs, own_uid=ctx.user is None)
    taken = snapshot or steps.run("snapshot", lambda: snapshot_of(ctx), lambda: None)
    if taken is None:
        return failed_measurements(challenge, ctx, tuple(steps.failures))
    root = taken.root
    sources = steps.run("sources", lambda: replace(toolchain.sources(root), root=root),
                        lambda: SourceFiles(root=root))

    def hidden() -> AcceptanceMeasurement | None:
        return steps.run("hidden tests", lambda: _hidden(challenge, toolchain, ctx, root),
                         lambda: _failed_acceptance(challenge, ctx))

    with _alongside(hidden, ctx.side_by_side and side_by_side(toolchain)) as acceptance:
        build, own, coverage = _own_steps(challenge, toolchain, ctx, (root, sources), steps)
        quality = steps.run("quality", lambda: measure_quality(sources.product, root,
                                                               ctx.logs() / "quality.log"),
                            QualityMeasurement)
        completeness = steps.run("completeness", lambda: measure_completeness(challenge, root, own.tests),
                                 lambda: CompletenessMeasurement(missing=(FAILED,)))
    return Measurements(build=build, tests=own.tests, coverage=coverage, quality=quality,
                        completeness=completeness, acceptance=acceptance.result(),
                        removed_symlinks=taken.links,
                        failures=tuple(steps.failures))


def side_by_side(toolchain: Toolchain) -> bool:
    """Whether `toolchain`'s hidden run shares nothing with its build and own tests (an optional
    `hidden_alongside` attribute; default no), so the two may run at the same time."""
    return getattr(toolchain, "hidden_alongside", False) is True


@contextlib.contextmanager
def _alongside(step: Callable[[], T], parallel: bool) -> Iterator[Future[T]]:
    """`step` in a thread of its own while the block runs (`parallel`), else before it; the block
    gets its future. Leaving the block waits for it (an interrupted run's commands are killed and no
    new one starts, `run_command`)."""
    if not parallel:
        done: Future[T] = Future()
        done.set_result(step())
        yield done
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="hidden-tests") as pool:
        yield pool.submit(step)


FAILED = "measuring failed on this workspace (see failures)"
"""What a step that raised says in its zero measurement."""


def _own_steps(challenge: Challenge, toolchain: Toolchain, ctx: MeasureContext,
               listed: tuple[Path, SourceFiles], steps: Steps,
               ) -> tuple[BuildMeasurement, OwnTests, CoverageMeasurement]:
    """Build, own tests and coverage, in a fresh copy of the snapshot (a step that cannot run
    because an earlier one failed counts zero too)."""
    root, sources = listed
    failed_own = OwnTests(tests=TestMeasurement(problem=FAILED))
    prepared = steps.run("prepare", lambda: _prepare(challenge, toolchain, ctx, root), lambda: None)
    if prepared is None:
        return BuildMeasurement(success=False), failed_own, CoverageMeasurement(problem=FAILED)
    own_ctx, work = prepared
    build = steps.run("build", lambda: toolchain.build(challenge, own_ctx, work,
                                                       sources.rebased(own_ctx.dirs.workspace)),
                      lambda: BuildMeasurement(success=False))
    own = steps.run("own tests", lambda: toolchain.run_tests(challenge, own_ctx, work), lambda: failed_own)
    coverage = steps.run("coverage", lambda: toolchain.coverage(own, sources, own_ctx),
                         lambda: CoverageMeasurement(problem=FAILED))
    return build, own, coverage


def _prepare(challenge: Challenge, toolchain: Toolchain, ctx: MeasureContext,
             root: Path) -> tuple[MeasureContext, Path]:
    own_ctx = fresh_workspace(ctx, root)
    return own_ctx, toolchain.prepare(challenge, own_ctx)


def failed_measurements(challenge: Challenge, ctx: MeasureContext,
                        failures: tuple[StepFailure, ...]) -> Measurements:
    """Every component at zero, with `failures` saying why (nothing could be measured)."""
    return Measurements(build=BuildMeasurement(success=False), tests=TestMeasurement(problem=FAILED),
                        coverage=CoverageMeasurement(problem=FAILED), quality=QualityMeasurement(),
                        completeness=CompletenessMeasurement(missing=(FAILED,)),
                        acceptance=_failed_acceptance(challenge, ctx), failures=failures)


def _failed_acceptance(challenge: Challenge, ctx: MeasureContext) -> AcceptanceMeasurement | None:
    """The hidden tests when their step raised: every expected one failed."""
    if challenge.acceptance is None:
        return None
    expected = ctx.expected_acceptance_tests or 0
    return AcceptanceMeasurement(tests=TestMeasurement(failed=expected, collected=expected, problem=FAILED))


def fresh_workspace(ctx: MeasureContext, snapshot: Path) -> MeasureContext:
    """`ctx` with fresh folders (a copy of `snapshot` as the workspace, an empty home and temp),
    handed to the trial's user, for the steps that run the agent's code."""
    base = Path(tempfile.mkdtemp(prefix="measure-", dir=ctx.dirs.base))
    copy_tree(snapshot, base / "workspace")
    return replace(ctx, dirs=make_trial_dirs(base, ctx.user), snapshot=snapshot)


def _hidden(challenge: Challenge, toolchain: Toolchain, ctx: MeasureContext,
            project: Path) -> AcceptanceMeasurement | None:
    if challenge.acceptance is None:
        return None
    run: HiddenRun = toolchain.run_hidden(challenge.acceptance, ctx, project)
    body = {"outcomes": [list(o) for o in run.outcomes], "tampering": list(run.measurement.tampering)}
    (ctx.logs() / "hidden-tests.json").write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    sets = change_sets(challenge, run.outcomes, voided=run.measurement.tests.problem is not None)
    return replace(run.measurement, sets=sets) if sets is not None else run.measurement
