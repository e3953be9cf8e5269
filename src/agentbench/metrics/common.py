"""What the metric runners share: the measuring context, running one command, telling tests apart."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from agentbench import process
from agentbench.models import CommandResult
from agentbench.sandbox import Confinement, Limits
from agentbench.workspace import PythonEnv, TrialDirs, command_env

_SHELL_EXPANSION = re.compile(r"[$`*?~]")
TEST_DIR_NAMES = frozenset({"tests", "test", "testing"})


@dataclass(frozen=True, slots=True, kw_only=True)
class MeasureContext:
    """Where one trial is measured and where its logs go."""

    dirs: TrialDirs
    """The trial's temporary folders (workspace, home, tmp, scratch)."""
    trial_dir: Path
    """The trial's folder in the run directory (logs are written under `logs/`)."""
    template_site: Path
    """site-packages of the cached template environment."""
    command_timeout_s: float = 600.0
    """Limit for each setup or test command."""
    expected_acceptance_tests: int | None = None
    """Hidden tests collected on the reference solution (None: unknown)."""
    sandbox: str = "none"
    """`none` or `bwrap`: how setup, test and hidden-test commands are confined."""
    limits: Limits = field(default_factory=Limits)
    """Resource limits of every command."""
    run_marker: str | None = None
    """The run's process marker (Ctrl-C kills every process carrying it)."""

    def confinement(self) -> Confinement:
        """Commands may write the workspace, home, temp and harness scratch folders only."""
        d = self.dirs
        return Confinement(sandbox=self.sandbox, limits=self.limits, run_marker=self.run_marker,
                           writable=(d.workspace, d.home, d.tmp, d.scratch),
                           readable=(self.template_site,))


def command_argv(command: str) -> list[str]:
    """Split a challenge command into argv; one using shell syntax runs under `/bin/sh -c`."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens = list(lexer)
    operators = any(t and all(c in "();<>|&" for c in t) for t in tokens)
    if operators or _SHELL_EXPANSION.search(command):
        return ["/bin/sh", "-c", command]
    return shlex.split(command)


def run_command(
    command: str,
    *,
    ctx: MeasureContext,
    env_vars: Mapping[str, str],
    log_name: str,
    timeout_s: float | None = None,
    argv: list[str] | None = None,
) -> CommandResult:
    """Run one command in the workspace, logging to `logs/<log_name>.log` / `.err`."""
    logs = ctx.trial_dir / "logs"
    result = process.run(
        argv or command_argv(command), cwd=ctx.dirs.workspace, env=env_vars,
        timeout_s=timeout_s or ctx.command_timeout_s,
        stdout_path=logs / f"{log_name}.log", stderr_path=logs / f"{log_name}.err",
        confinement=ctx.confinement(),
    )
    return CommandResult(
        command=command, returncode=result.returncode, timed_out=result.timed_out,
        duration_s=round(result.duration_s, 3), log=f"logs/{log_name}.log",
    )


def is_test_file(relative: PurePath) -> bool:
    """Whether a workspace file is test code rather than the agent's product code."""
    name = relative.name
    return (
        any(part in TEST_DIR_NAMES for part in relative.parts[:-1])
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
    )


def read_log(ctx: MeasureContext, result: CommandResult) -> str:
    """The stdout log of a command (decoded leniently)."""
    return (ctx.trial_dir / result.log).read_text(encoding="utf-8", errors="replace")


def env_for(env: PythonEnv, ctx: MeasureContext, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The command environment for `env` in this trial."""
    return command_env(env, ctx.dirs, extra)
