"""Measuring a trial's workspace: build, tests, coverage, quality, completeness, hidden acceptance.

`measure` is the only public entry: it removes symlinks that leave the workspace, runs the setup commands, then the agent's test commands under
coverage, then analyses the code, then (when the challenge has them) the hidden acceptance tests.
Each step returns one frozen measurement; their logs land in the trial folder.
"""

from __future__ import annotations

from agentbench.metrics.acceptance import measure_acceptance
from agentbench.metrics.build import measure_build
from agentbench.metrics.common import MeasureContext
from agentbench.metrics.completeness import measure_completeness
from agentbench.metrics.coverage import coverage_environment, measure_coverage
from agentbench.metrics.quality import measure_quality
from agentbench.metrics.tests import measure_tests
from agentbench.models import Challenge, Measurements
from agentbench.workspace import create_env, remove_escaping_symlinks

__all__ = ["MeasureContext", "measure"]


def measure(challenge: Challenge, ctx: MeasureContext) -> Measurements:
    """Measure the agent's work in `ctx.dirs.workspace` (the acceptance step comes last)."""
    removed = remove_escaping_symlinks(ctx.dirs.workspace)
    completeness = measure_completeness(challenge, ctx.dirs)
    quality = measure_quality(challenge, ctx.dirs, ctx.trial_dir / "logs" / "quality.log")
    env = create_env(ctx.dirs.scratch / "env", ctx.template_site)
    build = measure_build(challenge, env, ctx)
    tests = measure_tests(challenge, env, ctx, coverage_environment(ctx))
    coverage = measure_coverage(ctx)
    acceptance = measure_acceptance(challenge.acceptance, ctx) if challenge.acceptance else None
    return Measurements(build=build, tests=tests, coverage=coverage, quality=quality,
                        completeness=completeness, acceptance=acceptance, removed_symlinks=removed)
