"""Load a CSV file into column names and typed rows."""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Callable
from typing import Any

from .errors import QueryError

_INTEGER = re.compile(r"[+-]?[0-9]+")
_REAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def read_csv(path: str | os.PathLike[str]) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Read a CSV file: header row = column names; every column's type is inferred.

    Raises OSError if the file cannot be opened and QueryError if it is not valid UTF-8 CSV,
    has no header row or has a record with the wrong number of fields.
    """
    records = _read_records(path)
    if not records:
        raise QueryError(f"CSV file {os.fspath(path)!r} has no header row")
    header, body = records[0], records[1:]
    for number, record in enumerate(body, start=2):
        if len(record) != len(header):
            raise QueryError(f"CSV record {number} has {len(record)} fields, expected {len(header)}")
    columns = [convert_column(list(values)) for values in zip(*body)] if body else []
    return header, list(zip(*columns)) if columns else []


def _read_records(path: str | os.PathLike[str]) -> list[list[str]]:
    """All non-empty CSV records of the file."""
    with open(path, newline="", encoding="utf-8-sig") as handle:
        try:
            return [record for record in csv.reader(handle) if record]
        except (csv.Error, UnicodeDecodeError) as exc:
            raise QueryError(f"cannot read CSV file {os.fspath(path)!r}: {exc}") from exc


def _column_converter(values: list[str]) -> Callable[[str], Any]:
    present = [value for value in values if value != ""]
    if all(_INTEGER.fullmatch(value) for value in present):
        return int
    if all(_REAL.fullmatch(value) for value in present):
        return float
    return str


def convert_column(values: list[str]) -> list[Any]:
    """Type one column: all integers -> int, else all reals -> float, else str; "" -> None."""
    convert = _column_converter(values)
    return [None if value == "" else convert(value) for value in values]
