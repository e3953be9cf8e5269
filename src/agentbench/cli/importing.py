"""`agentbench import FORMAT SOURCE --output DIR`: a local copy of a suite as AgentBench challenges.

Formats: `exercism` (practice exercises in a track's layout, as Aider's polyglot benchmark uses
them) and `swe` (SWE-bench-style instances over a local clone). Nothing is downloaded: the source
is the user's own copy. Then `agentbench validate --write-sets --challenges DIR` proves them and
`agentbench run --challenges DIR` runs them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from agentbench.cli import output_console

if TYPE_CHECKING:
    from agentbench.formats.base import ImportReport

_OUTPUT = click.option("--output", type=click.Path(file_okay=False, path_type=Path), required=True,
                       help="Folder to write the challenges into (tier sub-folders).")
_OVERWRITE = click.option("--overwrite", is_flag=True, help="Replace challenges already there.")


@click.group(name="import")
def command() -> None:
    """Convert a local copy of a suite into challenges (see `agentbench import exercism --help`)."""


@command.command(name="exercism")
@click.argument("source", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_OUTPUT
@_OVERWRITE
def exercism(source: Path, output: Path, overwrite: bool) -> None:
    """Exercism practice exercises under SOURCE (a track, its exercises/practice, one exercise, or
    a folder of tracks) for Python, Go and TypeScript/JavaScript."""
    from agentbench.formats.exercism import import_exercism

    _print(import_exercism(source, output, overwrite=overwrite))


@command.command(name="swe")
@click.argument("instances", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--repo", type=click.Path(exists=True, file_okay=False, path_type=Path), required=True,
              help="A local clone of the instances' repository.")
@_OUTPUT
@_OVERWRITE
def swe(instances: Path, repo: Path, output: Path, overwrite: bool) -> None:
    """SWE-bench-style instances (JSON lines: instance_id, base_commit, problem_statement, patch,
    test_patch, FAIL_TO_PASS, PASS_TO_PASS) of a Python repository, against a local clone."""
    from agentbench.formats.swe import import_swe

    _print(import_swe(instances, repo, output, overwrite=overwrite))


def _print(report: ImportReport) -> None:
    from rich.text import Text

    from agentbench.report.terminal import safe_text

    console = output_console()
    for cid in report.written:
        console.print(Text.assemble(("imported ", "green"), safe_text(cid)))
    for item in report.skipped:
        console.print(Text.assemble(("not converted ", "yellow"), safe_text(item.source), ": ",
                                    safe_text(item.reason)))
    console.print(f"{len(report.written)} imported, {len(report.skipped)} not converted, into "
                  f"{report.output}")
    if report.written:
        console.print(Text.assemble("next: agentbench validate --write-sets --challenges ",
                                    safe_text(str(report.output))))
