"""`agentbench history AGENT [--challenge ID]`: the agent's score per run, and per CLI version and model.

Printed as two tables (or `--json`); `--output FILE.html` (or `.svg`) writes a small chart: one
point per run with its 95% interval, coloured by CLI version and model. The page is self-contained
(inline SVG, no script, no network), and every name in it is escaped.
"""

from __future__ import annotations

import html
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from agentbench.cli import json_option, output_console
from agentbench.cli.db import database_options, open_database


@click.command(name="history")
@click.argument("agent")
@click.option("--challenge", metavar="ID", help="One challenge's score per run (interval over its trials).")
@click.option("--rubric", type=click.Choice(("seed", "verified")), default="seed", show_default=True,
              help="Which recorded score to follow (the seed's is comparable across every run).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write a chart: FILE.html (a page) or FILE.svg.")
@database_options
@json_option
def command(agent: str, challenge: str | None, rubric: str, output: Path | None, results_dir: Path,  # noqa: PLR0913
            db: str | None, as_json: bool) -> None:
    """How an agent's score moved over runs, by CLI version and model.

    Example: agentbench history claude-code --output history.html
    """
    from agentbench.store import write_atomic
    from agentbench.store.history import history

    connection = open_database(results_dir, db)
    try:
        found = history(connection, agent, challenge, rubric)
    finally:
        connection.close()
    if output is not None:
        write_atomic(output, render_svg(found) if output.suffix.lower() == ".svg" else render_page(found))
    if as_json:
        click.echo(json.dumps(asdict(found), indent=2))
        return
    console = output_console()
    for table in history_tables(found):
        console.print(table)
    if output is not None:
        from rich.text import Text

        console.print(Text(f"wrote {output}"))


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def history_tables(h: Any) -> list[Any]:
    """The per-run table and the per-(version, model) table."""
    from rich import box
    from rich.table import Table

    from agentbench.report.terminal import id_column, safe_text

    what = f"{h.agent} on {h.challenge}" if h.challenge else h.agent
    runs = Table(box=box.SIMPLE_HEAD, title_justify="left",
                 title=f"{what}: {h.rubric} score per run (95% interval over {h.unit})")
    id_column(runs, "Run", [p.run_id for p in h.points])
    for header in ("Started (UTC)", "CLI version", "Model", "Score", "95% interval", h.unit.capitalize()):
        runs.add_column(header, justify="right" if header in ("Score", "95% interval", h.unit.capitalize()) else "left")
    for p in h.points:
        runs.add_row(safe_text(p.run_id), safe_text(p.started_at.replace("+00:00", "")),
                     safe_text(p.version or "unknown"), safe_text(p.model or "default"),
                     safe_text(_fmt(p.score)), safe_text(_interval(p.low, p.high)), safe_text(str(p.n)))
    groups = Table(box=box.SIMPLE_HEAD, title="by CLI version and model (95% interval over runs)",
                   title_justify="left")
    for header in ("CLI version", "Model", "Runs", "Mean", "95% interval", "First", "Last"):
        groups.add_column(header, justify="right" if header in ("Runs", "Mean", "95% interval") else "left")
    for g in h.groups:
        groups.add_row(safe_text(g.version or "unknown"), safe_text(g.model or "default"),
                       safe_text(str(g.runs)), safe_text(_fmt(g.mean)), safe_text(_interval(g.low, g.high)),
                       safe_text(g.first[:10]), safe_text(g.last[:10]))
    return [runs, groups]


def _interval(low: float | None, high: float | None) -> str:
    return "-" if low is None or high is None else f"{low:.1f} to {high:.1f}"


_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
_W, _H, _LEFT, _TOP, _PLOT_H = 760, 300, 48, 16, 220


def render_svg(h: Any) -> str:
    """The chart alone: score (0-100) per run, oldest left, whiskers for the intervals."""
    e = html.escape
    groups = {(g.version, g.model): _PALETTE[i % len(_PALETTE)] for i, g in enumerate(h.groups)}
    n = len(h.points)
    step = (_W - _LEFT - 16) / max(n, 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H + 20 * len(groups)}" '
           f'role="img" aria-label="{e(h.agent)} score per run" font-family="sans-serif" font-size="11">']
    for tick in (0, 25, 50, 75, 100):
        y = _y(tick)
        out.append(f'<line x1="{_LEFT}" x2="{_W - 8}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
                   f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>')
    for i, p in enumerate(h.points):
        x = _LEFT + step * (i + 0.5)
        colour = groups[(p.version, p.model)]
        if p.low is not None and p.high is not None:
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{_y(p.low):.1f}" y2="{_y(p.high):.1f}" '
                       f'stroke="{colour}" stroke-width="1.5"/>')
        out.append(f'<circle cx="{x:.1f}" cy="{_y(p.score):.1f}" r="3.5" fill="{colour}">'
                   f'<title>{e(p.run_id)}: {p.score:.1f} ({e(p.version or "unknown")}, '
                   f'{e(p.model or "default")})</title></circle>')
    for i, ((version, model), colour) in enumerate(groups.items()):
        y = _H + 4 + 20 * i
        out.append(f'<rect x="{_LEFT}" y="{y}" width="10" height="10" fill="{colour}"/>'
                   f'<text x="{_LEFT + 16}" y="{y + 9}">CLI {e(version or "unknown")}, model '
                   f'{e(model or "default")}</text>')
    out.append(f'<text x="{_LEFT}" y="{_TOP + _PLOT_H + 24}">runs, oldest first ({n})</text></svg>')
    return "\n".join(out) + "\n"


def _y(score: float) -> float:
    return _TOP + _PLOT_H * (1 - max(0.0, min(100.0, score)) / 100)


def render_page(h: Any) -> str:
    """A self-contained HTML page: the chart and the per-(version, model) table."""
    e = html.escape
    what = f"{h.agent} on {h.challenge}" if h.challenge else h.agent
    rows = "".join(f"<tr><td>{e(g.version or 'unknown')}</td><td>{e(g.model or 'default')}</td>"
                   f"<td>{g.runs}</td><td>{_fmt(g.mean)}</td><td>{e(_interval(g.low, g.high))}</td></tr>"
                   for g in h.groups)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>History: {e(what)}</title><style>body{{font-family:sans-serif;margin:2em}}"
            "td,th{padding:2px 10px;text-align:left}</style></head><body>"
            f"<h1>{e(what)}: {e(h.rubric)} score per run</h1>"
            f"<p>Each point is one run; the whisker is its 95% interval over {e(h.unit)}.</p>"
            f"{render_svg(h)}<h2>By CLI version and model</h2><table><tr><th>CLI version</th>"
            f"<th>Model</th><th>Runs</th><th>Mean</th><th>95% interval over runs</th></tr>{rows}"
            "</table></body></html>\n")
