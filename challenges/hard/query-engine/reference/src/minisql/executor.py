"""Executor: run a :class:`~minisql.planner.Plan` over the in-memory tables."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .compiler import Evaluator, Row
from .planner import Grouping, OrderKey, Plan, Source
from .values import aggregate, is_true, sort_key


def execute_plan(plan: Plan) -> list[Row]:
    """Evaluate the pipeline: FROM/JOIN, WHERE, GROUP BY, HAVING, SELECT, ORDER BY, DISTINCT, OFFSET/LIMIT."""
    rows = _filter(_scan(plan.sources), plan.where)
    if plan.grouping is not None:
        rows = _group(rows, plan.grouping)
    rows = _filter(rows, plan.having)
    produced = [(row, tuple(evaluate(row) for evaluate in plan.projection)) for row in rows]
    output = [out for _, out in _sort(produced, plan.order)]
    if plan.distinct:
        output = _distinct(output)
    return _slice(output, plan.offset, plan.limit)


def _scan(sources: tuple[Source, ...]) -> list[Row]:
    """Rows of the FROM table joined (nested loops, in table order) with each JOIN table."""
    if not sources:
        return [()]
    rows = list(sources[0].table.rows)
    for source in sources[1:]:
        rows = _join(rows, source)
    return rows


def _join(left_rows: list[Row], source: Source) -> list[Row]:
    assert source.condition is not None
    padding = (None,) * source.table.width
    joined: list[Row] = []
    for left in left_rows:
        matches = [left + right for right in source.table.rows if is_true(source.condition(left + right))]
        if not matches and source.kind == "LEFT":
            matches = [left + padding]
        joined.extend(matches)
    return joined


def _filter(rows: list[Row], condition: Evaluator | None) -> list[Row]:
    if condition is None:
        return rows
    return [row for row in rows if is_true(condition(row))]


def _group(rows: list[Row], grouping: Grouping) -> list[Row]:
    """One row per group: key values followed by aggregate values.

    Without GROUP BY keys the whole input (even when empty) is one group.
    """
    buckets = _buckets(rows, grouping.keys) if grouping.keys else [((), rows)]
    return [key + _aggregates(members, grouping) for key, members in buckets]


def _buckets(rows: list[Row], keys: tuple[Evaluator, ...]) -> list[tuple[Row, list[Row]]]:
    """Rows partitioned by their key values, groups in order of first appearance."""
    groups: dict[tuple[Any, ...], tuple[Row, list[Row]]] = {}
    for row in rows:
        key = tuple(evaluate(row) for evaluate in keys)
        groups.setdefault(_row_key(key), (key, []))[1].append(row)
    return list(groups.values())


def _aggregates(members: list[Row], grouping: Grouping) -> Row:
    return tuple(
        aggregate(spec.name, (spec.argument(row) for row in members), spec.distinct)
        for spec in grouping.aggregates
    )


def _row_key(values: Iterable[Any]) -> tuple[Any, ...]:
    """A hashable key under which SQL-equal rows (NULLs included) coincide."""
    return tuple(sort_key(value) for value in values)


def _sort(produced: list[tuple[Row, Row]], order: tuple[tuple[OrderKey, bool], ...]) -> list[tuple[Row, Row]]:
    """Stable multi-key sort; NULL is the smallest value (first ASC, last DESC)."""
    if not order:
        return produced
    keyed = [(tuple(key(row, out) for key, _ in order), (row, out)) for row, out in produced]
    for position in reversed(range(len(order))):
        keyed.sort(key=lambda item: sort_key(item[0][position]), reverse=order[position][1])
    return [pair for _, pair in keyed]


def _distinct(rows: list[Row]) -> list[Row]:
    unique: dict[tuple[Any, ...], Row] = {}
    for row in rows:
        unique.setdefault(_row_key(row), row)
    return list(unique.values())


def _slice(rows: list[Row], offset: int | None, limit: int | None) -> list[Row]:
    start = offset or 0
    return rows[start:] if limit is None else rows[start:start + limit]
