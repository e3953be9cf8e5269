"""`agentbench compare A.json B.json ...`: the seed's two tables, then statistics and verdicts.

Besides results files it takes run IDs, `agent@run-id` and `agent@latest` from the results
database (`store.selection`); results that share no challenge are refused with the challenges
each one holds.

The first two tables (aggregate per agent; per-challenge score per agent) are the seed's contract,
reproduced box for box. Everything after them (the ranking with intervals, the pairwise verdict
matrices, components, time and cost, trial statuses, agents, tiers, the verdicts in words, notes)
comes from `report.views` and is added below, so a reader of the seed's example finds it unchanged
on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from agentbench.cli import output_console
from agentbench.cli.db import database_options
from agentbench.comparison import CompareOptions, Comparison, compare_both
from agentbench.comparison.evidence import with_behaviour

FORMATS = ("table", "markdown", "json", "csv")
"""Output formats of `compare`."""


@click.command(name="compare")
@click.argument("results", nargs=-1, required=True, metavar="RESULTS...")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="Terminal tables, Markdown or JSON.")
@click.option("--power", "power_gap", type=click.FloatRange(min=0, min_open=True), metavar="POINTS",
              help="Estimate the trials or challenges needed to detect a gap of POINTS (e.g. 5).")
@click.option("--condition-on-challenges", "conditional", is_flag=True,
              help="Intervals and verdicts for these challenges only (the trials are the "
                   "replicates), instead of over challenges like these.")
@database_options
def command(results: tuple[str, ...], fmt: str, power_gap: float | None,
            conditional: bool, results_dir: Path, db: str | None) -> None:
    """Compare agents: results files, run IDs, AGENT@RUN_ID or AGENT@latest.

    Example: agentbench compare results/claude-code.json results/codex.json, or
    agentbench compare claude-code@latest codex@latest
    """
    from agentbench.store.selection import check_shared, select

    selected = select(results, results_dir, db)
    check_shared(selected)
    comparison, others = compare_both(
        [s.record for s in selected], sources=[s.source for s in selected],
        models=[s.model for s in selected],
        options=CompareOptions(power_gap=power_gap, condition_on_challenges=conditional))
    comparison = with_behaviour(comparison, [s.record for s in selected],
                                [s.results_dir for s in selected])
    if fmt == "table":
        console = output_console()
        for renderable in comparison_renderables(comparison, others):
            console.print(renderable)
        return
    from agentbench.report import Format, render

    click.echo(render(comparison, Format(fmt), others=others), nl=False)


def seed_tables(c: Comparison) -> tuple[Any, Any]:
    """The seed's two tables: aggregate per agent, and per-challenge score per agent."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from agentbench.report import number
    from agentbench.report.terminal import id_column, safe_text

    aggregate = Table(box=box.SQUARE)
    # the seed's layout: the Agent column is at least 19 wide (spec/seed.md), wider for longer labels
    id_column(aggregate, "Agent", [a.label for a in c.agents], floor=19)
    aggregate.add_column("Aggregate Score", justify="right")
    aggregate.add_column("Challenges", justify="right")
    for a in c.agents:
        aggregate.add_row(safe_text(a.label), Text(number(a.aggregate)), Text(str(a.challenges)))
    per_challenge = Table(box=box.SQUARE)
    per_challenge.add_column("Challenge")
    for a in c.agents:
        per_challenge.add_column(safe_text(a.label), justify="right")
    for cid in c.challenges:
        cells = (c.cell(a.label, cid) for a in c.agents)
        per_challenge.add_row(safe_text(cid), *(Text(number(cell.summary.mean if cell else None))
                                                for cell in cells))
    return aggregate, per_challenge


_STYLES = {"win": "bold green", "loss": "bold red", "self": "dim"}


def view_table(view: Any) -> Any:
    """A `report.views.TableView` as a rich table and its caption (every cell a Text: agent names
    are not markup)."""
    from rich import box
    from rich.console import Group
    from rich.table import Table

    from agentbench.report.terminal import id_column, safe_text

    table = Table(title=safe_text(view.title, "bold"), box=box.SQUARE, title_justify="left")
    id_column(table, view.headers[0], [str(row[0]) for row in view.rows])
    for i, header in enumerate(view.headers[1:], start=1):
        table.add_column(safe_text(header), justify="right" if view.is_number(i) else "left",
                         no_wrap=view.is_number(i))
    classes = view.classes or [[""] * len(view.headers)] * len(view.rows)
    for row, styles in zip(view.rows, classes, strict=True):
        table.add_row(*(safe_text(cell, _STYLES.get(css, "")) for cell, css in
                        zip(row, styles, strict=True)))
    return Group(table, safe_text(view.caption, "dim")) if view.caption else table


def _verdict_lines(c: Comparison) -> list[Any]:
    from rich.text import Text

    from agentbench.report.terminal import safe_text

    lines: list[Any] = [Text(f"Paired verdicts, {c.population}", style="bold")]
    for v in c.verdicts:
        lines.append(Text.assemble("• ", safe_text(v.text, "bold" if v.winner else "")))
        lines.append(Text.assemble("  hidden tests: ", safe_text(v.hidden_text)))
        if v.power_text:
            lines.append(Text.assemble("  power: ", safe_text(v.power_text)))
    if not c.verdicts:
        lines.append(Text("• no pair of agents to compare"))
    lines.extend(Text.assemble(("note: ", "yellow"), safe_text(n)) for n in c.notes)
    return lines


def comparison_renderables(c: Comparison,
                           others: Sequence[tuple[str, Comparison]] = ()) -> list[Any]:
    """Everything `compare` prints, in order: the seed's tables first, then the report's views
    (`others`: extra ranking columns, each the same runs compared on another score)."""
    from rich.text import Text

    from agentbench.report import views

    aggregate, per_challenge = seed_tables(c)
    blank = Text("")
    out: list[Any] = [aggregate, blank, per_challenge]
    for view in views.after_seed(c, others):
        out += [blank, view_table(view)]
    return [*out, blank, *_verdict_lines(c)]
