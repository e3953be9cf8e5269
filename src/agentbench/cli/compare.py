"""`agentbench compare A.json B.json ...`: the seed's two tables, then statistics and verdicts.

The first two tables (aggregate per agent; per-challenge score per agent) are the seed's contract,
reproduced box for box. Everything after them (intervals, components, hidden tests, time and cost,
paired verdicts, notes) is added below, so a reader of the seed's example finds it unchanged on top.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from agentbench.cli import output_console
from agentbench.comparison import CompareOptions, Comparison, build_comparison, format_interval
from agentbench.store import read_results

FORMATS = ("table", "markdown", "json")
"""Output formats of `compare`."""


@click.command(name="compare")
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="Terminal tables, Markdown or JSON.")
@click.option("--power", "power_gap", type=click.FloatRange(min=0, min_open=True), metavar="POINTS",
              help="Estimate the trials needed to detect a gap of POINTS (e.g. --power 5).")
def command(results: tuple[Path, ...], fmt: str, power_gap: float | None) -> None:
    """Compare agents' results files: scores, intervals, paired verdicts.

    Example: agentbench compare results/claude-code.json results/codex.json
    """
    runs = [read_results(path) for path in results]
    comparison = build_comparison(runs, sources=[str(p) for p in results],
                                  options=CompareOptions(power_gap=power_gap))
    if fmt == "table":
        console = output_console()
        for renderable in comparison_renderables(comparison):
            console.print(renderable)
        return
    from agentbench.report import Format, render

    click.echo(render(comparison, Format(fmt)), nl=False)


def seed_tables(c: Comparison) -> tuple[Any, Any]:
    """The seed's two tables: aggregate per agent, and per-challenge score per agent."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from agentbench.report import number
    from agentbench.report.terminal import safe_text

    aggregate = Table(box=box.SQUARE)
    aggregate.add_column("Agent", min_width=19)
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


def _table(title: str, headers: list[str], rows: list[list[Any]],
           left: tuple[int, ...] = (0,)) -> Any:
    from rich import box
    from rich.table import Table

    table = Table(title=title, box=box.SQUARE, title_justify="left")
    for i, header in enumerate(headers):
        table.add_column(header, justify="left" if i in left else "right")
    for row in rows:
        table.add_row(*row)
    return table


def _statistics_table(c: Comparison) -> Any:
    from rich.text import Text

    from agentbench.report import count, number, pass_at_columns
    from agentbench.report.terminal import safe_text

    ks = pass_at_columns(c)
    rows = [[safe_text(a.label), Text(number(a.aggregate)),
             Text(format_interval(a.interval).split(" CI ")[-1]), Text(str(a.trials_per_challenge)),
             Text(count(a.solved, a.attempts)),
             *(Text(number(dict(a.pass_at).get(k), percent=True)) for k in ks)] for a in c.agents]
    return _table(f"Aggregate with its {c.confidence:.0%} confidence interval; hidden tests",
                  ["Agent", "Aggregate", f"{c.confidence:.0%} CI", "Trials/challenge",
                   "Hidden solved", *(f"pass@{k}" for k in ks)], rows)


def _components_table(c: Comparison) -> Any:
    from rich.text import Text

    from agentbench.report import component_columns, number
    from agentbench.report.terminal import safe_text

    columns = component_columns(c.rubric)
    rows = [[safe_text(a.label), *(Text(number(dict(a.components)[n])) for n, _ in columns),
             Text(number(a.aggregate))] for a in c.agents]
    return _table(f"Score breakdown (rubric: {c.rubric})",
                  ["Agent", *(f"{n.capitalize()} ({w:g})" for n, w in columns), "Total"], rows)


def _usage_table(c: Comparison) -> Any:
    from rich.text import Text

    from agentbench.report import money, number, seconds, status_summary
    from agentbench.report.terminal import safe_text

    rows = [[safe_text(a.label), Text(seconds(a.mean_time_s)),
             Text(number(a.mean_input_tokens, digits=0)),
             Text(number(a.mean_output_tokens, digits=0)), Text(money(a.mean_cost_usd)),
             Text(money(a.total_cost_usd)), safe_text(status_summary(a.statuses))]
            for a in c.agents]
    return _table("Time, tokens and cost (per trial, where the agent reports them)",
                  ["Agent", "Time", "Tokens in", "Tokens out", "Cost", "Total cost", "Trials"],
                  rows, left=(0, 6))


def _verdict_lines(c: Comparison) -> list[Any]:
    from rich.text import Text

    from agentbench.report.terminal import safe_text

    lines: list[Any] = [Text("Paired verdicts", style="bold")]
    for v in c.verdicts:
        lines.append(Text.assemble("• ", safe_text(v.text, "bold" if v.winner else "")))
        lines.append(Text.assemble("  hidden tests: ", safe_text(v.hidden_text)))
        if v.power_text:
            lines.append(Text.assemble("  power: ", safe_text(v.power_text)))
    if not c.verdicts:
        lines.append(Text("• no pair of agents to compare"))
    lines.extend(Text.assemble(("note: ", "yellow"), safe_text(n)) for n in c.notes)
    return lines


def comparison_renderables(c: Comparison) -> list[Any]:
    """Everything `compare` prints, in order: the seed's tables first."""
    from rich.text import Text

    aggregate, per_challenge = seed_tables(c)
    blank = Text("")
    return [aggregate, blank, per_challenge, blank, _statistics_table(c), blank,
            _components_table(c), blank, _usage_table(c), blank, *_verdict_lines(c)]
