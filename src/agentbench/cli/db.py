"""`agentbench db info|rebuild`: where the results database is, what it holds, and indexing the folders again.

Also the options every database command shares (`--results DIR`, `--db URL`) and opening the
database for them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from agentbench.cli import json_option, output_console
from agentbench.errors import UsageError


def database_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """`--results DIR` and `--db URL`: which results database to read."""
    func = click.option("--db", metavar="URL", default=None,
                        help="Results database: a file (SQLite) or postgresql://... (default: "
                             "$AGENTBENCH_DB, else RESULTS/agentbench.db).")(func)
    return click.option("--results", "results_dir", type=click.Path(file_okay=False, path_type=Path),
                        default=Path("results"), show_default=True,
                        help="Results folder (its agentbench.db is the default database).")(func)


def open_database(results_dir: Path, db: str | None, *, create: bool = False) -> Any:
    """The results database's connection (`store.database.Connection`)."""
    from agentbench.store.database import DB_ENV, locate
    from agentbench.store.opening import connect

    if not create and db is None and not os.environ.get(DB_ENV) and not results_dir.is_dir():
        raise UsageError(f"no results folder {results_dir}",
                         "pass --results DIR (the folder `agentbench run --results` wrote), or "
                         "--db URL")
    return connect(locate(db, results_dir), create=create)


@click.group(name="db")
def command() -> None:
    """The results database: `info` shows it, `rebuild` re-indexes the run folders into it."""


@command.command(name="info")
@database_options
@json_option
def info(results_dir: Path, db: str | None, as_json: bool) -> None:
    """Where the results database is, its schema version, and how many runs and trials it holds."""
    import json

    from rich.text import Text

    from agentbench.store.opening import schema_version
    from agentbench.store.views import counts

    connection = open_database(results_dir, db)
    try:
        runs, trials = counts(connection)
        facts = {"database": connection.location.shown, "backend": connection.kind,
                 "schema_version": schema_version(connection), "runs": runs, "trials": trials}
    finally:
        connection.close()
    if as_json:
        click.echo(json.dumps(facts, indent=2))
        return
    console = output_console()
    for key, value in facts.items():
        console.print(Text(f"{key}: {value}"))


@command.command(name="rebuild")
@database_options
def rebuild(results_dir: Path, db: str | None) -> None:
    """Index every run folder of the results folder again (the folders are the source of truth).

    Each run is replaced by what its folder holds; runs indexed from this results folder whose
    folder is gone are dropped. A corrupted SQLite file is first moved aside as
    agentbench.db.broken-TIME.
    """
    from rich.text import Text

    from agentbench.store.database import DatabaseError, locate
    from agentbench.store.index import ResultsIndex
    from agentbench.store.opening import connect
    from agentbench.store.rebuild import move_aside, rebuild

    location = locate(db, results_dir)
    console = output_console()
    try:
        connection = connect(location, create=True)
    except DatabaseError as exc:
        if "corrupted" not in exc.problem and "no readable schema" not in exc.problem:
            raise  # NOTE: a newer AgentBench's database is refused, never moved or rewritten
        moved = move_aside(location)
        if moved is None:
            raise
        console.print(Text(f"moved the unusable database aside: {moved}"))
        connection = connect(location, create=True)
    index = ResultsIndex(connection)
    try:
        done = rebuild(index, results_dir)
    finally:
        index.close()
    console.print(Text(f"indexed {done.runs} run(s), {done.trials} trial(s) from {results_dir} "
                       f"into {location.shown}"))
    if done.removed:
        console.print(Text(f"dropped {len(done.removed)} run(s) whose folder is gone: "
                           + ", ".join(done.removed)))
    for run_id, why in done.skipped:
        console.print(Text(f"skipped {run_id}: {why}", style="yellow"))
