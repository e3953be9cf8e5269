"""Running node:test under the harness's reporter: the agent's own test commands and the hidden tests.

Both go through `run_reported`: a fresh reporter, a fresh channel, one command, one tally, written
next to the command's log (`logs/<name>.outcomes.json`). For the agent's commands the reporter comes
through NODE_OPTIONS, and a command that names `node` runs the harness's Node (never one on a path the
agent could fill).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from agentbench.models import CommandResult, TestMeasurement
from agentbench.sandbox import Confinement
from agentbench.toolchains.base import (
    CommandSpec,
    MeasureContext,
    combine_counts,
    command_argv,
    run_command,
)
from agentbench.toolchains.channel import key_fd, key_pipe, open_channel
from agentbench.toolchains.node.tally import Reporter, Tally, install_reporter, tally
from agentbench.toolchains.node.tools import NodeTools

REPORTER_FLAGS = "{agentbench-reporter}"
"""Stands in an explicit argv for the flags that load this run's reporter."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportedRun:
    """One command run under the reporter."""

    result: CommandResult
    tally: Tally


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportedCommand:
    """What to run under the reporter."""

    command: str
    """As written (shown in records)."""
    env: Mapping[str, str]
    """Its environment, without the reporter's variables."""
    log_name: str
    """Log file stem."""
    argv: tuple[str, ...] = ()
    """Explicit argv with REPORTER_FLAGS where the reporter goes (default: `command`, the reporter
    in NODE_OPTIONS)."""
    timeout_s: float | None = None
    cwd: Path | None = None


def node_argv(command: str, tools: NodeTools) -> tuple[tuple[str, ...], bool]:
    """The command's argv with `node` resolved to the harness's, and whether it runs `node --test`."""
    argv = command_argv(command)
    if argv and argv[0] == "node":
        argv[0] = str(tools.node)
    direct = bool(argv) and argv[0] == str(tools.node) and "--test" in argv
    return tuple(argv), direct


def run_reported(spec: ReportedCommand, ctx: MeasureContext, confinement: Confinement,
                 tools: NodeTools) -> ReportedRun:
    """Run one command with a fresh reporter and judge what it reported."""
    reporter = install_reporter(ctx.private_dir("reporter"))
    ctx.let_read(reporter.file.parent)
    argv, direct = (with_reporter(spec.argv, reporter), True) if spec.argv else node_argv(spec.command, tools)
    with open_channel() as channel, key_pipe(reporter.key(channel.write_fd)) as key:
        env = {**spec.env, **reporter.variables(key)}
        if not spec.argv:
            env["NODE_OPTIONS"] = " ".join(f'"{flag}"' for flag in reporter.flags())
        result = run_command(CommandSpec(
            command=spec.command, env=env, log_name=spec.log_name, argv=argv, timeout_s=spec.timeout_s,
            cwd=spec.cwd, pass_fds=(channel.write_fd, key_fd(key)),
        ), ctx, replace(confinement, readable=(*confinement.readable, reporter.file.parent)))
        stream = channel.stream()
    judged = tally(stream, reporter, returncode=result.returncode, timed_out=result.timed_out,
                   direct=direct)
    _write_outcomes(ctx, spec.log_name, judged)
    return ReportedRun(result=result, tally=judged)


def with_reporter(argv: tuple[str, ...], reporter: Reporter) -> tuple[str, ...]:
    """`argv` with REPORTER_FLAGS replaced by the reporter's own flags."""
    out: list[str] = []
    for arg in argv:
        out.extend(reporter.flags() if arg == REPORTER_FLAGS else (arg,))
    return tuple(out)


def _write_outcomes(ctx: MeasureContext, log_name: str, judged: Tally) -> None:
    body = {"outcomes": [list(o) for o in judged.outcomes], "tampering": list(judged.tampering),
            "problem": judged.problem, "files_without_tests": list(judged.empty_files)}
    (ctx.logs() / f"{log_name}.outcomes.json").write_text(json.dumps(body, indent=2) + "\n",
                                                         encoding="utf-8")


def to_measurement(runs: Sequence[ReportedRun], workspace: Path) -> TestMeasurement:
    """Add up the tallies of several commands; any unestablished or forged count voids them all."""
    tallies = [r.tally for r in runs]
    return combine_counts(tallies, tuple(r.result for r in runs), _relative_files(tallies, workspace))


def _relative_files(tallies: Sequence[Tally], workspace: Path) -> tuple[str, ...]:
    found = set()
    roots = {str(workspace), str(workspace.resolve())}
    for t in tallies:
        for name in t.files:
            for base in roots:
                if name.startswith(base + "/"):
                    found.add(name[len(base) + 1:])
    return tuple(sorted(found))
