"""`agentbench report results/ --output comparison.md`: a Markdown, HTML, JSON or CSV report file.

The format follows the output's suffix (`.md`, `.html`, `.json`, or `.csv` for the per-trial table)
unless `--format` says otherwise; without `--output` the report goes to standard output. Trials link
to their folders when the run folder with its trials sits beside the results files, with links
relative to the report, so the folder can be moved whole. Agents are listed best aggregate first;
each agent's model comes from the run plan (`<run-id>/run.json`) beside its results file. Besides
files and folders, run IDs, `agent@run-id` and `agent@latest` are read from the results database.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import click

from agentbench.cli import output_console
from agentbench.cli.db import database_options
from agentbench.comparison import CompareOptions, Comparison, compare_both
from agentbench.errors import UsageError
from agentbench.report import Format, render
from agentbench.scoring import aggregate_score
from agentbench.store import PLAN_NAME, write_atomic


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
    text = render(comparison, pick_format(fmt, output),
                  links=folder_links(comparison, [s.results_dir for s in selected], output),
                  others=others)
    if output is None:
        click.echo(text, nl=False)
        return
    from rich.text import Text

    write_atomic(output, text)
    output_console().print(Text(f"wrote {output} ({len(comparison.agents)} agents, "
                                f"{len(comparison.challenges)} challenges)"))


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
