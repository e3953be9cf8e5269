"""Column type inference and per-column statistics for CSV-like rows."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from statistics import fmean, median
from typing import Any

INT_PATTERN = re.compile(r"[+-]?[0-9]+")
FLOAT_PATTERN = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
DECIMALS = 4

Summary = dict[str, Any]


def clean_cell(value: str | None) -> str | None:
    """Return the stripped cell value, or ``None`` when the cell is missing."""
    if value is None:
        return None
    return value.strip() or None


def infer_type(values: Sequence[str]) -> str:
    """Infer ``"int"``, ``"float"`` or ``"text"`` from a column's non-missing values."""
    if not values:
        return "text"
    if all(INT_PATTERN.fullmatch(value) for value in values):
        return "int"
    if all(FLOAT_PATTERN.fullmatch(value) for value in values):
        return "float"
    return "text"


def collect_cells(
    rows: Iterable[Mapping[str, str | None]], columns: Sequence[str] | None
) -> tuple[int, dict[str, list[str]]]:
    """Consume ``rows`` once; return the row count and the non-missing values per column."""
    cells: dict[str, list[str]] = {name: [] for name in columns or ()}
    fixed = columns is not None
    row_count = 0
    for row in rows:
        row_count += 1
        for name, raw in row.items():
            if fixed and name not in cells:
                continue
            value = clean_cell(raw)
            bucket = cells.setdefault(name, [])
            if value is not None:
                bucket.append(value)
    return row_count, cells


def numeric_stats(kind: str, values: Sequence[str], missing: int) -> Summary:
    """Statistics for an ``int`` or ``float`` column (``values`` is non-empty)."""
    numbers: list[int] | list[float] = (
        [int(value) for value in values] if kind == "int" else [float(value) for value in values]
    )
    return {
        "type": kind,
        "count": len(numbers),
        "missing": missing,
        "min": min(numbers),
        "max": max(numbers),
        "mean": round(fmean(numbers), DECIMALS),
        "median": round(float(median(numbers)), DECIMALS),
    }


def text_stats(values: Sequence[str], missing: int) -> Summary:
    """Statistics for a ``text`` column; ties for most common go to the first seen value."""
    counts = Counter(values)
    most_common, most_common_count = counts.most_common(1)[0] if counts else (None, 0)
    return {
        "type": "text",
        "count": len(values),
        "missing": missing,
        "distinct": len(counts),
        "most_common": most_common,
        "most_common_count": most_common_count,
    }


def column_stats(values: Sequence[str], missing: int) -> Summary:
    """Dispatch to the statistics matching the column's inferred type."""
    kind = infer_type(values)
    if kind == "text":
        return text_stats(values, missing)
    return numeric_stats(kind, values, missing)


def summarize(
    rows: Iterable[Mapping[str, str | None]], *, columns: Sequence[str] | None = None
) -> Summary:
    """Summarise ``rows`` (mappings of column name to cell text, e.g. from ``csv.DictReader``).

    Returns ``{"rows": <row count>, "columns": {<name>: <stats>, ...}}``. Without ``columns``
    every column seen is summarised, in order of first appearance; with ``columns`` exactly
    those columns are summarised in the given order.
    """
    row_count, cells = collect_cells(rows, columns)
    return {
        "rows": row_count,
        "columns": {
            name: column_stats(values, row_count - len(values)) for name, values in cells.items()
        },
    }
