"""Value semantics: NULL-aware arithmetic, comparison, three-valued logic, LIKE and aggregates."""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from .errors import QueryError

Value = Any


def is_number(value: Value) -> bool:
    """Whether ``value`` is numeric (int, float or bool)."""
    return isinstance(value, (int, float))


def sort_key(value: Value) -> tuple[int, Value]:
    """Total order used for comparisons, sorting, grouping and DISTINCT.

    NULL sorts before every number, and numbers sort before every string.
    """
    if value is None:
        return (0, 0)
    if is_number(value):
        return (1, value)
    return (2, value)


def _kind(value: Value) -> str:
    """A short type name for error messages."""
    return "text" if isinstance(value, str) else type(value).__name__


# ---------------------------------------------------------------------- arithmetic


def _both_int(left: Value, right: Value) -> bool:
    return isinstance(left, int) and isinstance(right, int)


def _divide(left: Value, right: Value) -> Value:
    """Integer division truncates toward zero; division by zero yields NULL."""
    if right == 0:
        return None
    if _both_int(left, right):
        quotient = abs(left) // abs(right)
        return quotient if (left >= 0) == (right >= 0) else -quotient
    return left / right


def _modulo(left: Value, right: Value) -> Value:
    """Remainder with the sign of the dividend; modulo by zero yields NULL."""
    if right == 0:
        return None
    if _both_int(left, right):
        return left - right * _divide(left, right)
    return math.fmod(left, right)


_ARITHMETIC: dict[str, Callable[[Value, Value], Value]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": _divide,
    "%": _modulo,
}


def arithmetic(op: str, left: Value, right: Value) -> Value:
    """Apply ``+ - * / %``; NULL if either operand is NULL; QueryError for non-numbers."""
    if left is None or right is None:
        return None
    if not (is_number(left) and is_number(right)):
        raise QueryError(f"cannot apply {op!r} to {_kind(left)} and {_kind(right)}")
    return _ARITHMETIC[op](left, right)


def negate(value: Value) -> Value:
    """Unary minus."""
    return arithmetic("-", 0, value)


def positive(value: Value) -> Value:
    """Unary plus (validates that the operand is numeric)."""
    return arithmetic("+", 0, value)


# ---------------------------------------------------------------------- comparison

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq,
    "<>": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def compare(op: str, left: Value, right: Value) -> bool | None:
    """Compare two values; NULL if either is NULL."""
    if left is None or right is None:
        return None
    return _COMPARE[op](sort_key(left), sort_key(right))


def in_list(value: Value, items: Iterable[Value]) -> bool | None:
    """``value IN (items)`` with SQL NULL semantics."""
    if value is None:
        return None
    saw_null = False
    for item in items:
        if item is None:
            saw_null = True
        elif sort_key(item) == sort_key(value):
            return True
    return None if saw_null else False


def between(value: Value, low: Value, high: Value) -> bool | None:
    """``value BETWEEN low AND high`` == ``value >= low AND value <= high``."""
    return logical_and(compare(">=", value, low), compare("<=", value, high))


@lru_cache(maxsize=256)
def _like_regex(pattern: str) -> re.Pattern[str]:
    parts = (".*" if char == "%" else "." if char == "_" else re.escape(char) for char in pattern)
    return re.compile("".join(parts), re.DOTALL)


def like(value: Value, pattern: Value) -> bool | None:
    """Case-sensitive LIKE: ``%`` matches any sequence, ``_`` exactly one character."""
    if value is None or pattern is None:
        return None
    if not (isinstance(value, str) and isinstance(pattern, str)):
        raise QueryError(f"LIKE needs text operands, got {_kind(value)} and {_kind(pattern)}")
    return _like_regex(pattern).fullmatch(value) is not None


# ---------------------------------------------------------------------- three-valued logic


def truth(value: Value) -> bool | None:
    """Interpret a value as a condition: TRUE, FALSE or NULL (unknown)."""
    if value is None or isinstance(value, bool):
        return value
    raise QueryError(f"expected a boolean condition, got {_kind(value)} {value!r}")


def logical_and(left: Value, right: Value) -> bool | None:
    """SQL AND: FALSE wins over NULL, NULL wins over TRUE."""
    a, b = truth(left), truth(right)
    if a is False or b is False:
        return False
    return None if a is None or b is None else True


def logical_or(left: Value, right: Value) -> bool | None:
    """SQL OR: TRUE wins over NULL, NULL wins over FALSE."""
    a, b = truth(left), truth(right)
    if a is True or b is True:
        return True
    return None if a is None or b is None else False


def logical_not(value: Value) -> bool | None:
    """SQL NOT: NOT NULL is NULL."""
    a = truth(value)
    return None if a is None else not a


def is_true(value: Value) -> bool:
    """Whether a WHERE/HAVING/ON condition keeps the row (only TRUE does)."""
    return truth(value) is True


# ---------------------------------------------------------------------- aggregates


def _sum(values: list[Value]) -> Value:
    total: Value = values[0]
    for value in values[1:]:
        total = arithmetic("+", total, value)
    return positive(total)


def _avg(values: list[Value]) -> Value:
    return float(_sum(values)) / len(values)


def _min(values: list[Value]) -> Value:
    return min(values, key=sort_key)


def _max(values: list[Value]) -> Value:
    return max(values, key=sort_key)


AGGREGATES: dict[str, Callable[[list[Value]], Value]] = {
    "COUNT": len,
    "SUM": _sum,
    "AVG": _avg,
    "MIN": _min,
    "MAX": _max,
}


def distinct_values(values: Iterable[Value]) -> list[Value]:
    """Values with duplicates (by SQL equality) removed, first occurrence kept."""
    seen: dict[tuple[int, Value], Value] = {}
    for value in values:
        seen.setdefault(sort_key(value), value)
    return list(seen.values())


def aggregate(name: str, values: Iterable[Value], distinct: bool = False) -> Value:
    """Apply aggregate ``name`` to the non-NULL ``values`` (COUNT of nothing is 0, others NULL)."""
    present = [value for value in values if value is not None]
    if distinct:
        present = distinct_values(present)
    if not present and name != "COUNT":
        return None
    return AGGREGATES[name](present)
