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
"""

from __future__ import annotations

import json
import secrets
import tempfile
from dataclasses import replace
from pathlib import Path

from agentbench.metrics.change import change_sets
from agentbench.metrics.completeness import measure_completeness
from agentbench.metrics.quality import measure_quality
from agentbench.models import AcceptanceMeasurement, Challenge, Measurements
from agentbench.snapshot import Snapshot, take_snapshot
from agentbench.toolchains import HiddenRun, MeasureContext, Toolchain, get_toolchain
from agentbench.workspace import copy_tree, make_trial_dirs

__all__ = ["MeasureContext", "measure", "snapshot_of"]


def snapshot_of(ctx: MeasureContext) -> Snapshot:
    """A snapshot of `ctx`'s workspace in a fresh harness-private folder of the trial's root."""
    return take_snapshot(ctx.dirs.workspace, ctx.dirs.base / f"snapshot-{secrets.token_hex(8)}")


def measure(challenge: Challenge, ctx: MeasureContext, toolchain: Toolchain | None = None,
            snapshot: Snapshot | None = None) -> Measurements:
    """Measure `snapshot` (default: one taken now of `ctx.dirs.workspace`; see the module docstring)."""
    toolchain = toolchain or get_toolchain(challenge.language)
    snapshot = snapshot or snapshot_of(ctx)
    root = snapshot.root
    sources = replace(toolchain.sources(root), root=root)
    acceptance = _hidden(challenge, toolchain, ctx, root)
    own_ctx = fresh_workspace(ctx, root)
    work = toolchain.prepare(challenge, own_ctx)
    build = toolchain.build(challenge, own_ctx, work, sources.rebased(own_ctx.dirs.workspace))
    own = toolchain.run_tests(challenge, own_ctx, work)
    coverage = toolchain.coverage(own, sources, own_ctx)
    quality = measure_quality(sources.product, root, ctx.logs() / "quality.log")
    completeness = measure_completeness(challenge, root, own.tests)
    return Measurements(build=build, tests=own.tests, coverage=coverage, quality=quality,
                        completeness=completeness, acceptance=acceptance, removed_symlinks=snapshot.links)


def fresh_workspace(ctx: MeasureContext, snapshot: Path) -> MeasureContext:
    """`ctx` with fresh folders (a copy of `snapshot` as the workspace, an empty home and temp),
    handed to the trial's user, for the steps that run the agent's code."""
    base = Path(tempfile.mkdtemp(prefix="measure-", dir=ctx.dirs.base))
    copy_tree(snapshot, base / "workspace")
    return replace(ctx, dirs=make_trial_dirs(base, ctx.user))


def _hidden(challenge: Challenge, toolchain: Toolchain, ctx: MeasureContext,
            project: Path) -> AcceptanceMeasurement | None:
    if challenge.acceptance is None:
        return None
    run: HiddenRun = toolchain.run_hidden(challenge.acceptance, ctx, project)
    body = {"outcomes": [list(o) for o in run.outcomes], "tampering": list(run.measurement.tampering)}
    (ctx.logs() / "hidden-tests.json").write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    sets = change_sets(challenge, run.outcomes, voided=run.measurement.tests.problem is not None)
    return replace(run.measurement, sets=sets) if sets is not None else run.measurement
