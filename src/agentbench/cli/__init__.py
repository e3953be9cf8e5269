"""The `agentbench` command line: a click group whose commands load lazily, and the one error handler.

Each command lives in its own module and is imported only when invoked, so `agentbench --help` stays
fast. Every `AgentBenchError` is printed here as `error: ...` / `hint: ...` (escaped; messages may hold
agent output) with the error's exit code; `--debug` shows the traceback instead. The seed's registry
is re-exported: `from agentbench.cli import ADAPTERS` is the object in `agentbench.adapters.registry`.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from agentbench import __version__
from agentbench.cli.credentials import hide_db_password
from agentbench.cli.signals import signals_interrupt
from agentbench.errors import AgentBenchError, interrupt_exit_code

__all__ = ["ADAPTERS", "cli", "main"]

_COMMANDS: dict[str, tuple[str, str]] = {
    "list": ("agentbench.cli.listing", "List the available challenges."),
    "run": ("agentbench.cli.run", "Run agents on challenges, score them, write results."),
    "validate": ("agentbench.cli.validate", "Check that challenges are fair: reference passes, noop fails."),
    "import": ("agentbench.cli.importing", "Convert a local copy of a suite (Exercism, SWE-style) into challenges."),
    "new": ("agentbench.cli.new", "Scaffold a challenge from your own git repository."),
    "regrade": ("agentbench.cli.regrade", "Re-measure and re-score a run's kept workspaces."),
    "doctor": ("agentbench.cli.doctor", "Check the machine and each agent CLI's wiring (no API key)."),
    "agents": ("agentbench.cli.agents", "List agent adapters, whether their CLI is installed, versions."),
    "compare": ("agentbench.cli.compare", "Compare results files: scores, intervals, paired verdicts."),
    "gate": ("agentbench.cli.gate", "CI gate: fail when results are worse than a baseline (JUnit XML)."),
    "report": ("agentbench.cli.report", "Write a Markdown, HTML, JSON or CSV report from results files."),
    "view": ("agentbench.cli.view", "Browse runs, trials, trajectories and agents side by side."),
    "runs": ("agentbench.cli.runs", "List the runs in the results database (filters, --json)."),
    "show": ("agentbench.cli.show", "Summarise a run or one trial, with where its logs are."),
    "history": ("agentbench.cli.history", "An agent's score over runs, by CLI version and model."),
    "export": ("agentbench.cli.export", "Export a run's trials as CSV, JSON Lines or Parquet."),
    "db": ("agentbench.cli.db", "The results database: info, rebuild from the run folders."),
}


class LazyGroup(click.Group):
    """A click group that imports a command's module only when that command is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in _COMMANDS:
            return None
        command = importlib.import_module(_COMMANDS[cmd_name][0]).command
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _COMMANDS[name][1]) for name in sorted(_COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="agentbench")
@click.option("--debug", is_flag=True, help="Show full tracebacks instead of one-line errors.")
@click.option("--wide", is_flag=True,
              help="Tables as wide as their content (default: the terminal's width, or $COLUMNS).")
def cli(debug: bool, wide: bool) -> None:
    """AgentBench: run coding agents on the same challenges and compare them with one rubric."""


def challenges_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """`--challenges DIR` (repeatable): extra challenge folders beside the built-in ones."""
    return click.option(
        "--challenges", "challenge_dirs", multiple=True,
        type=click.Path(exists=True, file_okay=False, path_type=str),
        help="Extra challenge folder holding easy/, medium/, hard/ (repeatable).",
    )(func)


def agents_config_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """`--agents-config FILE`: per-agent executable, args, env and model (TOML)."""
    return click.option(
        "--agents-config", type=click.Path(dir_okay=False, path_type=Path), default=None,
        help="Agents config file (TOML; default: $AGENTBENCH_AGENTS_CONFIG or ./agentbench.toml).",
    )(func)


def json_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """`--json`: machine-readable output on stdout."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(func)


def __getattr__(name: str) -> Any:
    """`from agentbench.cli import ADAPTERS` (the seed's import) without slowing every command."""
    if name == "ADAPTERS":
        from agentbench.adapters.registry import ADAPTERS

        return ADAPTERS
    raise AttributeError(f"module 'agentbench.cli' has no attribute {name!r}")


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the `agentbench` script."""
    args = list(sys.argv[1:] if argv is None else argv)
    if argv is None:
        args = hide_db_password(args)
    try:
        with signals_interrupt():
            cli.main(args=args, prog_name="agentbench", standalone_mode=False)
    except AgentBenchError as exc:
        if "--debug" in args:
            raise
        _print_error(exc.message, exc.hint)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        _print_error(exc.format_message(), _usage_hint(exc))
        sys.exit(exc.exit_code)
    except (KeyboardInterrupt, click.Abort) as exc:
        _print_error("interrupted", "finished trials are kept; resume with `agentbench run --resume RUN_ID`")
        sys.exit(interrupt_exit_code(exc))
    sys.exit(0)


WIDE_COLUMNS = 1000
"""Width of the console under `agentbench --wide` (tables are then as wide as their content)."""


def output_console() -> Any:
    """The console for a command's main output: `--wide` as wide as the content, else the
    terminal's width, else `$COLUMNS`, else 160 columns when piped."""
    from rich.console import Console

    context = click.get_current_context(silent=True)
    if context is not None and context.find_root().params.get("wide"):
        return Console(highlight=False, width=WIDE_COLUMNS)
    console = Console(highlight=False)
    if console.is_terminal or os.environ.get("COLUMNS", "").isdigit():
        return console
    return Console(highlight=False, width=160)


def _usage_hint(exc: click.ClickException) -> str:
    """Where to read about the command whose options were wrong."""
    context = getattr(exc, "ctx", None)
    path = context.command_path if context is not None else "agentbench"
    return f"see `{path} --help`"


def _print_error(message: str, hint: str | None) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(stderr=True, highlight=False, soft_wrap=True)
    console.print(Text.assemble(("error: ", "bold red"), message))
    if hint:
        console.print(Text.assemble(("hint: ", "yellow"), hint))
