"""Tests for CSV loading and type inference."""

from __future__ import annotations

from pathlib import Path

import pytest

from minisql import Database, QueryError


def load(tmp_path: Path, text: str) -> Database:
    path = tmp_path / "data.csv"
    path.write_text(text, encoding="utf-8")
    db = Database()
    db.load_csv("data", path)
    return db


def test_type_inference(tmp_path: Path) -> None:
    db = load(tmp_path, 'i,r,s,e\n1,1,abc,\n-2,2.5,"7",\n+3,1e2,x y,\n')
    assert db.query("SELECT * FROM data").rows == [
        (1, 1.0, "abc", None),
        (-2, 2.5, "7", None),
        (3, 100.0, "x y", None),
    ]


def test_empty_fields_are_null_and_blank_lines_skipped(tmp_path: Path) -> None:
    db = load(tmp_path, "a,b\n1,\n\n,x\n")
    assert db.execute("SELECT a, b FROM data") == [(1, None), (None, "x")]


def test_header_only(tmp_path: Path) -> None:
    db = load(tmp_path, "a,b\n")
    assert db.query("SELECT * FROM data").columns == ["a", "b"]


def test_bom_and_quoted_commas(tmp_path: Path) -> None:
    db = load(tmp_path, '\ufeffname,note\nx,"a, b"\n')
    assert db.execute("SELECT name, note FROM data") == [("x", "a, b")]


@pytest.mark.parametrize("text", ["", "a,b\n1\n", "a,a\n1,2\n"])
def test_bad_files(tmp_path: Path, text: str) -> None:
    with pytest.raises(QueryError):
        load(tmp_path, text)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(b"a\n\xff\xfe\n")
    with pytest.raises(QueryError):
        Database().load_csv("bad", path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Database().load_csv("x", tmp_path / "missing.csv")
