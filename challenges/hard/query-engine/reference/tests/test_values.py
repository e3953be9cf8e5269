"""Unit tests for value semantics."""

from __future__ import annotations

import pytest

from minisql import QueryError
from minisql import values


def test_sort_key_orders_null_numbers_strings() -> None:
    items = ["b", 2, None, 1.5, "a", True]
    assert sorted(items, key=values.sort_key) == [None, True, 1.5, 2, "a", "b"]


def test_compare_mixed_types() -> None:
    assert values.compare("<", 2, "a") is True
    assert values.compare("=", 1, "1") is False
    assert values.compare("=", 1, 1.0) is True
    assert values.compare(">", None, 1) is None


def test_like_escapes_regex_characters() -> None:
    assert values.like("a.c", "a.c") is True
    assert values.like("abc", "a.c") is False
    assert values.like("a\nb", "a%") is True
    assert values.like("ABC", "a%") is False
    assert values.like(None, "x") is None


def test_between_three_valued() -> None:
    assert values.between(10, None, 5) is False
    assert values.between(3, None, 5) is None


def test_aggregate_helpers() -> None:
    assert values.aggregate("SUM", [1, 2, None]) == 3
    assert values.aggregate("AVG", [1, 2]) == 1.5
    assert values.aggregate("COUNT", [None]) == 0
    assert values.aggregate("MIN", []) is None
    assert values.aggregate("COUNT", [1, 1.0, 2], distinct=True) == 2


def test_sum_of_single_string_is_an_error() -> None:
    with pytest.raises(QueryError):
        values.aggregate("SUM", ["x"])
