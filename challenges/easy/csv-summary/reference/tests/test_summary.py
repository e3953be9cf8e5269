"""Unit tests for csv_summary.summary."""

import pytest

from csv_summary import summarize
from csv_summary.summary import clean_cell, infer_type


@pytest.mark.parametrize(
    ("raw", "expected"),
    [(None, None), ("", None), ("   ", None), (" x ", "x"), ("0", "0")],
)
def test_clean_cell(raw, expected):
    assert clean_cell(raw) == expected


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], "text"),
        (["1", "-2", "+03"], "int"),
        (["1", "2.5"], "float"),
        ([".5", "1e3", "2E-2", "7."], "float"),
        (["1", "abc"], "text"),
        (["nan"], "text"),
        (["1_000"], "text"),
        (["1.2.3"], "text"),
    ],
)
def test_infer_type(values, expected):
    assert infer_type(values) == expected


def test_int_column_statistics():
    rows = [{"n": "4"}, {"n": "1"}, {"n": "3"}]
    assert summarize(rows) == {
        "rows": 3,
        "columns": {
            "n": {"type": "int", "count": 3, "missing": 0, "min": 1, "max": 4,
                  "mean": 2.6667, "median": 3.0},
        },
    }


def test_int_min_max_are_ints():
    stats = summarize([{"n": "10"}, {"n": "-2"}])["columns"]["n"]
    assert stats["min"] == -2 and isinstance(stats["min"], int)
    assert stats["max"] == 10 and isinstance(stats["max"], int)
    assert stats["median"] == 4.0


def test_float_column_statistics():
    rows = [{"x": "1.5"}, {"x": "2"}, {"x": ""}, {"x": "0.25"}]
    stats = summarize(rows)["columns"]["x"]
    assert stats == {"type": "float", "count": 3, "missing": 1, "min": 0.25, "max": 2.0,
                     "mean": 1.25, "median": 1.5}
    assert isinstance(stats["max"], float)


def test_text_column_statistics_and_tie_break():
    rows = [{"c": "red"}, {"c": "blue"}, {"c": "blue"}, {"c": "red"}, {"c": " "}]
    assert summarize(rows)["columns"]["c"] == {
        "type": "text", "count": 4, "missing": 1, "distinct": 2,
        "most_common": "red", "most_common_count": 2,
    }


def test_text_is_case_sensitive_and_stripped():
    rows = [{"c": "A"}, {"c": " a "}, {"c": "a"}]
    stats = summarize(rows)["columns"]["c"]
    assert stats["distinct"] == 2
    assert stats["most_common"] == "a"


def test_all_missing_column_is_text():
    stats = summarize([{"c": ""}, {"c": None}])["columns"]["c"]
    assert stats == {"type": "text", "count": 0, "missing": 2, "distinct": 0,
                     "most_common": None, "most_common_count": 0}


def test_columns_in_order_of_first_appearance_and_absent_keys_missing():
    rows = [{"b": "1"}, {"a": "x", "b": "2"}]
    summary = summarize(rows)
    assert list(summary["columns"]) == ["b", "a"]
    assert summary["columns"]["a"]["missing"] == 1


def test_explicit_columns_select_and_order():
    rows = [{"a": "1", "b": "2", "c": "3"}]
    summary = summarize(rows, columns=["c", "a", "zzz"])
    assert list(summary["columns"]) == ["c", "a", "zzz"]
    assert summary["columns"]["zzz"]["missing"] == 1


def test_accepts_generator_and_empty_input():
    assert summarize(row for row in [{"a": "1"}])["rows"] == 1
    assert summarize([]) == {"rows": 0, "columns": {}}
