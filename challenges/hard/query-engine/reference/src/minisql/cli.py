"""Command line interface: ``python -m minisql --table name=path.csv ... "SQL"``."""

from __future__ import annotations

import argparse
import csv
import sys
from typing import Any, TextIO

from .database import Database, Result
from .errors import MiniSQLError


def _table_spec(text: str) -> tuple[str, str]:
    name, sep, path = text.partition("=")
    if not (sep and name and path):
        raise argparse.ArgumentTypeError(f"expected NAME=PATH, got {text!r}")
    return name, path


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the CLI."""
    parser = argparse.ArgumentParser(prog="minisql", description="Run a SQL query over CSV files.")
    parser.add_argument(
        "--table", action="append", default=[], type=_table_spec, metavar="NAME=PATH",
        help="load the CSV file PATH as table NAME (repeatable)",
    )
    parser.add_argument("sql", help="the SELECT statement to run")
    return parser


def format_value(value: Any) -> str:
    """CSV text of one value: NULL -> empty, booleans -> true/false, others -> str()."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def write_result(result: Result, out: TextIO) -> None:
    """Write the header and the rows as CSV."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(result.columns)
    writer.writerows([format_value(value) for value in row] for row in result.rows)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 query/load error; argparse exits with 2)."""
    args = build_parser().parse_args(argv)
    database = Database()
    try:
        for name, path in args.table:
            database.load_csv(name, path)
        result = database.query(args.sql)
    except (MiniSQLError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    write_result(result, sys.stdout)
    return 0
