"""Acceptance tests for csv_summary.summarize."""

import pytest


def summarize(rows, **kwargs):
    from csv_summary import summarize as impl

    return impl(rows, **kwargs)


def col(rows, name, **kwargs):
    return summarize(rows, **kwargs)["columns"][name]


def test_int_column_exact():
    rows = [{"n": "4"}, {"n": "1"}, {"n": "3"}]
    assert summarize(rows) == {
        "rows": 3,
        "columns": {
            "n": {"type": "int", "count": 3, "missing": 0, "min": 1, "max": 4,
                  "mean": 2.6667, "median": 3.0},
        },
    }


def test_int_min_max_are_ints_and_mean_median_are_floats():
    stats = col([{"n": "10"}, {"n": "-2"}, {"n": "6"}], "n")
    assert type(stats["min"]) is int and stats["min"] == -2
    assert type(stats["max"]) is int and stats["max"] == 10
    assert type(stats["mean"]) is float and stats["mean"] == 4.6667
    assert type(stats["median"]) is float and stats["median"] == 6.0


def test_int_signs_and_leading_zeros():
    stats = col([{"n": "+5"}, {"n": "007"}, {"n": "-3"}], "n")
    assert stats["type"] == "int"
    assert (stats["min"], stats["max"]) == (-3, 7)
    assert stats["mean"] == 3.0


def test_median_even_count():
    assert col([{"n": "10"}, {"n": "2"}, {"n": "7"}, {"n": "1"}], "n")["median"] == 4.5
    assert col([{"n": "1"}, {"n": "4"}], "n")["median"] == 2.5


def test_float_column_exact():
    rows = [{"x": "1.5"}, {"x": "2"}, {"x": ""}, {"x": "0.25"}]
    stats = col(rows, "x")
    assert stats == {"type": "float", "count": 3, "missing": 1, "min": 0.25, "max": 2.0,
                     "mean": 1.25, "median": 1.5}
    assert type(stats["max"]) is float


@pytest.mark.parametrize("value", [".5", "7.", "1e3", "-2.5E-1", "+3.0", "12"])
def test_float_literal_forms(value):
    stats = col([{"x": "0.5"}, {"x": value}], "x")
    assert stats["type"] == "float"
    assert stats["max"] == max(0.5, float(value))


def test_mean_rounded_to_four_decimals():
    stats = col([{"x": "0.1"}, {"x": "0.2"}, {"x": "0.3"}, {"x": "1"}, {"x": "1"}, {"x": "1"}], "x")
    assert stats["mean"] == 0.6
    stats = col([{"x": "1"}, {"x": "1"}, {"x": "2.5"}], "x")
    assert stats["mean"] == 1.5
    stats = col([{"x": "0.12344"}, {"x": "0.12346"}, {"x": "1.0"}], "x")
    assert stats["mean"] == 0.4156
    assert stats["median"] == 0.1235


@pytest.mark.parametrize("value", ["nan", "inf", "1_000", "1,5", "1.2.3", "0x10", "abc", "e5"])
def test_non_numeric_literals_make_text(value):
    assert col([{"x": "1"}, {"x": value}], "x")["type"] == "text"


def test_missing_cells():
    rows = [{"n": "1"}, {"n": ""}, {"n": "   "}, {"n": None}, {}, {"n": " 5 "}]
    stats = col(rows, "n")
    assert stats["type"] == "int"
    assert (stats["count"], stats["missing"]) == (2, 4)
    assert (stats["min"], stats["max"]) == (1, 5)


def test_text_column_exact():
    rows = [{"c": "red"}, {"c": "blue"}, {"c": ""}, {"c": "blue"}]
    assert col(rows, "c") == {"type": "text", "count": 3, "missing": 1, "distinct": 2,
                              "most_common": "blue", "most_common_count": 2}


def test_text_tie_goes_to_first_occurrence():
    rows = [{"c": v} for v in ["b", "a", "c", "a", "b"]]
    stats = col(rows, "c")
    assert stats["most_common"] == "b"
    assert stats["most_common_count"] == 2


def test_text_case_sensitive_and_stripped():
    rows = [{"c": "A"}, {"c": " a"}, {"c": "a  "}, {"c": "B"}]
    stats = col(rows, "c")
    assert stats["distinct"] == 3
    assert stats["most_common"] == "a"
    assert stats["most_common_count"] == 2


def test_all_missing_column_is_text():
    assert col([{"c": ""}, {"c": None}, {"c": " "}], "c") == {
        "type": "text", "count": 0, "missing": 3, "distinct": 0,
        "most_common": None, "most_common_count": 0,
    }


def test_mixed_int_and_text_is_text():
    stats = col([{"c": "1"}, {"c": "2"}, {"c": "two"}], "c")
    assert stats["type"] == "text"
    assert stats["distinct"] == 3


def test_column_order_is_first_appearance():
    rows = [{"b": "1", "a": "x"}, {"c": "2.5", "a": "y"}]
    summary = summarize(rows)
    assert list(summary["columns"]) == ["b", "a", "c"]
    assert summary["columns"]["c"]["missing"] == 1
    assert summary["columns"]["b"]["missing"] == 1


def test_explicit_columns_select_and_order():
    rows = [{"a": "1", "b": "x", "c": "2"}, {"a": "3", "b": "y", "c": "4"}]
    summary = summarize(rows, columns=["c", "a", "ghost"])
    assert summary["rows"] == 2
    assert list(summary["columns"]) == ["c", "a", "ghost"]
    assert summary["columns"]["ghost"]["missing"] == 2
    assert summary["columns"]["ghost"]["type"] == "text"


def test_generator_input():
    rows = ({"n": str(i)} for i in range(1, 6))
    summary = summarize(rows)
    assert summary["rows"] == 5
    assert summary["columns"]["n"]["mean"] == 3.0


def test_empty_input():
    assert summarize([]) == {"rows": 0, "columns": {}}
    assert summarize(iter([])) == {"rows": 0, "columns": {}}
