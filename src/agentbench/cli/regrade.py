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
    saved once as record.orig.json. The run's own results files and the latest exports
    (RESULTS/<agent>.json) are rewritten, each named as it is written. RUN_ID may be a unique
    prefix of a run ID (or `latest`) among the run folders in RESULTS.
    """
    import dataclasses

    from rich.text import Text

    from agentbench.cli.progress import RichProgress
    from agentbench.cli.run import print_records, resumed_config
    from agentbench.runner import regrade

    config = resumed_config(results_dir, _run_folder(results_dir, run_id))
    if rubric:
        config = dataclasses.replace(config, rubric=rubric)
    with RichProgress() as progress:
        outcome = regrade(config, progress)
    console = output_console()
    print_records(outcome, console, "rewrote")
    console.print(Text(f"re-scored {sum(len(r.trials) for r in outcome.records.values())} trial(s) "
                       f"of run {config.run_id} in place (each previous record kept as "
                       "record.orig.json beside it)"))


def _run_folder(results_dir: Path, ref: str) -> str:
    """The run folder `ref` names in `results_dir`: itself, `latest` or a unique prefix."""
    from agentbench.errors import UsageError

    runs = sorted(p.parent.name for p in results_dir.glob("*/run.json"))
    if ref in runs:
        return ref
    matches = runs[-1:] if ref == "latest" else [r for r in runs if r.startswith(ref)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise UsageError(f"no run {ref!r} in {results_dir}", "list the runs with `agentbench runs`")
    raise UsageError(f"{ref!r} starts {len(matches)} run IDs: {', '.join(matches[-5:])}",
                     "give more of the run ID (see `agentbench runs`)")
