"""Tests for the command-line interface."""

import runpy
import sys

import pytest

from password_gen.cli import main


def test_prints_one_password_by_default(capsys):
    assert main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and len(lines[0]) == 16


def test_count_and_length(capsys):
    assert main(["--count", "3", "--length", "8", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [len(line) for line in lines] == [8, 8, 8]


def test_class_flags(capsys):
    assert main(["--no-upper", "--no-lower", "--no-symbols", "--length", "12"]) == 0
    assert capsys.readouterr().out.strip().isdigit()


def test_seed_is_reproducible(capsys):
    main(["--seed", "42", "--count", "2"])
    first = capsys.readouterr().out
    main(["--seed", "42", "--count", "2"])
    assert capsys.readouterr().out == first


def test_entropy_line(capsys):
    assert main(["--length", "10", "--no-upper", "--no-lower", "--no-symbols", "--entropy"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "entropy: 33.2 bits"


@pytest.mark.parametrize(
    "argv",
    [["--length", "0"], ["--count", "0"],
     ["--no-upper", "--no-lower", "--no-digits", "--no-symbols"]],
)
def test_errors_exit_2(capsys, argv):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ")


def test_non_integer_length_is_usage_error():
    with pytest.raises(SystemExit) as info:
        main(["--length", "ten"])
    assert info.value.code == 2


def test_module_entry_point(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["password_gen", "--length", "5"])
    with pytest.raises(SystemExit) as info:
        runpy.run_module("password_gen", run_name="__main__")
    assert info.value.code == 0
    assert len(capsys.readouterr().out.strip()) == 5
