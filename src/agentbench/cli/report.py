"""`agentbench report results/ --output comparison.md`: a Markdown, HTML, JSON or CSV report file.

The format follows the output's suffix (`.md`, `.html`, `.json`, or `.csv` for the per-trial table)
unless `--format` says otherwise; without `--output` the report goes to standard output. Trials link
to their folders when the run folder with its trials sits beside the results files, with links
relative to the report, so the folder can be moved whole. Agents are listed best aggregate first;
each agent's model comes from the run plan (`<run-id>/run.json`) beside its results file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import click

from agentbench.cli import output_console
from agentbench.comparison import CompareOptions, Comparison, compare_both
from agentbench.comparison.evidence import with_behaviour
from agentbench.errors import AgentBenchError, UsageError
from agentbench.models import RunRecord
from agentbench.report import Format, render
from agentbench.scoring import aggregate_score
from agentbench.store import RunDir, read_results, write_atomic


@click.command(name="report")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="Report file: .md, .html or .json (default: Markdown on standard output).")
@click.option("--format", "fmt", type=click.Choice([f.value for f in Format]),
              help="Report format (default: from the --output suffix).")
@click.option("--power", "power_gap", type=click.FloatRange(min=0, min_open=True), metavar="POINTS",
              help="Estimate the trials or challenges needed to detect a gap of POINTS.")
@click.option("--condition-on-challenges", "conditional", is_flag=True,
              help="Intervals and verdicts for these challenges only, instead of over challenges "
                   "like these.")
def command(paths: tuple[Path, ...], output: Path | None, fmt: str | None,
            power_gap: float | None, conditional: bool) -> None:
    """Write a report comparing the results files in folders or files.

    Example: agentbench report results/ --output report.html (or .md, .json, .csv for the trials)
    """
    files, runs = by_score(results_files(paths))
    comparison, others = compare_both(
        runs, sources=[str(p) for p in files], models=run_models(runs, files),
        options=CompareOptions(power_gap=power_gap, condition_on_challenges=conditional))
    comparison = with_behaviour(comparison, runs, files)
    text = render(comparison, pick_format(fmt, output),
                  links=log_links(comparison, runs, files, output), others=others)
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
        found = sorted(p for p in path.glob("*.json") if p.is_file())
        if not found:
            raise UsageError(f"{path}: no results files (*.json) in this folder",
                             f"run `agentbench run --results {path} ...` first")
        files.extend(found)
    return files


def by_score(files: Sequence[Path]) -> tuple[list[Path], list[RunRecord]]:
    """Read the results files, best aggregate first (ties keep the given order)."""
    loaded = [(path, read_results(path)) for path in files]
    loaded.sort(key=lambda pair: -(aggregate_score(pair[1].trials) or -1.0))
    return [p for p, _ in loaded], [r for _, r in loaded]


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


def log_links(comparison: Comparison, runs: Sequence[RunRecord], files: Sequence[Path],
              output: Path | None) -> dict[str, str]:
    """Agent label -> its results folder relative to the report, for agents whose trials are kept."""
    where = (output.parent if output else Path.cwd()).resolve()
    links = {}
    for agent, run, path in zip(comparison.agents, runs, files, strict=True):
        folder = path.parent.resolve()
        if (folder / run.run_id / "trials").is_dir():
            links[agent.label] = Path(os.path.relpath(folder, where)).as_posix()
    return links


def run_models(runs: Sequence[RunRecord], files: Sequence[Path]) -> list[str | None]:
    """The model each run asked for, from the run plan beside its results file (None: unknown).

    A results file copied away from its run folder has no plan beside it; its model is then
    shown as unknown rather than failing the report.
    """
    models: list[str | None] = []
    for run, path in zip(runs, files, strict=True):
        try:
            models.append(RunDir(path.parent / run.run_id).read_plan().model)
        except AgentBenchError:
            models.append(None)
    return models
