"""TypeScript/JavaScript builds: the challenge's setup commands (e.g. `npm install`, `npx tsc`), or,
with none, every source file must parse the way Node runs it (types stripped); no source file, no build."""

from __future__ import annotations

import json
from pathlib import Path

from agentbench.models import BuildMeasurement, Challenge, CommandResult
from agentbench.toolchains.base import CommandSpec, MeasureContext, SourceFiles, run_command
from agentbench.toolchains.node.testrun import node_argv
from agentbench.toolchains.node.tools import NodeTools

SYNTAX_SCRIPT = Path(__file__).parent / "js" / "syntax.mjs"


def measure_build(challenge: Challenge, ctx: MeasureContext, work: Path, sources: SourceFiles,
                  env: dict[str, str], tools: NodeTools) -> BuildMeasurement:
    """Run the setup commands in order, stopping at the first failure (or parse every file)."""
    if not challenge.setup_commands:
        return _parse_check(ctx, work, sources, env, tools)
    results: list[CommandResult] = []
    for index, command in enumerate(challenge.setup_commands, start=1):
        argv, _ = node_argv(command, tools)
        result = run_command(CommandSpec(command=command, env=env, log_name=f"setup-{index}", argv=argv),
                             ctx, ctx.confinement(work))
        results.append(result)
        if not result.ok:
            break
    return BuildMeasurement(success=all(r.ok for r in results), commands=tuple(results))


def _parse_check(ctx: MeasureContext, work: Path, sources: SourceFiles, env: dict[str, str],
                 tools: NodeTools) -> BuildMeasurement:
    files = [*sources.product, *sources.tests]
    if not files:
        return BuildMeasurement(success=False)
    names = work / "parse-list.json"
    names.write_text(json.dumps([str(f) for f in files]), encoding="utf-8")
    result = run_command(CommandSpec(
        command="node syntax.mjs <every source file>", env=env, log_name="setup-parse",
        argv=(str(tools.node), "--no-warnings", "--experimental-vm-modules", str(SYNTAX_SCRIPT)),
        stdin_path=names, cwd=work,
    ), ctx, ctx.confinement(work, readable=(SYNTAX_SCRIPT.parent,)))
    return BuildMeasurement(success=result.ok, commands=(result,))
