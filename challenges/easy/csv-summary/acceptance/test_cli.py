"""Acceptance tests for ``python -m csv_summary``."""

import json

import pytest

SAMPLE = "name,age,score\nann,31,1.5\nbob,,2.5\nbob,19,\ncid,42,3\n"


def assert_error(result, *fragments):
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    for fragment in fragments:
        assert fragment in result.stderr


def test_table_output_exact(run_cli, write_csv):
    result = run_cli(write_csv(SAMPLE))
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "rows: 4",
        'name (text): count=4 missing=0 distinct=3 most_common="bob" most_common_count=2',
        "age (int): count=3 missing=1 min=19 max=42 mean=30.6667 median=31.0",
        "score (float): count=3 missing=1 min=1.5 max=3.0 mean=2.3333 median=2.5",
    ]


def test_json_output(run_cli, write_csv):
    result = run_cli(write_csv(SAMPLE), "--format", "json")
    assert result.returncode == 0
    assert json.loads(result.stdout) == {
        "rows": 4,
        "columns": {
            "name": {"type": "text", "count": 4, "missing": 0, "distinct": 3,
                     "most_common": "bob", "most_common_count": 2},
            "age": {"type": "int", "count": 3, "missing": 1, "min": 19, "max": 42,
                    "mean": 30.6667, "median": 31.0},
            "score": {"type": "float", "count": 3, "missing": 1, "min": 1.5, "max": 3.0,
                      "mean": 2.3333, "median": 2.5},
        },
    }


def test_json_preserves_column_order(run_cli, write_csv):
    result = run_cli(write_csv("z,a,m\n1,2,3\n"), "--format", "json")
    assert list(json.loads(result.stdout)["columns"]) == ["z", "a", "m"]


def test_columns_option_selects_and_orders(run_cli, write_csv):
    result = run_cli(write_csv(SAMPLE), "--columns", " score , name", "--format", "json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["rows"] == 4
    assert list(data["columns"]) == ["score", "name"]


def test_columns_option_table(run_cli, write_csv):
    result = run_cli(write_csv(SAMPLE), "--columns", "age")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "rows: 4",
        "age (int): count=3 missing=1 min=19 max=42 mean=30.6667 median=31.0",
    ]


def test_table_null_for_all_missing_column(run_cli, write_csv):
    result = run_cli(write_csv("a,b\n,1\n  ,2\n"))
    assert result.returncode == 0
    assert result.stdout.splitlines()[1] == (
        "a (text): count=0 missing=2 distinct=0 most_common=null most_common_count=0"
    )


def test_table_text_value_is_json_encoded(run_cli, write_csv):
    result = run_cli(write_csv('who\n"say ""hi"""\n'))
    assert result.returncode == 0
    assert result.stdout.splitlines()[1] == (
        'who (text): count=1 missing=0 distinct=1 most_common="say \\"hi\\"" most_common_count=1'
    )


def test_quoted_fields_with_commas(run_cli, write_csv):
    result = run_cli(write_csv('name,n\n"Smith, J",1\n"Smith, J",2\nLee,3\n'), "--format", "json")
    data = json.loads(result.stdout)
    assert data["columns"]["name"]["most_common"] == "Smith, J"
    assert data["columns"]["n"]["max"] == 3


def test_byte_order_mark_ignored(run_cli, write_csv):
    result = run_cli(write_csv("\ufeffid,v\n1,2\n"), "--format", "json")
    assert result.returncode == 0
    assert list(json.loads(result.stdout)["columns"]) == ["id", "v"]


def test_short_and_long_rows(run_cli, write_csv):
    result = run_cli(write_csv("a,b\n1\n2,3,4,5\n"), "--format", "json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert list(data["columns"]) == ["a", "b"]
    assert data["columns"]["b"]["count"] == 1
    assert data["columns"]["b"]["missing"] == 1
    assert data["columns"]["a"]["max"] == 2


def test_blank_lines_are_skipped(run_cli, write_csv):
    result = run_cli(write_csv("a,b\n1,2\n\n3,4\n\n"), "--format", "json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["rows"] == 2
    assert data["columns"]["a"]["missing"] == 0


def test_header_only_file(run_cli, write_csv):
    result = run_cli(write_csv("a,b\n"), "--format", "json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["rows"] == 0
    assert data["columns"]["a"] == {"type": "text", "count": 0, "missing": 0, "distinct": 0,
                                    "most_common": None, "most_common_count": 0}
    assert list(data["columns"]) == ["a", "b"]


def test_missing_file(run_cli, tmp_path):
    assert_error(run_cli(tmp_path / "nope.csv"), "cannot read")


def test_empty_file(run_cli, write_csv):
    assert_error(run_cli(write_csv("")), "empty")


def test_unknown_column(run_cli, write_csv):
    assert_error(run_cli(write_csv(SAMPLE), "--columns", "name,salary"), "unknown column: salary")


def test_invalid_utf8(run_cli, write_csv):
    assert_error(run_cli(write_csv(b"a,b\n\xff\xfe,1\n")), "cannot parse")


@pytest.mark.parametrize("args", [["--format", "xml"], []])
def test_usage_errors(run_cli, write_csv, args):
    path = write_csv(SAMPLE)
    full = [path, *args] if args else []
    result = run_cli(*full)
    assert result.returncode == 2
    assert result.stdout == ""
