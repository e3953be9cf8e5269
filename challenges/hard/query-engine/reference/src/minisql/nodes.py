"""Abstract syntax tree of a SELECT statement.

Expression nodes are frozen dataclasses, so structurally equal expressions compare equal and can be
used as dictionary keys (the planner relies on this to match GROUP BY expressions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any, Union


@dataclass(frozen=True)
class Literal:
    """A constant: int, float, str, bool or None (NULL)."""

    value: Any


@dataclass(frozen=True)
class Column:
    """An unresolved column reference ``name`` or ``table.name``."""

    table: str | None
    name: str


@dataclass(frozen=True)
class Slot:
    """A resolved reference to position ``index`` of the row an expression is evaluated on."""

    index: int
    name: str = field(default="", compare=False)


@dataclass(frozen=True)
class Unary:
    """``-x``, ``+x`` or ``NOT x``."""

    op: str
    operand: Expr


@dataclass(frozen=True)
class Binary:
    """Arithmetic (``+ - * / %``), comparison (``= <> < <= > >=``) or logic (``AND OR``)."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class IsNull:
    """``x IS NULL`` (``IS NOT NULL`` is parsed as ``NOT (x IS NULL)``)."""

    operand: Expr


@dataclass(frozen=True)
class InList:
    """``x IN (a, b, ...)``."""

    operand: Expr
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Between:
    """``x BETWEEN low AND high`` (inclusive)."""

    operand: Expr
    low: Expr
    high: Expr


@dataclass(frozen=True)
class Like:
    """``x LIKE pattern``."""

    operand: Expr
    pattern: Expr


@dataclass(frozen=True)
class Aggregate:
    """A function call ``NAME(arg)``, ``NAME(DISTINCT arg)`` or ``NAME(*)`` (``arg`` is None).

    ``name`` is upper-cased; the planner rejects names other than the five aggregates.
    """

    name: str
    arg: Expr | None
    distinct: bool = False


Expr = Union[Literal, Column, Slot, Unary, Binary, IsNull, InList, Between, Like, Aggregate]


@dataclass(frozen=True)
class Star:
    """``*`` or ``table.*`` in the select list."""

    table: str | None = None


@dataclass(frozen=True)
class SelectItem:
    """One select-list entry; ``text`` is the expression's source text, ``alias`` its AS name."""

    expr: Expr | Star
    alias: str | None = None
    text: str = ""


@dataclass(frozen=True)
class TableRef:
    """A table in FROM or JOIN, optionally aliased."""

    name: str
    alias: str | None = None

    @property
    def binding(self) -> str:
        """The name used to qualify this table's columns."""
        return self.alias if self.alias is not None else self.name


@dataclass(frozen=True)
class Join:
    """``[INNER] JOIN table ON condition`` or ``LEFT [OUTER] JOIN table ON condition``."""

    kind: str
    table: TableRef
    condition: Expr


@dataclass(frozen=True)
class OrderItem:
    """One ORDER BY key."""

    expr: Expr
    descending: bool = False


@dataclass(frozen=True)
class Select:
    """A complete SELECT statement."""

    items: tuple[SelectItem, ...]
    distinct: bool = False
    source: TableRef | None = None
    joins: tuple[Join, ...] = ()
    where: Expr | None = None
    group_by: tuple[Expr, ...] = ()
    having: Expr | None = None
    order_by: tuple[OrderItem, ...] = ()
    limit: int | None = None
    offset: int | None = None


EXPR_TYPES = (Literal, Column, Slot, Unary, Binary, IsNull, InList, Between, Like, Aggregate)


def _is_expr(value: object) -> bool:
    return isinstance(value, EXPR_TYPES)


def children(node: Expr) -> Iterator[Expr]:
    """The direct sub-expressions of ``node``, in field order."""
    for item in fields(node):
        value = getattr(node, item.name)
        if isinstance(value, tuple):
            yield from value
        elif _is_expr(value):
            yield value


def map_children(node: Expr, transform: Callable[[Expr], Expr]) -> Expr:
    """A copy of ``node`` whose direct sub-expressions are replaced by ``transform(child)``."""
    changes: dict[str, Any] = {}
    for item in fields(node):
        value = getattr(node, item.name)
        if isinstance(value, tuple):
            changes[item.name] = tuple(transform(child) for child in value)
        elif _is_expr(value):
            changes[item.name] = transform(value)
    return replace(node, **changes)


def contains_aggregate(node: Expr) -> bool:
    """Whether an aggregate call occurs anywhere in ``node``."""
    return isinstance(node, Aggregate) or any(contains_aggregate(child) for child in children(node))
