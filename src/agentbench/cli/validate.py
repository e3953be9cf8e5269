"""`agentbench validate`: prove challenges are fair (schema, lint, reference vs noop, flakiness)."""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from agentbench.cli import challenges_option, output_console

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from agentbench.models import TrialRecord
    from agentbench.validation import ChallengeVerdict


@click.command(name="validate")
@click.argument("ids", nargs=-1, metavar="[ID]...")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Trials run at once (default: 2 where trials are kept apart, else 1).")
@click.option("--repeats", type=click.IntRange(min=0), default=3, show_default=True,
              help="Re-runs of the hidden tests on the reference, to find flaky tests.")
@click.option("--results", "results_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Where the validation run is kept and indexed (default: a scratch "
                                 "results folder of its own, so `AGENT@latest` of your results "
                                 "never picks up validation trials).")
@click.option("--language", metavar="LANG", help="Only challenges in this language (e.g. python, ts, go).")
@click.option("--write-sets", is_flag=True,
              help="Write the computed fail_to_pass / pass_to_pass into brownfield challenges "
                   "that declare none (e.g. after `agentbench import`).")
@challenges_option
def command(ids: tuple[str, ...], jobs: int | None, repeats: int, results_dir: Path | None, language: str | None,  # noqa: PLR0913 (click options)
            write_sets: bool, challenge_dirs: tuple[str, ...]) -> None:
    """Check challenges: schema, lint, `reference` >= 95 with all hidden tests passing,
    `noop` <= 10 with none passing, and no flaky hidden test. Exits 1 on any invalid challenge.

    With `--challenges DIR` and no ID, only the challenges of those folders are checked (e.g. after
    `agentbench import`); name IDs to check built-in ones as well.
    """
    from rich.text import Text

    from agentbench.cli.progress import RichProgress
    from agentbench.loader import error_challenge_id, scan_challenges, select_challenges
    from agentbench.runner import new_run_id
    from agentbench.validation import validate

    challenges, errors = scan_challenges([Path(d) for d in challenge_dirs],
                                         include_builtin=bool(ids) or not challenge_dirs)
    for error in errors:
        if error_challenge_id(error) in ids:
            raise error  # NOTE: a challenge asked for by ID that cannot be loaded is bad input (exit 2)
    console = output_console()
    for error in errors:
        console.print(Text.assemble(("invalid: ", "red"), error.message))
    picked = select_challenges(challenges, ids=ids, language=language)
    if results_dir is None:
        results_dir = Path(tempfile.mkdtemp(prefix="agentbench-validate-"))
    if jobs is None:
        from agentbench.users import isolation

        jobs = 2 if isolation("none").separated else 1
    run_id = new_run_id(["validate"])
    with RichProgress() as progress:
        verdicts = validate(picked, results_dir=results_dir, run_id=run_id,
                            jobs=jobs, repeats=repeats, progress=progress, write_sets=write_sets)
    invalid = len(errors) + _print_verdicts(console, verdicts, results_dir / run_id)
    console.print(f"{len(verdicts) + len(errors) - invalid} valid, {invalid} invalid")
    if invalid:
        sys.exit(1)


def _print_verdicts(console: Any, verdicts: Sequence[ChallengeVerdict], run_dir: Path) -> int:
    """The table, each problem in full, canaries and where the run is; the number invalid."""
    from rich.text import Text

    from agentbench.report.terminal import safe_text

    console.print(validation_table(verdicts))
    for v in verdicts:
        for problem in v.problems:  # in full, below the table: a narrow column would cut them
            console.print(Text.assemble(("invalid ", "red"), safe_text(f"{v.challenge_id}: {problem}")))
    for v in verdicts:
        if v.canaries != "-":
            console.print(safe_text(f"canaries of {v.challenge_id}: {v.canaries}"
                                    + (f"; unguarded: {', '.join(v.twinless)}" if v.twinless else "")))
    console.print(Text(f"validation run (logs, workspaces): {run_dir}"))
    return sum(not v.valid for v in verdicts)


def validation_table(verdicts: Sequence[ChallengeVerdict]) -> Table:
    """One row per challenge: reference and noop scores and hidden-test rates, and the verdict
    (the problems of an invalid challenge are printed in full below the table). The challenge ID
    is never cut; the other columns wrap to fit 80 columns."""
    from rich.table import Table
    from rich.text import Text

    from agentbench.report.terminal import id_column, safe_text, trial_cells

    table = Table(title="challenge validation (scores: seed / verified rubric)")
    id_column(table, "Challenge", [v.challenge_id for v in verdicts])
    for column in ("Reference", "Ref. hidden", "Noop", "Noop hidden", "Verdict"):
        table.add_column(column)
    for v in verdicts:
        verdict = (Text("valid", style="green") if v.valid
                   else Text(f"invalid ({len(v.problems)})", style="red"))
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
