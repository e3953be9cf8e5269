"""`agentbench export RUN_ID --format csv|jsonl|parquet`: a run's trials as a table for other tools.

CSV and Parquet hold one row per trial with the indexed columns (status, score and components,
measurements, version, model, tokens, cost, times, folder); JSON Lines holds those columns and the
full trial record. Parquet needs pyarrow (`pip install "agentbench[parquet]"`), which is not a
dependency of AgentBench. CSV cells that a spreadsheet would run as a formula are made inert.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import click

from agentbench.cli.db import database_options, open_database
from agentbench.errors import UsageError

FORMATS = ("csv", "jsonl", "parquet")
"""Export formats."""


@click.command(name="export")
@click.argument("run_id")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="csv", show_default=True,
              help="csv, jsonl (with each full record) or parquet (needs pyarrow).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="File to write (default: standard output; parquet needs a file).")
@database_options
def command(run_id: str, fmt: str, output: Path | None, results_dir: Path, db: str | None) -> None:
    """Export a run's trials as CSV, JSON Lines or Parquet.

    RUN_ID may be a unique prefix of a run ID, or `latest`.

    Example: agentbench export 20261203-101500-reference-ab12 --format parquet -o run.parquet
    """
    from agentbench.store.views import flat_columns, run_row, run_trial_records, trial_rows

    if fmt == "parquet" and output is None:
        raise UsageError("--format parquet writes a binary file", "pass --output FILE.parquet")
    connection = open_database(results_dir, db)
    try:
        run_id = run_row(connection, run_id).run_id  # a unique prefix or `latest` too
        rows = trial_rows(connection, run_id)
        records = run_trial_records(connection, run_id) if fmt == "jsonl" else []
    finally:
        connection.close()
    if fmt == "parquet":
        assert output is not None
        write_parquet(output, flat_columns(), rows)
    else:
        text = to_csv(flat_columns(), rows) if fmt == "csv" else to_jsonl(rows, records)
        _emit(text, output)
    if output is not None:
        click.echo(f"wrote {output} ({len(rows)} trials)", err=True)


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    from agentbench.store import write_atomic

    write_atomic(output, text)


def to_csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    """One CSV row per trial, a header first."""
    from agentbench.report.csv import inert

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if row[c] is None else inert(row[c]) if isinstance(row[c], str)
                         else repr(row[c]) if isinstance(row[c], float) else row[c] for c in columns])
    return out.getvalue()


def to_jsonl(rows: list[dict[str, Any]], records: list[Any]) -> str:
    """One JSON object per line and trial: the indexed columns and the full `record`."""
    from agentbench.records import to_jsonable

    lines = [json.dumps({**row, "record": to_jsonable(record)}, ensure_ascii=False)
             for row, record in zip(rows, records, strict=True)]
    return "".join(line + "\n" for line in lines)


def write_parquet(path: Path, columns: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    """A Parquet file of the rows (through a temporary file and a rename)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise UsageError("--format parquet needs pyarrow, which is not installed",
                         'pip install "agentbench[parquet]" (or pyarrow), or use --format csv') from None
    import os
    import tempfile

    table = pa.table({c: [row[c] for row in rows] for c in columns})
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
