"""Tests for the csv_summary command-line interface."""

import json
import runpy
import sys

import pytest

from csv_summary.cli import main

CSV_TEXT = "name,age,score\nann,31,1.5\nbob,,2.5\nbob,19,\ncid,42,3\n"


@pytest.fixture
def data_file(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text(CSV_TEXT, encoding="utf-8")
    return path


def test_table_output(data_file, capsys):
    assert main([str(data_file)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "rows: 4",
        'name (text): count=4 missing=0 distinct=3 most_common="bob" most_common_count=2',
        "age (int): count=3 missing=1 min=19 max=42 mean=30.6667 median=31.0",
        "score (float): count=3 missing=1 min=1.5 max=3.0 mean=2.3333 median=2.5",
    ]


def test_json_output_with_columns(data_file, capsys):
    assert main([str(data_file), "--format", "json", "--columns", " score , name"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"] == 4
    assert list(data["columns"]) == ["score", "name"]


def test_table_prints_null_for_empty_text_column(tmp_path, capsys):
    path = tmp_path / "blank.csv"
    path.write_text("a,b\n,1\n", encoding="utf-8")
    assert main([str(path)]) == 0
    assert 'a (text): count=0 missing=1 distinct=0 most_common=null' in capsys.readouterr().out


def test_header_only_file(tmp_path, capsys):
    path = tmp_path / "header.csv"
    path.write_text("\ufeffa,b\n", encoding="utf-8")
    assert main([str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"] == 0
    assert list(data["columns"]) == ["a", "b"]


def test_short_rows_count_as_missing(tmp_path, capsys):
    path = tmp_path / "short.csv"
    path.write_text("a,b\n1\n2,3,4\n", encoding="utf-8")
    assert main([str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["columns"]) == ["a", "b"]
    assert data["columns"]["b"]["missing"] == 1


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (None, [], "cannot read"),
        ("", [], "empty"),
        ("a,b\n1,2\n", ["--columns", "a,nope"], "unknown column: nope"),
    ],
)
def test_errors_exit_2(tmp_path, capsys, content, args, message):
    path = tmp_path / "in.csv"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main([str(path), *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error:")
    assert message in captured.err


def test_invalid_utf8(tmp_path, capsys):
    path = tmp_path / "latin.csv"
    path.write_bytes(b"a\n\xff\xfe\x00\n")
    assert main([str(path)]) == 2
    assert "cannot parse" in capsys.readouterr().err


def test_bad_format_is_usage_error(data_file):
    with pytest.raises(SystemExit) as info:
        main([str(data_file), "--format", "xml"])
    assert info.value.code == 2


def test_module_entry_point(data_file, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["csv_summary", str(data_file)])
    with pytest.raises(SystemExit) as info:
        runpy.run_module("csv_summary", run_name="__main__")
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("rows: 4")
