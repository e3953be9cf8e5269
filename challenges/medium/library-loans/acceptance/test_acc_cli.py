"""The command-line interface (run as `python -m library`)."""

from __future__ import annotations

from datetime import date

import pytest

from conftest import ISBN_A, ISBN_B, run_cli


def seed(tmp_path, copies, members=("Ann",)):
    """Create a database through the API: book ISBN_A with `copies` copies, and members."""
    from library import Library

    db = str(tmp_path / "seeded.db")
    with Library(db, today=lambda: date(2024, 1, 1)) as lib:
        lib.add_book(ISBN_A, "T", "A")
        for _ in range(copies):
            lib.add_copy(ISBN_A)
        for name in members:
            lib.add_member(name)
    return db


def ok(result, *lines):
    assert result.returncode == 0, (result.returncode, result.stdout, result.stderr)
    assert result.stdout.splitlines() == list(lines)


def test_cli_catalogue_commands(tmp_path):
    db = tmp_path / "cli.db"
    ok(run_cli(db, "add-book", "978-0-306-40615-7", "Signals", "Oppenheim"), f"added book {ISBN_A}")
    ok(run_cli(db, "add-copy", ISBN_A), "added copy 1")
    ok(run_cli(db, "add-copy", "978 0306406157"), "added copy 2")
    ok(run_cli(db, "add-member", "Ann Smith"), "added member 1")
    ok(run_cli(db, "add-member", "Bob"), "added member 2")
    ok(run_cli(db, "book", ISBN_A), f"{ISBN_A} | Signals | Oppenheim | available 2/2 | reservations 0")


def test_cli_lending_commands(tmp_path):
    db = seed(tmp_path, copies=2, members=("Ann", "Bob", "Cy", "Dee"))
    ok(run_cli(db, "checkout", 1, 1, today="2024-03-01"), "loan 1 due 2024-03-15")
    ok(run_cli(db, "renew", 1, today="2024-03-10"), "loan 1 due 2024-03-29")
    ok(run_cli(db, "checkout", 2, 2, today="2024-03-02"), "loan 2 due 2024-03-16")
    ok(run_cli(db, "reserve", ISBN_A, 3, today="2024-03-03"), f"reserved {ISBN_A} for member 3 position 1")
    ok(run_cli(db, "reserve", "978-0306406157", 4, today="2024-03-03"), f"reserved {ISBN_A} for member 4 position 2")
    ok(run_cli(db, "book", "978 0306406157"), f"{ISBN_A} | T | A | available 0/2 | reservations 2")
    ok(run_cli(db, "return", 2, today="2024-03-20"), "returned loan 2 fine 100")
    ok(run_cli(db, "fines", 2), "100")
    ok(run_cli(db, "pay", 2, 40), "remaining 60")
    ok(run_cli(db, "fines", 2), "60")
    ok(run_cli(db, "checkout", 2, 3, today="2024-03-20"), "loan 3 due 2024-04-03")
    ok(run_cli(db, "book", ISBN_A), f"{ISBN_A} | T | A | available 0/2 | reservations 1")


def test_cli_overdue_listing(tmp_path):
    from library import Library

    db = str(tmp_path / "o.db")
    day = [date(2024, 1, 5)]
    with Library(db, today=lambda: day[0]) as lib:
        lib.add_book(ISBN_A, "T", "A")
        copies = [lib.add_copy(ISBN_A) for _ in range(3)]
        member = lib.add_member("Ann").id
        lib.checkout(copies[1], member)
        day[0] = date(2024, 1, 1)
        lib.checkout(copies[0], member)
        day[0] = date(2024, 1, 5)
        lib.checkout(copies[2], member)
    ok(run_cli(db, "overdue", today="2024-01-15"))
    ok(run_cli(db, "overdue", today="2024-01-16"), "loan 2 copy 1 member 1 due 2024-01-15 days 1")
    ok(run_cli(db, "overdue", today="2024-02-01"),
       "loan 2 copy 1 member 1 due 2024-01-15 days 17",
       "loan 1 copy 2 member 1 due 2024-01-19 days 13",
       "loan 3 copy 3 member 1 due 2024-01-19 days 13")


def test_cli_and_api_share_the_database(tmp_path):
    from library import Library

    db = str(tmp_path / "shared.db")
    with Library(db, today=lambda: date(2024, 5, 1)) as lib:
        lib.add_book(ISBN_B, "Shared", "Writer")
        copy = lib.add_copy(ISBN_B)
        member = lib.add_member("Dana").id
    ok(run_cli(db, "checkout", copy, member, today="2024-05-02"), "loan 1 due 2024-05-16")
    with Library(db, today=lambda: date(2024, 6, 30)) as lib:
        assert lib.member_loans(member)[0].due_on == date(2024, 5, 16)
        assert lib.return_copy(copy).fine_cents == 1000
    ok(run_cli(db, "fines", member), "1000")


@pytest.mark.parametrize("args", [
    ("add-copy", ISBN_B),
    ("book", ISBN_B),
    ("checkout", 9, 1),
    ("renew", 5),
    ("return", 9),
    ("fines", 9),
    ("pay", 9, 10),
    ("reserve", ISBN_B, 1),
])
def test_cli_not_found_exits_3(tmp_path, args):
    db = seed(tmp_path, copies=0)
    result = run_cli(db, *args)
    assert result.returncode == 3
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")


@pytest.mark.parametrize("args", [
    ("add-book", "9780306406158", "T", "A"),
    ("add-book", ISBN_A, "Dup", "Dup"),
    ("add-book", ISBN_B, " ", "A"),
    ("add-member", ""),
    ("return", 1),
    ("reserve", ISBN_A, 1),
    ("pay", 1, 5),
])
def test_cli_rule_violations_exit_1(tmp_path, args):
    db = seed(tmp_path, copies=1)
    result = run_cli(db, *args)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")


def test_cli_checkout_errors(tmp_path):
    db = seed(tmp_path, copies=1, members=("Ann", "Bob"))
    ok(run_cli(db, "checkout", 1, 1, today="2024-01-01"), "loan 1 due 2024-01-15")
    busy = run_cli(db, "checkout", 1, 2, today="2024-01-02")
    assert busy.returncode == 1 and busy.stderr.startswith("error: ") and busy.stdout == ""
    late = run_cli(db, "renew", 1, today="2024-01-16")
    assert late.returncode == 1


@pytest.mark.parametrize("argv", [
    ["--db", "{db}", "checkout", "one", "1"],
    ["--db", "{db}", "checkout", "1"],
    ["--db", "{db}", "fly-away"],
    ["--db", "{db}"],
    ["add-member", "Ann"],
    ["--db", "{db}", "--today", "2024-13-01", "overdue"],
    ["--db", "{db}", "--today", "yesterday", "overdue"],
])
def test_cli_usage_errors_exit_2(tmp_path, argv):
    import subprocess
    import sys

    db = str(tmp_path / "u.db")
    args = [a.replace("{db}", db) for a in argv]
    result = subprocess.run([sys.executable, "-m", "library", *args], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert result.stdout == ""
