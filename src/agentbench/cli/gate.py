"""`agentbench gate CURRENT --baseline BASELINE [--max-drop POINTS] [--junit FILE]`: a CI gate.

Exits 1 when the current agent is worse than the baseline by more than `--max-drop` points by the
statistics of `compare` (its paired interval lies wholly below -max_drop, not a raw difference),
0 otherwise, 2 for bad input. `--junit FILE` writes JUnit XML, one test case per challenge, for CI
systems (`report.junit`). CURRENT and BASELINE are each a results file, a run ID, `agent@run-id`
or `agent@latest` naming one agent's results. See examples/github-actions-gate.yml.
"""

from __future__ import annotations

from pathlib import Path

import click

from agentbench.cli import output_console
from agentbench.cli.db import database_options


@click.command(name="gate")
@click.argument("current", metavar="CURRENT")
@click.option("--baseline", required=True, metavar="BASELINE",
              help="The results to compare against (file, run ID, AGENT@RUN_ID, AGENT@latest).")
@click.option("--max-drop", type=click.FloatRange(min=0), default=0.0, show_default=True,
              metavar="POINTS", help="Drop in points (0-100 score) allowed before the gate fails.")
@click.option("--junit", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write JUnit XML here (one test case per challenge).")
@database_options
def command(current: str, baseline: str, max_drop: float,
            junit: Path | None, results_dir: Path, db: str | None) -> None:
    """Fail (exit 1) when CURRENT is worse than BASELINE by more than --max-drop points.

    Example: agentbench gate results/new.json --baseline results/main.json --max-drop 2
    --junit gate.xml
    """
    from rich.text import Text

    from agentbench.cli.report import results_files
    from agentbench.comparison.gate import gate
    from agentbench.errors import UsageError
    from agentbench.report.terminal import safe_text
    from agentbench.store import write_atomic
    from agentbench.store.selection import check_shared, select

    picked = []
    for role, spec in (("baseline", baseline), ("current", current)):
        path = Path(spec)
        specs = [str(f) for f in results_files([path])] if path.is_dir() else [spec]
        found = select(specs, results_dir, db)
        if len(found) != 1:
            raise UsageError(f"{role} {spec!r} names {len(found)} agents' results, not one",
                             "name one results file, or AGENT@RUN_ID / AGENT@latest")
        picked.extend(found)
    check_shared(picked)
    result = gate(picked[0].record, picked[1].record, max_drop=max_drop,
                  sources=[s.source for s in picked], models=[s.model for s in picked])
    console = output_console()
    console.print(safe_text(result.summary, "bold green" if result.passed else "bold red"))
    for check in result.checks:
        if check.failed:
            console.print(Text.assemble("  dropped: ", safe_text(check.message)))
    if junit is not None:
        from agentbench.report.junit import render_junit

        write_atomic(junit, render_junit(result))
        console.print(Text(f"JUnit XML written to {junit}", style="dim"))
    if not result.passed:
        raise SystemExit(1)
