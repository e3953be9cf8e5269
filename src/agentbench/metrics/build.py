"""Build verification: every setup command of the challenge succeeds in the trial's environment."""

from __future__ import annotations

from agentbench.metrics.common import MeasureContext, env_for, run_command
from agentbench.models import BuildMeasurement, Challenge, CommandResult
from agentbench.workspace import PythonEnv, agent_files

LANGUAGE_SUFFIXES: dict[str, tuple[str, ...]] = {
    "python": (".py",),
    "javascript": (".js", ".mjs", ".cjs"),
    "typescript": (".ts", ".tsx"),
    "go": (".go",),
    "rust": (".rs",),
    "java": (".java",),
    "c": (".c", ".h"),
    "cpp": (".cpp", ".cc", ".hpp", ".h"),
}
"""Source file suffixes per challenge language (for quality and the no-setup build check)."""


def measure_build(challenge: Challenge, env: PythonEnv, ctx: MeasureContext) -> BuildMeasurement:
    """Run the setup commands in order, stopping at the first failure."""
    if not challenge.setup_commands:
        return _compile_check(challenge, env, ctx)
    results: list[CommandResult] = []
    for index, command in enumerate(challenge.setup_commands, start=1):
        result = run_command(command, ctx=ctx, env_vars=env_for(env, ctx), log_name=f"setup-{index}")
        results.append(result)
        if not result.ok:
            break
    return BuildMeasurement(success=all(r.ok for r in results), commands=tuple(results))


def _compile_check(challenge: Challenge, env: PythonEnv, ctx: MeasureContext) -> BuildMeasurement:
    """With no setup commands, a project builds when it has source code (Python: that compiles)."""
    suffixes = LANGUAGE_SUFFIXES.get(challenge.language.lower(), ())
    sources = agent_files(ctx.dirs.workspace, suffixes) if suffixes else ()
    if not sources:
        return BuildMeasurement(success=False)
    if challenge.language.lower() != "python":
        return BuildMeasurement(success=True)
    result = run_command(
        "python -m compileall -q .", ctx=ctx, env_vars=env_for(env, ctx), log_name="setup-compile",
        argv=[str(env.python), "-m", "compileall", "-q", "-x", r"(^|/)\.", "."],
    )
    return BuildMeasurement(success=result.ok, commands=(result,))
