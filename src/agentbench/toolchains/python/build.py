"""Python builds: the challenge's setup commands, or, with none, every source file must compile."""

from __future__ import annotations

import os
from pathlib import Path

from agentbench.models import BuildMeasurement, Challenge, CommandResult
from agentbench.toolchains.base import CommandSpec, MeasureContext, SourceFiles, run_command
from agentbench.toolchains.python.env import PythonEnv, command_env


def measure_build(challenge: Challenge, env: PythonEnv, work: Path, ctx: MeasureContext,
                  sources: SourceFiles) -> BuildMeasurement:
    """Run the setup commands in order, stopping at the first failure (or compile every file)."""
    if not challenge.setup_commands:
        return _compile_check(env, work, ctx, sources)
    results: list[CommandResult] = []
    for index, command in enumerate(challenge.setup_commands, start=1):
        result = run_command(CommandSpec(command=command, env=command_env(env, ctx.dirs),
                                         log_name=f"setup-{index}"), ctx, ctx.confinement(work))
        results.append(result)
        if not result.ok:
            break
    return BuildMeasurement(success=all(r.ok for r in results), commands=tuple(results))


def _compile_check(env: PythonEnv, work: Path, ctx: MeasureContext, sources: SourceFiles) -> BuildMeasurement:
    """Byte-compile every source file (tests included) with the trial's interpreter; none: no build."""
    files = [*sources.product, *sources.tests]
    if not files:
        return BuildMeasurement(success=False)
    names = work / "compile-list.txt"
    names.write_bytes(b"".join(os.fsencode(path) + b"\n" for path in files))
    variables = command_env(env, ctx.dirs, {"PYTHONPYCACHEPREFIX": str(work / "pycache")})
    result = run_command(CommandSpec(
        command="python -m py_compile <every source file>", env=variables, log_name="setup-compile",
        argv=(str(env.python), "-m", "py_compile", "-"), stdin_path=names,
    ), ctx, ctx.confinement(work))
    return BuildMeasurement(success=result.ok, commands=(result,))
