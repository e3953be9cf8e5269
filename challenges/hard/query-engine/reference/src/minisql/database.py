"""The public entry point: :class:`Database` and :class:`Result`."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .catalog import Catalog, make_table
from .csvload import read_csv
from .executor import execute_plan
from .parser import parse
from .planner import plan_query


@dataclass(frozen=True)
class Result:
    """A query result: output column names and the rows (tuples)."""

    columns: list[str]
    rows: list[tuple[Any, ...]]


class Database:
    """A set of named in-memory tables that can be queried with SQL SELECT statements."""

    def __init__(self) -> None:
        self._catalog = Catalog()

    def create_table(self, name: str, columns: Sequence[str], rows: Iterable[Sequence[Any]] = ()) -> None:
        """Create table ``name``; values must be None, bool, int, float or str."""
        self._catalog.add(make_table(name, columns, rows))

    def load_csv(self, name: str, path: str | os.PathLike[str]) -> None:
        """Create table ``name`` from a CSV file with a header row (column types are inferred)."""
        columns, rows = read_csv(path)
        self.create_table(name, columns, rows)

    def tables(self) -> list[str]:
        """Names of the tables, in creation order."""
        return self._catalog.names()

    def query(self, sql: str) -> Result:
        """Run a SELECT statement and return its column names and rows."""
        plan = plan_query(parse(sql), self._catalog)
        return Result(list(plan.columns), execute_plan(plan))

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        """Run a SELECT statement and return its rows."""
        return self.query(sql).rows
