"""In-memory tables and the catalog that holds them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import QueryError

_ALLOWED_TYPES = (type(None), bool, int, float, str)


@dataclass(frozen=True)
class Table:
    """A named table: column names (definition order) and rows (tuples)."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    _index: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for position, column in enumerate(self.columns):
            self._index[column.lower()] = position

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.columns)

    def column_index(self, name: str) -> int | None:
        """Position of column ``name`` (case-insensitive), or None."""
        return self._index.get(name.lower())


def make_table(name: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> Table:
    """Validate the definition and build a :class:`Table` (rows are copied into tuples)."""
    columns = tuple(columns)
    _check_columns(name, columns)
    checked = tuple(_check_row(name, len(columns), row) for row in rows)
    return Table(name, columns, checked)


def _check_columns(table: str, columns: tuple[str, ...]) -> None:
    if not columns:
        raise QueryError(f"table {table!r} needs at least one column")
    lowered = [str(column).lower() for column in columns]
    if "" in lowered:
        raise QueryError(f"table {table!r} has an empty column name")
    if len(set(lowered)) != len(lowered):
        raise QueryError(f"table {table!r} has duplicate column names")


def _check_row(table: str, width: int, row: Sequence[Any]) -> tuple[Any, ...]:
    values = tuple(row)
    if len(values) != width:
        raise QueryError(f"row {values!r} of table {table!r} has {len(values)} values, expected {width}")
    for value in values:
        if not isinstance(value, _ALLOWED_TYPES):
            raise QueryError(f"unsupported value {value!r} in table {table!r}")
    return values


class Catalog:
    """Tables by case-insensitive name."""

    def __init__(self) -> None:
        self._tables: dict[str, Table] = {}

    def add(self, table: Table) -> None:
        """Register a table; QueryError if the name is taken."""
        key = table.name.lower()
        if key in self._tables:
            raise QueryError(f"table {table.name!r} already exists")
        self._tables[key] = table

    def get(self, name: str) -> Table:
        """Look a table up; QueryError if it does not exist."""
        table = self._tables.get(name.lower())
        if table is None:
            raise QueryError(f"unknown table {name!r}")
        return table

    def names(self) -> list[str]:
        """Names of all tables, in creation order."""
        return [table.name for table in self._tables.values()]
