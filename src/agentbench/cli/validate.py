"""`agentbench validate`: prove challenges are fair (schema, lint, reference vs noop, flakiness)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from agentbench.cli import challenges_option, output_console

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from agentbench.models import TrialRecord
    from agentbench.validation import ChallengeVerdict


@click.command(name="validate")
@click.argument("ids", nargs=-1, metavar="[ID]...")
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True,
              help="Trials run at once.")
@click.option("--repeats", type=click.IntRange(min=0), default=3, show_default=True,
              help="Re-runs of the hidden tests on the reference, to find flaky tests.")
@click.option("--results", "results_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("results"), show_default=True, help="Where the validation run is kept.")
@click.option("--language", metavar="LANG", help="Only challenges in this language (e.g. python, ts, go).")
@click.option("--write-sets", is_flag=True,
              help="Write the computed fail_to_pass / pass_to_pass into brownfield challenges "
                   "that declare none (e.g. after `agentbench import`).")
@challenges_option
def command(ids: tuple[str, ...], jobs: int, repeats: int, results_dir: Path, language: str | None,  # noqa: PLR0913 (click options)
            write_sets: bool, challenge_dirs: tuple[str, ...]) -> None:
    """Check challenges: schema, lint, `reference` >= 95 with all hidden tests passing,
    `noop` <= 10 with none passing, and no flaky hidden test. Exits 1 on any invalid challenge.
    """
    from rich.text import Text

    from agentbench.cli.progress import RichProgress
    from agentbench.loader import error_challenge_id, scan_challenges, select_challenges
    from agentbench.runner import new_run_id
    from agentbench.validation import validate

    challenges, errors = scan_challenges([Path(d) for d in challenge_dirs])
    for error in errors:
        if error_challenge_id(error) in ids:
            raise error  # NOTE: a challenge asked for by ID that cannot be loaded is bad input (exit 2)
    console = output_console()
    for error in errors:
        console.print(Text.assemble(("invalid: ", "red"), error.message))
    picked = select_challenges(challenges, ids=ids, language=language)
    with RichProgress() as progress:
        verdicts = validate(picked, results_dir=results_dir, run_id=new_run_id(["validate"]),
                            jobs=jobs, repeats=repeats, progress=progress, write_sets=write_sets)
    from agentbench.report.terminal import safe_text

    console.print(validation_table(verdicts))
    for v in verdicts:
        if v.canaries != "-":
            console.print(safe_text(f"canaries of {v.challenge_id}: {v.canaries}"
                                    + (f"; unguarded: {', '.join(v.twinless)}" if v.twinless else "")))
    invalid = len(errors) + sum(not v.valid for v in verdicts)
    console.print(f"{len(verdicts) + len(errors) - invalid} valid, {invalid} invalid")
    if invalid:
        sys.exit(1)


def validation_table(verdicts: Sequence[ChallengeVerdict]) -> Table:
    """One row per challenge: reference and noop scores and hidden-test rates, problems spelled out."""
    from rich.table import Table
    from rich.text import Text

    from agentbench.report.terminal import safe_text, trial_cells

    table = Table(title="challenge validation (scores: seed / verified rubric)")
    for column in ("Challenge", "Reference", "Ref. hidden", "Noop", "Noop hidden", "Verdict"):
        table.add_column(column, no_wrap=column == "Challenge")
    for v in verdicts:
        verdict = (Text("valid", style="green") if v.valid
                   else safe_text("\n".join(v.problems), "red"))
        table.add_row(safe_text(v.challenge_id), *_cells(v.reference, trial_cells),
                      *_cells(v.noop, trial_cells), verdict)
    return table


def _cells(trial: TrialRecord | None, trial_cells: Callable[..., tuple[Text, Text]]) -> tuple[Text, Text]:
    """Both rubrics' totals, then the hidden-test cell."""
    from rich.text import Text

    _, hidden = trial_cells(trial)
    if trial is None:
        return Text("-"), hidden
    scores = [s.total for s in (trial.seed_score, trial.verified_score) if s is not None]
    return Text(" / ".join(f"{total:.1f}" for total in scores) or "-"), hidden
