"""`agentbench report results/ --output comparison.md`: a Markdown, HTML, JSON or CSV report file.

The format follows the output's suffix (`.md`, `.html`, `.json`, or `.csv` for the per-trial table)
unless `--format` says otherwise; without `--output` the report goes to standard output. Trials link
to their folders when the run folder with its trials sits beside the results files, with links
relative to the report, so the folder can be moved whole. Agents are listed best aggregate first;
each agent's model comes from the run plan (`<run-id>/run.json`) beside its results file. Besides
files and folders, run IDs, `agent@run-id` and `agent@latest` are read from the results database.
An HTML report also charts each agent's score over its runs when the results database holds two or
more of them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from agentbench.cli import output_console
from agentbench.cli.db import database_options
from agentbench.comparison import CompareOptions, Comparison, compare_both
from agentbench.comparison.evidence import with_behaviour
from agentbench.errors import AgentBenchError, UsageError
from agentbench.report import Format, render
from agentbench.scoring import aggregate_score
from agentbench.store import PLAN_NAME, write_atomic

if TYPE_CHECKING:
    from agentbench.store.history import History
    from agentbench.store.selection import Selected


@click.command(name="report")
@click.argument("paths", nargs=-1, required=True, metavar="RESULTS...")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="Report file: .md, .html or .json (default: Markdown on standard output).")
@click.option("--format", "fmt", type=click.Choice([f.value for f in Format]),
              help="Report format (default: from the --output suffix).")
@click.option("--power", "power_gap", type=click.FloatRange(min=0, min_open=True), metavar="POINTS",
              help="Estimate the trials or challenges needed to detect a gap of POINTS.")
@click.option("--condition-on-challenges", "conditional", is_flag=True,
              help="Intervals and verdicts for these challenges only, instead of over challenges "
                   "like these.")
@database_options
def command(paths: tuple[str, ...], output: Path | None, fmt: str | None,  # noqa: PLR0913 (click options)
            power_gap: float | None, conditional: bool, results_dir: Path, db: str | None) -> None:
    """Write a report from results files, folders, run IDs, AGENT@RUN_ID or AGENT@latest.

    Example: agentbench report results/ --output report.html (or .md, .json, .csv for the trials)
    """
    from agentbench.store.selection import check_shared, select

    named = [str(f) for f in results_files([Path(p) for p in paths if Path(p).exists()])]
    selected = select([*named, *(p for p in paths if not Path(p).exists())], results_dir, db)
    selected.sort(key=lambda s: -(aggregate_score(s.record.trials) or -1.0))
    check_shared(selected)
    runs = [s.record for s in selected]
    comparison, others = compare_both(
        runs, sources=[s.source for s in selected], models=[s.model for s in selected],
        options=CompareOptions(power_gap=power_gap, condition_on_challenges=conditional))
    comparison = with_behaviour(comparison, runs, [s.results_dir for s in selected])
    chosen = pick_format(fmt, output)
    text = render(comparison, chosen,
                  links=folder_links(comparison, [s.results_dir for s in selected], output),
                  others=others,
                  histories=histories(selected, results_dir, db) if chosen is Format.HTML else ())
    if output is None:
        click.echo(text, nl=False)
        return
    from rich.text import Text

    write_atomic(output, text)
    output_console().print(Text(f"wrote {output} ({len(comparison.agents)} agents, "
                                f"{len(comparison.challenges)} challenges)"))


def histories(selected: Sequence[Selected], results_dir: Path, db: str | None) -> list[History]:
    """Each reported agent's score over its runs (`store.history.History`), where it has two or more.

    Read from `--db` (or `$AGENTBENCH_DB`), else the database beside the first results that has one
    (its run's folder, or the results file's folder or the one above), else `RESULTS/agentbench.db`; with no database, or one that cannot be read, there are none (the
    report itself never needs the database for files).
    """
    from agentbench.store.database import DB_ENV, DB_NAME, locate
    from agentbench.store.history import history
    from agentbench.store.opening import connect

    folders = [s.results_dir for s in selected if s.results_dir is not None]
    folders += [p for s in selected if Path(s.source).is_file()
                for p in (Path(s.source).parent, Path(s.source).parent.parent)] + [results_dir]
    if not (db or os.environ.get(DB_ENV)):
        found = [f for f in folders if (f / DB_NAME).is_file()]
        if not found:
            return []
        results_dir = found[0]
    out: list[History] = []
    try:
        connection = connect(locate(db, results_dir), create=False)
    except AgentBenchError:
        return []
    try:
        for agent in dict.fromkeys(s.record.agent for s in selected):
            with contextlib.suppress(AgentBenchError):
                found_history = history(connection, agent)
                if len(found_history.points) > 1:
                    out.append(found_history)
    finally:
        connection.close()
    return out


def results_files(paths: Sequence[Path]) -> list[Path]:
    """The results files named, with each folder replaced by the `*.json` files directly in it."""
    files: list[Path] = []
    for path in paths:
        if not path.is_dir():
            files.append(path)
            continue
        found = sorted(p for p in path.glob("*.json") if p.is_file() and p.name != PLAN_NAME)
        if not found:
            raise UsageError(f"{path}: no results files (*.json) in this folder",
                             f"run `agentbench run --results {path} ...` first")
        files.extend(found)
    return files


def pick_format(fmt: str | None, output: Path | None) -> Format:
    """`--format` if given, else the output's suffix, else Markdown."""
    if fmt is not None:
        return Format(fmt)
    if output is None:
        return Format.MARKDOWN
    picked = Format.from_suffix(output.suffix)
    if picked is None:
        raise UsageError(f"cannot tell the report format from {output.name!r}",
                         "name the file .md, .html, .json or .csv, or pass --format")
    return picked


def folder_links(comparison: Comparison, folders: Sequence[Path | None],
                 output: Path | None) -> dict[str, str]:
    """Agent label -> the folder holding its run folder, relative to the report (where known)."""
    where = (output.parent if output else Path.cwd()).resolve()
    return {agent.label: Path(os.path.relpath(folder.resolve(), where)).as_posix()
            for agent, folder in zip(comparison.agents, folders, strict=True) if folder is not None}
