"""`agentbench agents`: every adapter, whether its CLI is installed, and its version."""

from __future__ import annotations

import json
from pathlib import Path

import click

from agentbench.cli import agents_config_option, json_option, output_console


@click.command(name="agents")
@agents_config_option
@json_option
def command(agents_config: Path | None, as_json: bool) -> None:
    """List every agent: built-in, plugin and configured adapters, installed or not, with versions."""
    from agentbench.adapters.inventory import describe_agents
    from agentbench.settings import find_agents_config, load_agents_config

    rows = describe_agents(load_agents_config(find_agents_config(agents_config)))
    if as_json:
        click.echo(json.dumps([row._asdict() for row in rows], indent=2))
        return
    from rich.table import Table

    from agentbench.report.terminal import safe_text

    table = Table(title="agents")
    for column in ("Agent", "Adapter", "Installed", "Version", "Executable / note"):
        table.add_column(column, no_wrap=column in ("Agent", "Adapter"))
    for row in rows:
        installed = safe_text("yes", "green") if row.installed else safe_text("no", "red")
        table.add_row(safe_text(row.name), safe_text(row.adapter), installed,
                      safe_text(row.version or "-"), safe_text(row.executable or row.note))
    output_console().print(table)
