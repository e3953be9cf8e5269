"""Running pytest under the probe: the agent's own test commands, and the harness's hidden tests.

Both go through `run_probed`: a fresh probe, a fresh channel, one command, one tally. The tally of
every command is written next to the command's log (`logs/<name>.outcomes.json`) so a reader can see
each test's outcome and anything the harness rejected.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
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
from agentbench.toolchains.python.probe import Tally, install_probe, tally


@dataclass(frozen=True, slots=True, kw_only=True)
class ProbedRun:
    """One command run under the probe."""

    result: CommandResult
    tally: Tally


def run_probed(spec: CommandSpec, ctx: MeasureContext, confinement: Confinement,
               trace: Sequence[Path] = ()) -> ProbedRun:
    """Run one pytest command (its environment without the probe's variables) with a fresh probe
    and judge what it reported (`trace`: the probe also reports which lines under these folders
    ran in each pytest process)."""

    probe = install_probe(ctx.private_dir("probe"))
    ctx.let_read(probe.folder)
    argv = spec.argv or tuple(command_argv(spec.command))
    with open_channel() as channel:
        with key_pipe(probe.key(channel.write_fd, trace)) as key:
            env = {**spec.env, **probe.variables(key),
                   "PYTHONPATH": ":".join(filter(None, [str(probe.folder), spec.env.get("PYTHONPATH")]))}
            result = run_command(replace(spec, env=env, argv=argv,
                                         pass_fds=(channel.write_fd, key_fd(key))), ctx,
                                 replace(confinement, readable=(*confinement.readable, probe.folder)))
        stream = channel.stream()
    judged = tally(stream, probe, returncode=result.returncode, timed_out=result.timed_out,
                   direct=argv[0] != "/bin/sh")
    _write_outcomes(ctx, spec.log_name, judged)
    return ProbedRun(result=result, tally=judged)


def _write_outcomes(ctx: MeasureContext, log_name: str, judged: Tally) -> None:
    body = {"outcomes": [list(o) for o in judged.outcomes], "tampering": list(judged.tampering),
            "problem": judged.problem, "collection_errors": judged.collection_errors,
            "outcome_hooks_outside_pytest": list(judged.hooks)}
    (ctx.logs() / f"{log_name}.outcomes.json").write_text(json.dumps(body, indent=2) + "\n",
                                                         encoding="utf-8")


def to_measurement(runs: Sequence[ProbedRun], workspace: Path) -> TestMeasurement:
    """Add up the tallies of several commands; any unestablished or forged count voids them all."""
    tallies = [r.tally for r in runs]
    return combine_counts(tallies, tuple(r.result for r in runs), _relative_files(tallies, workspace))


def _relative_files(tallies: Sequence[Tally], workspace: Path) -> tuple[str, ...]:
    found = set()
    root = str(workspace.resolve())
    for t in tallies:
        for name in t.files:
            resolved = str(Path(name))
            for base in (str(workspace), root):
                if resolved.startswith(base + "/"):
                    found.add(resolved[len(base) + 1:])
    return tuple(sorted(found))
