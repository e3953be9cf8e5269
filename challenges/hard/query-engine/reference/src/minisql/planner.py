"""Planner: resolve names, validate the query and compile it into an executable :class:`Plan`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .catalog import Catalog, Table
from .compiler import Evaluator, Row, compile_expr
from .errors import QueryError
from .nodes import (
    Aggregate,
    Column,
    Expr,
    Literal,
    OrderItem,
    Select,
    SelectItem,
    Slot,
    Star,
    TableRef,
    contains_aggregate,
    map_children,
)
from .values import AGGREGATES

OrderKey = Callable[[Row, Row], Any]


@dataclass(frozen=True)
class Source:
    """One table of the FROM clause; ``kind`` is FROM, INNER or LEFT."""

    table: Table
    kind: str = "FROM"
    condition: Evaluator | None = None


@dataclass(frozen=True)
class AggregateSpec:
    """One aggregate computed per group; ``argument`` is evaluated on the source rows."""

    name: str
    argument: Evaluator
    distinct: bool


@dataclass(frozen=True)
class Grouping:
    """GROUP BY keys and the aggregates; a group row is ``key values + aggregate values``."""

    keys: tuple[Evaluator, ...]
    aggregates: tuple[AggregateSpec, ...]


@dataclass(frozen=True)
class Plan:
    """Everything the executor needs, in pipeline order."""

    columns: tuple[str, ...]
    sources: tuple[Source, ...]
    where: Evaluator | None
    grouping: Grouping | None
    having: Evaluator | None
    projection: tuple[Evaluator, ...]
    order: tuple[tuple[OrderKey, bool], ...]
    distinct: bool
    limit: int | None
    offset: int | None


# ---------------------------------------------------------------------- name resolution


@dataclass(frozen=True)
class Binding:
    """A table in scope: the name that qualifies it and where its columns start in a row."""

    name: str
    table: Table
    offset: int


class Scope:
    """The tables visible to an expression; a joined row is the concatenation of their rows."""

    def __init__(self) -> None:
        self.bindings: list[Binding] = []
        self.width = 0

    def add(self, ref: TableRef, table: Table) -> None:
        """Bring a table into scope under its alias (or its name)."""
        key = ref.binding.lower()
        if any(binding.name == key for binding in self.bindings):
            raise QueryError(f"table name {ref.binding!r} is used more than once; use an alias")
        self.bindings.append(Binding(key, table, self.width))
        self.width += table.width

    def lookup(self, name: str) -> Binding:
        """The binding called ``name`` (case-insensitive)."""
        for binding in self.bindings:
            if binding.name == name.lower():
                return binding
        raise QueryError(f"unknown table or alias {name!r}")

    def resolve(self, column: Column) -> Slot:
        """Resolve a column reference to its slot in the joined row."""
        bindings = [self.lookup(column.table)] if column.table is not None else self.bindings
        matches = [
            Slot(binding.offset + index, binding.table.columns[index])
            for binding in bindings
            if (index := binding.table.column_index(column.name)) is not None
        ]
        label = f"{column.table}.{column.name}" if column.table else column.name
        if not matches:
            raise QueryError(f"unknown column {label!r}")
        if len(matches) > 1:
            raise QueryError(f"ambiguous column {label!r}")
        return matches[0]

    def star(self, table: str | None) -> list[Slot]:
        """The slots ``*`` (all tables) or ``table.*`` expands to."""
        if not self.bindings:
            raise QueryError("'*' needs a FROM clause")
        bindings = [self.lookup(table)] if table is not None else self.bindings
        return [
            Slot(binding.offset + index, column)
            for binding in bindings
            for index, column in enumerate(binding.table.columns)
        ]


def bind(expr: Expr, scope: Scope, clause: str | None = None) -> Expr:
    """Resolve column references; ``clause`` names a context where aggregates are forbidden."""
    if isinstance(expr, Column):
        return scope.resolve(expr)
    if isinstance(expr, Aggregate):
        return _bind_aggregate(expr, scope, clause)
    return map_children(expr, lambda child: bind(child, scope, clause))


def _bind_aggregate(expr: Aggregate, scope: Scope, clause: str | None) -> Expr:
    if expr.name not in AGGREGATES:
        raise QueryError(f"unknown function {expr.name!r}")
    if expr.arg is None and expr.name != "COUNT":
        raise QueryError(f"{expr.name}(*) is not allowed; only COUNT(*)")
    if clause is not None:
        raise QueryError(f"aggregate function {expr.name} is not allowed in {clause}")
    if expr.arg is None:
        return expr
    return replace(expr, arg=bind(expr.arg, scope, "an aggregate argument"))


# ---------------------------------------------------------------------- grouping


class GroupLayout:
    """Rewrites post-aggregation expressions to read from group rows."""

    def __init__(self, keys: tuple[Expr, ...]) -> None:
        self.keys = keys
        self.key_slots: dict[Expr, int] = {}
        for index, key in enumerate(keys):
            self.key_slots.setdefault(key, index)
        self.aggregates: dict[Aggregate, int] = {}

    def rewrite(self, expr: Expr) -> Expr:
        """Replace GROUP BY expressions and aggregates by group-row slots."""
        if isinstance(expr, Literal):
            return expr
        if expr in self.key_slots:
            return Slot(self.key_slots[expr])
        if isinstance(expr, Aggregate):
            return Slot(self.aggregates.setdefault(expr, len(self.keys) + len(self.aggregates)))
        if isinstance(expr, Slot):
            raise QueryError(
                f"column {expr.name!r} must appear in GROUP BY or be used in an aggregate function"
            )
        return map_children(expr, self.rewrite)

    def grouping(self) -> Grouping:
        """Compile the keys and the aggregates that were referenced."""
        specs = tuple(
            AggregateSpec(agg.name, compile_expr(agg.arg or Literal(1)), agg.distinct)
            for agg in self.aggregates
        )
        return Grouping(tuple(compile_expr(key) for key in self.keys), specs)


# ---------------------------------------------------------------------- planning


@dataclass
class _Query:
    """Intermediate state while planning one SELECT."""

    select: Select
    scope: Scope
    outputs: list[tuple[Expr, str]]
    order: list[tuple[Expr | int, bool]]


def plan_query(select: Select, catalog: Catalog) -> Plan:
    """Validate ``select`` against ``catalog`` and build its plan."""
    scope = Scope()
    sources = _plan_sources(select, catalog, scope)
    where = _optional(select.where, lambda expr: compile_expr(bind(expr, scope, "WHERE")))
    outputs, aliases = _expand_items(select.items, scope)
    query = _Query(select, scope, outputs, _resolve_order(select.order_by, aliases, scope, len(outputs)))
    exprs, having, grouping = _aggregate(query)
    return Plan(
        columns=tuple(name for _, name in outputs),
        sources=sources,
        where=where,
        grouping=grouping,
        having=_optional(having, compile_expr),
        projection=tuple(compile_expr(expr) for expr in exprs[: len(outputs)]),
        order=_order_keys(query.order, exprs[len(outputs):]),
        distinct=select.distinct,
        limit=select.limit,
        offset=select.offset,
    )


def _optional(value: Any, build: Callable[[Any], Any]) -> Any:
    return None if value is None else build(value)


def _plan_sources(select: Select, catalog: Catalog, scope: Scope) -> tuple[Source, ...]:
    if select.source is None:
        return ()
    scope.add(select.source, catalog.get(select.source.name))
    sources = [Source(catalog.get(select.source.name))]
    for join in select.joins:
        table = catalog.get(join.table.name)
        scope.add(join.table, table)
        condition = compile_expr(bind(join.condition, scope, "ON"))
        sources.append(Source(table, join.kind, condition))
    return tuple(sources)


def _expand_items(items: Sequence[SelectItem], scope: Scope) -> tuple[list[tuple[Expr, str]], dict[str, int]]:
    """Bound output expressions with their column names, and output positions by alias."""
    outputs: list[tuple[Expr, str]] = []
    aliases: dict[str, int] = {}
    for item in items:
        if isinstance(item.expr, Star):
            outputs.extend((slot, slot.name) for slot in scope.star(item.expr.table))
            continue
        if item.alias is not None:
            aliases.setdefault(item.alias.lower(), len(outputs))
        outputs.append(_bind_item(item, scope))
    return outputs, aliases


def _bind_item(item: SelectItem, scope: Scope) -> tuple[Expr, str]:
    assert not isinstance(item.expr, Star)
    bound = bind(item.expr, scope)
    if item.alias is not None:
        return bound, item.alias
    if isinstance(item.expr, Column) and isinstance(bound, Slot):
        return bound, bound.name
    return bound, item.text


def _resolve_order(
    order_by: Sequence[OrderItem], aliases: dict[str, int], scope: Scope, width: int
) -> list[tuple[Expr | int, bool]]:
    """Each ORDER BY key becomes an output position (ordinal / alias) or a bound expression."""
    return [(_order_target(item.expr, aliases, scope, width), item.descending) for item in order_by]


def _order_target(expr: Expr, aliases: dict[str, int], scope: Scope, width: int) -> Expr | int:
    if isinstance(expr, Literal) and type(expr.value) is int:
        if not 1 <= expr.value <= width:
            raise QueryError(f"ORDER BY position {expr.value} is out of range")
        return expr.value - 1
    if isinstance(expr, Column) and expr.table is None and expr.name.lower() in aliases:
        return aliases[expr.name.lower()]
    return bind(expr, scope)


def _is_aggregate_query(select: Select, exprs: list[Expr]) -> bool:
    """GROUP BY, HAVING or an aggregate in the select list / ORDER BY make a query aggregate."""
    return bool(select.group_by) or select.having is not None or any(map(contains_aggregate, exprs))


def _aggregate(query: _Query) -> tuple[list[Expr], Expr | None, Grouping | None]:
    """Projection + ORDER BY expressions, HAVING and the grouping (None for plain queries)."""
    exprs = [expr for expr, _ in query.outputs]
    exprs += [target for target, _ in query.order if not isinstance(target, int)]
    select = query.select
    if not _is_aggregate_query(select, exprs):
        return exprs, None, None
    layout = GroupLayout(tuple(bind(expr, query.scope, "GROUP BY") for expr in select.group_by))
    having = _optional(select.having, lambda expr: layout.rewrite(bind(expr, query.scope)))
    return [layout.rewrite(expr) for expr in exprs], having, layout.grouping()


def _order_keys(order: list[tuple[Expr | int, bool]], exprs: list[Expr]) -> tuple[tuple[OrderKey, bool], ...]:
    pending = iter(exprs)
    keys: list[tuple[OrderKey, bool]] = []
    for target, descending in order:
        keys.append((_order_key(target if isinstance(target, int) else next(pending)), descending))
    return tuple(keys)


def _order_key(target: Expr | int) -> OrderKey:
    if isinstance(target, int):
        position = target
        return lambda row, out: out[position]
    evaluate = compile_expr(target)
    return lambda row, out: evaluate(row)
