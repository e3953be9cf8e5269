"""`agentbench regrade RUN_ID`: re-measure and re-score a run's kept workspaces without re-running agents."""

from __future__ import annotations

from pathlib import Path

import click

from agentbench.cli import output_console
from agentbench.scoring import RUBRICS


@click.command(name="regrade")
@click.argument("run_id")
@click.option("--results", "results_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("results"), show_default=True, help="Results folder holding the run.")
@click.option("--rubric", type=click.Choice(sorted(RUBRICS)), default=None,
              help="Score with this rubric instead of the run's own.")
def command(run_id: str, results_dir: Path, rubric: str | None) -> None:
    """Re-measure every kept workspace of RUN_ID (after a scorer fix or with a new rubric).

    The agents' transcripts, times and token counts are kept; each trial's previous record is
    saved once as record.orig.json. The per-agent results files are rewritten.
    """
    import dataclasses

    from agentbench.cli.progress import RichProgress
    from agentbench.cli.run import resumed_config
    from agentbench.report.terminal import aggregate_line, run_table
    from agentbench.runner import regrade

    config = resumed_config(results_dir, run_id)
    if rubric:
        config = dataclasses.replace(config, rubric=rubric)
    with RichProgress() as progress:
        outcome = regrade(config, progress)
    console = output_console()
    for record in outcome.records.values():
        console.print(run_table(record, console.width))
        console.print(aggregate_line(record))
