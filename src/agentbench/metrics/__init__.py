"""Measuring a trial's workspace: the order of the steps and the language-free parts.

`measure` is the only public entry. It removes symlinks that leave the workspace, asks the challenge
language's toolchain (`agentbench.toolchains`) which files are product code and which are tests, runs
the hidden tests against a copy of the workspace exactly as the agent left it, then builds the
project and runs the agent's own tests under the harness's control, and finally scores quality
(lizard over product files) and completeness (the checklist in `completeness`). Each step returns one
frozen measurement; their logs land in the trial folder.
"""

from __future__ import annotations

import json
from dataclasses import replace

from agentbench.metrics.change import change_sets
from agentbench.metrics.completeness import measure_completeness
from agentbench.metrics.quality import measure_quality
from agentbench.models import AcceptanceMeasurement, Challenge, Measurements
from agentbench.toolchains import HiddenRun, MeasureContext, Toolchain, get_toolchain
from agentbench.workspace import remove_escaping_symlinks

__all__ = ["MeasureContext", "measure"]


def measure(challenge: Challenge, ctx: MeasureContext, toolchain: Toolchain | None = None) -> Measurements:
    """Measure the agent's work in `ctx.dirs.workspace` (see the module docstring)."""
    toolchain = toolchain or get_toolchain(challenge.language)
    workspace = ctx.dirs.workspace
    removed = remove_escaping_symlinks(workspace)
    sources = toolchain.sources(workspace)
    acceptance = _hidden(challenge, toolchain, ctx)
    work = toolchain.prepare(challenge, ctx)
    build = toolchain.build(challenge, ctx, work, sources)
    own = toolchain.run_tests(challenge, ctx, work)
    coverage = toolchain.coverage(own, sources, ctx)
    quality = measure_quality(sources.product, workspace, ctx.logs() / "quality.log")
    completeness = measure_completeness(challenge, workspace, own.tests)
    return Measurements(build=build, tests=own.tests, coverage=coverage, quality=quality,
                        completeness=completeness, acceptance=acceptance, removed_symlinks=removed)


def _hidden(challenge: Challenge, toolchain: Toolchain, ctx: MeasureContext) -> AcceptanceMeasurement | None:
    if challenge.acceptance is None:
        return None
    run: HiddenRun = toolchain.run_hidden(challenge.acceptance, ctx, ctx.dirs.workspace)
    body = {"outcomes": [list(o) for o in run.outcomes], "tampering": list(run.measurement.tampering)}
    (ctx.logs() / "hidden-tests.json").write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    sets = change_sets(challenge, run.outcomes, voided=run.measurement.tests.problem is not None)
    return replace(run.measurement, sets=sets) if sets is not None else run.measurement
