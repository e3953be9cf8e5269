"""Tests for the command-line interface (in-process via main())."""

from __future__ import annotations

import runpy
import subprocess
import sys

import pytest

from library.cli import main

ISBN = "9780306406157"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "cli.db")


def test_full_flow(capsys, db) -> None:
    assert run(capsys, "--db", db, "add-book", ISBN, "Title", "Author") == (0, f"added book {ISBN}\n", "")
    assert run(capsys, "--db", db, "add-copy", ISBN)[1] == "added copy 1\n"
    assert run(capsys, "--db", db, "add-member", "Ann")[1] == "added member 1\n"
    assert run(capsys, "--db", db, "add-member", "Bob")[1] == "added member 2\n"
    assert run(capsys, "--db", db, "--today", "2024-01-01", "checkout", "1", "1")[1] == "loan 1 due 2024-01-15\n"
    assert run(capsys, "--db", db, "--today", "2024-01-02", "renew", "1")[1] == "loan 1 due 2024-01-29\n"
    assert run(capsys, "--db", db, "reserve", ISBN, "2")[1] == f"reserved {ISBN} for member 2 position 1\n"
    assert run(capsys, "--db", db, "book", ISBN)[1] == f"{ISBN} | Title | Author | available 0/1 | reservations 1\n"
    assert run(capsys, "--db", db, "--today", "2024-02-01", "overdue")[1] == (
        "loan 1 copy 1 member 1 due 2024-01-29 days 3\n")
    assert run(capsys, "--db", db, "--today", "2024-02-01", "return", "1")[1] == "returned loan 1 fine 75\n"
    assert run(capsys, "--db", db, "fines", "1")[1] == "75\n"
    assert run(capsys, "--db", db, "pay", "1", "75")[1] == "remaining 0\n"


def test_error_exit_codes(capsys, db) -> None:
    code, out, err = run(capsys, "--db", db, "add-copy", ISBN)
    assert (code, out) == (3, "") and err.startswith("error: ")
    code, out, err = run(capsys, "--db", db, "add-book", "123", "T", "A")
    assert (code, out) == (1, "") and err.startswith("error: ")


def test_usage_errors(capsys, db) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--db", db, "--today", "nope", "overdue"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit):
        main(["--db", db, "checkout", "x", "1"])


def test_module_entry_point(db) -> None:
    result = subprocess.run([sys.executable, "-m", "library", "--db", db, "add-member", "Zed"],
                            capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout) == (0, "added member 1\n")


def test_module_entry_point_in_process(db, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m library` once more, in the test process (where coverage is measured)."""
    monkeypatch.setattr(sys, "argv", ["library", "--db", db, "add-member", "Zed"])
    monkeypatch.delitem(sys.modules, "library.__main__", raising=False)
    with pytest.raises(SystemExit) as info:
        runpy.run_module("library", run_name="__main__")
    assert (info.value.code, capsys.readouterr().out) == (0, "added member 1\n")
