"""`agentbench doctor`: check the machine and each agent CLI's wiring without spending tokens."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from agentbench.cli import agents_config_option, json_option, output_console


@click.command(name="doctor")
@click.option("--agent", "agents", multiple=True, metavar="NAME",
              help="Agent to check (repeatable; default: every agent that drives a CLI).")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="Run the checks here, or on every worker of a Dask cluster.")
@click.option("--address", metavar="URL", help="Dask scheduler address, e.g. tcp://host:8786.")
@agents_config_option
@json_option
def command(agents: tuple[str, ...], executor: str, address: str | None,
            agents_config: Path | None, as_json: bool) -> None:
    """Check the machine (sandbox, cgroups, cache) and run each agent's real CLI on a tiny task
    against the scripted local model server: OK, or exactly what failed. Exits 1 on any failure."""
    from agentbench.diagnostics import run_doctor
    from agentbench.settings import find_agents_config, load_agents_config

    configs = load_agents_config(find_agents_config(agents_config))
    check_agent_names(agents, configs)
    rows = run_doctor(list(agents), configs, executor=executor, address=address)
    if as_json:
        click.echo(json.dumps([row._asdict() for row in rows], indent=2))
    else:
        _print(rows)
    if not all(row.ok for row in rows):
        sys.exit(1)


def check_agent_names(agents: tuple[str, ...], configs: dict[str, Any]) -> None:
    """An agent name nobody knows is bad input (exit 2), not a failed check."""
    from agentbench.adapters.registry import ADAPTERS
    from agentbench.errors import UnknownAdapterError

    for name in agents:
        if name not in configs and name not in ADAPTERS:
            raise UnknownAdapterError(name, sorted({*ADAPTERS, *configs}))


def _print(rows: list) -> None:  # type: ignore[type-arg]
    """The checks as a table, then each missing piece (what it costs, the command that adds it)
    and each failure in full, its cause first, then whether the main job can run."""
    from rich.table import Table
    from rich.text import Text

    from agentbench.report.terminal import safe_text

    console = output_console()
    several = any(row.where != "local" for row in rows)
    table = Table(title="agentbench doctor")
    for column in ("Where", "Subject", "Check", "Result", "Detail")[0 if several else 1:]:
        table.add_column(column, no_wrap=column in ("Where", "Subject", "Result"))
    for row in rows:
        result = (Text("FAIL", style="bold red") if not row.ok else
                  Text("missing", style="yellow") if row.fix else Text("OK", style="green"))
        cells = [safe_text(row.subject), safe_text(row.check), result, safe_text(row.detail)]
        table.add_row(*([safe_text(row.where)] if several else []), *cells)
    console.print(table)
    _print_missing_and_failed(console, rows)


def _print_missing_and_failed(console: Any, rows: list) -> None:  # type: ignore[type-arg]
    from rich.text import Text

    from agentbench.report.terminal import safe_text

    missing = [row for row in rows if row.ok and row.fix]
    failed = [row for row in rows if not row.ok]
    if missing:
        console.print(Text("missing (the main job runs without them):", style="bold"))
    for row in missing:
        console.print(Text.assemble("  ", safe_text(f"{row.subject} {row.check}: {row.detail}")))
        console.print(Text.assemble("    add it: ", (row.fix, "bold")))
    for row in failed:
        console.print(Text.assemble(("FAIL ", "bold red"), safe_text(f"{row.subject} {row.check}: "
                                                                     f"{row.detail}")))
    machine_ok = all(row.ok for row in rows if row.subject == "machine")
    console.print(Text("the main job (agentbench run --agent reference --tier easy) can run here"
                       if machine_ok else "the main job cannot run here: fix the failures above"))
