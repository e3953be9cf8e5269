"""Tests for the semver_tool command-line interface."""

import io
import runpy
import sys

import pytest

from semver_tool.cli import main


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [("1.0.0", "2.0.0", "-1"), ("1.0.0+x", "1.0.0", "0"), ("1.0.0", "1.0.0-rc.1", "1")],
)
def test_compare(capsys, a, b, expected):
    assert main(["compare", a, b]) == 0
    assert capsys.readouterr().out == expected + "\n"


def test_bump(capsys):
    assert main(["bump", "prerelease", "2.0.0-beta"]) == 0
    assert capsys.readouterr().out == "2.0.0-beta.0\n"


def test_sort(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1.10.0\n\n  1.2.0  \n1.2.0-rc.1\n"))
    assert main(["sort"]) == 0
    assert capsys.readouterr().out.split() == ["1.2.0-rc.1", "1.2.0", "1.10.0"]


def test_sort_reverse(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1.2.0\n1.10.0\n"))
    assert main(["sort", "--reverse"]) == 0
    assert capsys.readouterr().out.split() == ["1.10.0", "1.2.0"]


def test_sort_invalid_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1.0.0\nnope\n"))
    assert main(["sort"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: line 2")


@pytest.mark.parametrize("argv", [["compare", "1.0", "1.0.0"], ["bump", "major", "x"]])
def test_invalid_version_exit_2(capsys, argv):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error:")


@pytest.mark.parametrize("argv", [[], ["bump", "build", "1.0.0"], ["compare", "1.0.0"]])
def test_usage_errors(argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2


def test_module_entry_point(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["semver_tool", "bump", "major", "0.9.9"])
    with pytest.raises(SystemExit) as info:
        runpy.run_module("semver_tool", run_name="__main__")
    assert info.value.code == 0
    assert capsys.readouterr().out == "1.0.0\n"
