"""Compile bound expressions into Python closures evaluated on a row tuple."""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import Any

from . import values
from .nodes import Between, Binary, Expr, InList, IsNull, Like, Literal, Slot, Unary

Row = tuple[Any, ...]
Evaluator = Callable[[Row], Any]

_UNARY: dict[str, Callable[[Any], Any]] = {
    "NOT": values.logical_not,
    "-": values.negate,
    "+": values.positive,
}

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "AND": values.logical_and,
    "OR": values.logical_or,
    **{op: partial(values.compare, op) for op in ("=", "<>", "<", "<=", ">", ">=")},
    **{op: partial(values.arithmetic, op) for op in ("+", "-", "*", "/", "%")},
}


def compile_expr(expr: Expr) -> Evaluator:
    """Turn a bound expression (columns already resolved to slots) into an evaluator."""
    compiler = _COMPILERS.get(type(expr))
    if compiler is None:
        raise TypeError(f"cannot compile unbound expression {expr!r}")
    return compiler(expr)


def _literal(expr: Literal) -> Evaluator:
    value = expr.value
    return lambda row: value


def _slot(expr: Slot) -> Evaluator:
    return operator.itemgetter(expr.index)


def _unary(expr: Unary) -> Evaluator:
    operand, apply = compile_expr(expr.operand), _UNARY[expr.op]
    return lambda row: apply(operand(row))


def _binary(expr: Binary) -> Evaluator:
    left, right, apply = compile_expr(expr.left), compile_expr(expr.right), _BINARY[expr.op]
    return lambda row: apply(left(row), right(row))


def _is_null(expr: IsNull) -> Evaluator:
    operand = compile_expr(expr.operand)
    return lambda row: operand(row) is None


def _in_list(expr: InList) -> Evaluator:
    operand = compile_expr(expr.operand)
    items = [compile_expr(item) for item in expr.items]
    return lambda row: values.in_list(operand(row), [item(row) for item in items])


def _between(expr: Between) -> Evaluator:
    operand, low, high = (compile_expr(part) for part in (expr.operand, expr.low, expr.high))
    return lambda row: values.between(operand(row), low(row), high(row))


def _like(expr: Like) -> Evaluator:
    operand, pattern = compile_expr(expr.operand), compile_expr(expr.pattern)
    return lambda row: values.like(operand(row), pattern(row))


_COMPILERS: dict[type, Callable[[Any], Evaluator]] = {
    Literal: _literal,
    Slot: _slot,
    Unary: _unary,
    Binary: _binary,
    IsNull: _is_null,
    InList: _in_list,
    Between: _between,
    Like: _like,
}
