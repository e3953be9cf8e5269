"""Command-line interface: ``python -m csv_summary FILE [--columns a,b] [--format table|json]``."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from typing import Any

from csv_summary.summary import Summary, summarize

EXIT_OK = 0
EXIT_ERROR = 2
NUMERIC_KEYS = ("count", "missing", "min", "max", "mean", "median")
TEXT_KEYS = ("count", "missing", "distinct", "most_common", "most_common_count")


class CliError(Exception):
    """A user-facing error reported on stderr with exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    """Create the argument parser."""
    parser = argparse.ArgumentParser(prog="csv_summary", description="Summarise a CSV file.")
    parser.add_argument("file", help="path of the CSV file (UTF-8, first row is the header)")
    parser.add_argument("--columns", help="comma-separated column names to summarise")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    return parser


def parse_columns(text: str | None) -> list[str] | None:
    """Split a ``--columns`` value into stripped column names."""
    if text is None:
        return None
    return [name.strip() for name in text.split(",")]


def select_columns(header: Sequence[str], requested: list[str] | None) -> list[str]:
    """Return the columns to summarise, validating requested names against the header."""
    if requested is None:
        return list(header)
    for name in requested:
        if name not in header:
            raise CliError(f"unknown column: {name}")
    return list(dict.fromkeys(requested))


def summarize_file(path: str, requested: list[str] | None) -> Summary:
    """Read and summarise the CSV file at ``path``."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            if reader.fieldnames is None:
                raise CliError(f"{path} is empty (no header row)")
            columns = select_columns(reader.fieldnames, requested)
            return summarize(reader, columns=columns)
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, csv.Error) as exc:
        raise CliError(f"cannot parse {path}: {exc}") from exc


def format_value(value: Any) -> str:
    """Format one statistic for the table output."""
    if value is None or isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def render_table(summary: Summary) -> str:
    """Render the plain-text report: a ``rows:`` line, then one line per column."""
    lines = [f"rows: {summary['rows']}"]
    for name, stats in summary["columns"].items():
        keys = TEXT_KEYS if stats["type"] == "text" else NUMERIC_KEYS
        pairs = " ".join(f"{key}={format_value(stats[key])}" for key in keys)
        lines.append(f"{name} ({stats['type']}): {pairs}")
    return "\n".join(lines)


def render_json(summary: Summary) -> str:
    """Render the summary as an indented JSON document."""
    return json.dumps(summary, indent=2, ensure_ascii=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return the process exit code."""
    args = build_parser().parse_args(argv)
    try:
        summary = summarize_file(args.file, parse_columns(args.columns))
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    render = render_json if args.format == "json" else render_table
    print(render(summary))
    return EXIT_OK
