"""`agentbench runs`: the runs in the results database, newest first, with filters and `--json`."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from agentbench.cli import json_option, output_console
from agentbench.cli.db import database_options, open_database

STATUSES = ("running", "finished", "incomplete", "interrupted", "failed")
"""What a run's status can be."""


@click.command(name="runs")
@click.option("--agent", help="Only runs of this agent.")
@click.option("--since", metavar="DATE", help="Only runs started on or after DATE (UTC, e.g. 2026-11-01).")
@click.option("--until", metavar="DATE", help="Only runs started before DATE (UTC).")
@click.option("--status", type=click.Choice(STATUSES), help="Only runs with this status.")
@click.option("--limit", type=click.IntRange(min=0), default=50, show_default=True,
              help="At most this many runs, newest first (0: all).")
@database_options
@json_option
def command(agent: str | None, since: str | None, until: str | None, status: str | None,  # noqa: PLR0913
            limit: int, results_dir: Path, db: str | None, as_json: bool) -> None:
    """List the runs: when, status, agents and their aggregate scores, trials recorded.

    Example: agentbench runs --agent claude-code --since 2026-11-01
    """
    from agentbench.store.views import RunFilter, list_runs

    where = RunFilter(agent=agent, since=_date(since, "--since"), until=_date(until, "--until"),
                      status=status, limit=limit or None)
    connection = open_database(results_dir, db)
    try:
        runs = list_runs(connection, where)
    finally:
        connection.close()
    if as_json:
        click.echo(json.dumps([asdict(r) for r in runs], indent=2))
        return
    console = output_console()
    console.print(runs_table(runs, narrow=console.width < NARROW))


def _date(value: str | None, flag: str) -> str | None:
    """An ISO date or date-time, checked (it is compared with the runs' UTC start times)."""
    if value is None:
        return None
    from datetime import datetime

    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO date such as 2026-11-01 or "
                                 "2026-11-01T12:00", param_hint=flag) from None
    return value


NARROW = 120
"""Below this width the table leaves out the start time (the run ID holds it), challenges, rubric."""


def runs_table(runs: Any, *, narrow: bool = False) -> Any:
    """The runs as a rich table (every cell a Text: names are not markup); `narrow`: only the run
    ID, status, scores and trials."""
    from rich import box
    from rich.table import Table

    from agentbench.report.terminal import id_column, safe_text

    table = Table(box=box.SIMPLE_HEAD, title=f"{len(runs)} run(s), newest first", title_justify="left")
    id_column(table, "Run", [r.run_id for r in runs])
    headers = ("Started (UTC)", "Status", "Agents: aggregate", "Challenges", "Trials", "Rubric")
    kept = [h for h in headers if not narrow or h in ("Status", "Agents: aggregate", "Trials")]
    for header in kept:
        table.add_column(header, justify="right" if header in ("Challenges", "Trials") else "left")
    for r in runs:
        scores = ", ".join(f"{a} {'-' if s is None else f'{s:.1f}'}" for a, s in r.scores)
        cells = dict(zip(headers, (r.started_at.replace("+00:00", ""), r.status, scores,
                                   str(r.challenges), f"{r.recorded}/{r.planned}", r.rubric),
                         strict=True))
        table.add_row(safe_text(r.run_id), *(safe_text(cells[h]) for h in kept))
    return table
