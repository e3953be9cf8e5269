"""Hidden acceptance tests for hard/query-engine: CSV loading and the command-line interface."""

from __future__ import annotations

import subprocess
import sys

import pytest

STAFF_CSV = (
    "id,name,dept,salary,rating,code\n"
    "1,Ana,eng,5200,4.5,007\n"
    "2,Ben,eng,,3,x1\n"
    "3,Cleo,\"sales, EU\",4100,,12\n"
    "\n"
    "4,Dan,,-300,+2.25,\n"
)

DEPTS_CSV = "dept,floor\neng,3\n\"sales, EU\",1\nhr,2\n"


@pytest.fixture
def staff_csv(tmp_path):
    path = tmp_path / "staff.csv"
    path.write_text(STAFF_CSV, encoding="utf-8")
    return path


@pytest.fixture
def depts_csv(tmp_path):
    path = tmp_path / "depts.csv"
    path.write_text(DEPTS_CSV, encoding="utf-8")
    return path


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "minisql", *map(str, args)],
        capture_output=True, text=True, timeout=60,
    )


# ----------------------------------------------------------------------------- CSV loading


def test_load_csv_infers_column_types(msql, staff_csv):
    db = msql.Database()
    db.load_csv("staff", staff_csv)
    result = db.query("SELECT * FROM staff")
    assert list(result.columns) == ["id", "name", "dept", "salary", "rating", "code"]
    assert result.rows == [
        (1, "Ana", "eng", 5200, 4.5, "007"),
        (2, "Ben", "eng", None, 3.0, "x1"),
        (3, "Cleo", "sales, EU", 4100, None, "12"),
        (4, "Dan", None, -300, 2.25, None),
    ]
    types = [tuple(type(v) for v in row) for row in result.rows]
    assert types[0] == (int, str, str, int, float, str)
    assert types[1][4] is float


def test_load_csv_real_formats_and_all_null_column(msql, tmp_path):
    path = tmp_path / "nums.csv"
    path.write_text("a,b,c,d\n1e3,5,,-.5\n2.,-0,,+1\n", encoding="utf-8")
    db = msql.Database()
    db.load_csv("nums", path)
    assert db.execute("SELECT a, b, c, d FROM nums") == [(1000.0, 5, None, -0.5), (2.0, 0, None, 1.0)]
    assert [type(v) for v in db.execute("SELECT a, b, d FROM nums")[0]] == [float, int, float]


def test_load_csv_header_only_bom_and_case_insensitive_name(msql, tmp_path):
    path = tmp_path / "empty.csv"
    path.write_bytes("\ufeffCol A,n\n".encode("utf-8"))
    db = msql.Database()
    db.load_csv("Things", path)
    result = db.query('SELECT "col a", N FROM things')
    assert list(result.columns) == ["Col A", "n"]
    assert result.rows == []
    assert db.tables() == ["Things"]


def test_loaded_table_is_queryable(msql, staff_csv, depts_csv):
    db = msql.Database()
    db.load_csv("staff", staff_csv)
    db.load_csv("depts", depts_csv)
    rows = db.execute("SELECT d.dept, COUNT(s.id), AVG(s.salary) FROM depts d LEFT JOIN staff s "
                      "ON s.dept = d.dept GROUP BY d.dept ORDER BY MAX(d.floor) DESC")
    assert rows == [("eng", 2, 5200.0), ("hr", 0, None), ("sales, EU", 1, 4100.0)]


def test_load_csv_errors(msql, tmp_path, staff_csv):
    db = msql.Database()
    with pytest.raises(OSError):
        db.load_csv("missing", tmp_path / "missing.csv")
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("a,b\n1,2\n3\n", encoding="utf-8")
    with pytest.raises(msql.QueryError):
        db.load_csv("ragged", ragged)
    empty = tmp_path / "empty.csv"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(msql.QueryError):
        db.load_csv("empty", empty)
    dup = tmp_path / "dup.csv"
    dup.write_text("a,A\n1,2\n", encoding="utf-8")
    with pytest.raises(msql.QueryError):
        db.load_csv("dup", dup)
    db.load_csv("staff", staff_csv)
    with pytest.raises(msql.QueryError):
        db.load_csv("STAFF", staff_csv)


# ----------------------------------------------------------------------------- CLI


def test_cli_prints_csv(staff_csv):
    proc = run_cli("--table", f"staff={staff_csv}",
                   "SELECT name, dept, salary, rating, salary > 4500 AS rich FROM staff ORDER BY id")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        "name,dept,salary,rating,rich\n"
        "Ana,eng,5200,4.5,true\n"
        "Ben,eng,,3.0,\n"
        'Cleo,"sales, EU",4100,,false\n'
        "Dan,,-300,2.25,false\n"
    )


def test_cli_multiple_tables_and_expression_header(staff_csv, depts_csv):
    proc = run_cli("--table", f"staff={staff_csv}", "--table", f"depts={depts_csv}",
                   "SELECT s.name, d.floor * 10 FROM staff s JOIN depts d ON s.dept = d.dept ORDER BY s.name DESC")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "name,d.floor * 10\nCleo,10\nBen,30\nAna,30\n"


def test_cli_empty_result_prints_header_only(staff_csv):
    proc = run_cli("--table", f"staff={staff_csv}", "SELECT id, name AS who FROM staff WHERE id > 99")
    assert proc.returncode == 0
    assert proc.stdout == "id,who\n"


def test_cli_without_tables():
    proc = run_cli("SELECT 1 + 2 AS three, 7 / 2, 'a,b'")
    assert proc.returncode == 0
    assert proc.stdout == 'three,7 / 2,"\'a,b\'"\n3,3,"a,b"\n'


@pytest.mark.parametrize(
    "sql",
    ["SELECT nope FROM staff", "SELECT * FROM missing", "SELECT FROM staff", "SELECT name + 1 FROM staff"],
)
def test_cli_query_failures_exit_1(staff_csv, sql):
    proc = run_cli("--table", f"staff={staff_csv}", sql)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.startswith("error: ")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_cli_missing_csv_exit_1(tmp_path):
    proc = run_cli("--table", f"t={tmp_path / 'nope.csv'}", "SELECT 1")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.startswith("error: ")


@pytest.mark.parametrize(
    "args",
    [[], ["--table", "staff", "SELECT 1"], ["--table", "=x.csv", "SELECT 1"], ["--table", "t=", "SELECT 1"]],
)
def test_cli_usage_errors_exit_2(args):
    proc = run_cli(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""


def test_cli_main_function(capsys, staff_csv):
    from minisql.cli import main

    assert main(["--table", f"s={staff_csv}", "SELECT COUNT(*) AS n, MAX(name) FROM s"]) == 0
    assert capsys.readouterr().out == "n,MAX(name)\n4,Dan\n"
    assert main(["SELECT nope"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ")
