"""Tests for the command line interface."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from minisql.cli import format_value, main


@pytest.fixture
def people(tmp_path: Path) -> Path:
    path = tmp_path / "people.csv"
    path.write_text("name,age,city\nAna,31,Oslo\nBo,,Rome\nCy,25,\"Lima, PE\"\n", encoding="utf-8")
    return path


def test_query_prints_csv(people: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--table", f"p={people}", "SELECT name, age, city, age > 30 AS old FROM p ORDER BY name"])
    assert code == 0
    assert capsys.readouterr().out == 'name,age,city,old\nAna,31,Oslo,true\nBo,,Rome,\nCy,25,"Lima, PE",false\n'


def test_query_error_exit_1(people: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--table", f"p={people}", "SELECT nope FROM p"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ")


def test_missing_file_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--table", f"p={tmp_path / 'x.csv'}", "SELECT 1"]) == 1
    assert "error:" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [[], ["--table", "nope", "SELECT 1"], ["--table", "=x.csv", "SELECT 1"]])
def test_usage_errors_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2


def test_format_value() -> None:
    assert [format_value(v) for v in (None, True, False, 3, 2.5, "x")] == ["", "true", "false", "3", "2.5", "x"]


def test_module_entry_point(people: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "minisql", "--table", f"p={people}", "SELECT COUNT(*) AS n FROM p"],
        capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 0
    assert completed.stdout == "n\n3\n"


def test_module_entry_point_in_process(people: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m minisql` once more, in the test process (where coverage is measured)."""
    monkeypatch.setattr(sys, "argv", ["minisql", "--table", f"p={people}", "SELECT COUNT(*) AS n FROM p"])
    monkeypatch.delitem(sys.modules, "minisql.__main__", raising=False)
    with pytest.raises(SystemExit) as info:
        runpy.run_module("minisql", run_name="__main__")
    assert (info.value.code, capsys.readouterr().out) == (0, "n\n3\n")
