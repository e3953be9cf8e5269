"""Command-line interface: ``python -m library --db PATH [--today DATE] <command> ...``.

Exit codes: 0 success, 1 rule violation or invalid value, 2 usage error, 3 not found.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from datetime import date

from library import rules
from library.errors import LibraryError, NotFoundError
from library.service import Library

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_NOT_FOUND = 3

Command = Callable[[Library, argparse.Namespace], list[str]]


def _iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a YYYY-MM-DD date: {text!r}") from exc


# --- commands: each returns its output lines --------------------------------------


def cmd_add_book(lib: Library, args: argparse.Namespace) -> list[str]:
    return [f"added book {lib.add_book(args.isbn, args.title, args.author).isbn}"]


def cmd_add_copy(lib: Library, args: argparse.Namespace) -> list[str]:
    return [f"added copy {lib.add_copy(args.isbn)}"]


def cmd_add_member(lib: Library, args: argparse.Namespace) -> list[str]:
    return [f"added member {lib.add_member(args.name).id}"]


def cmd_checkout(lib: Library, args: argparse.Namespace) -> list[str]:
    loan = lib.checkout(args.copy_id, args.member_id)
    return [f"loan {loan.id} due {loan.due_on.isoformat()}"]


def cmd_return(lib: Library, args: argparse.Namespace) -> list[str]:
    loan = lib.return_copy(args.copy_id)
    return [f"returned loan {loan.id} fine {loan.fine_cents}"]


def cmd_renew(lib: Library, args: argparse.Namespace) -> list[str]:
    loan = lib.renew(args.loan_id)
    return [f"loan {loan.id} due {loan.due_on.isoformat()}"]


def cmd_reserve(lib: Library, args: argparse.Namespace) -> list[str]:
    reservation = lib.reserve(args.isbn, args.member_id)
    position = len(lib.reservations(reservation.isbn))
    return [f"reserved {reservation.isbn} for member {reservation.member_id} position {position}"]


def cmd_overdue(lib: Library, args: argparse.Namespace) -> list[str]:
    return [
        f"loan {loan.id} copy {loan.copy_id} member {loan.member_id} "
        f"due {loan.due_on.isoformat()} days {rules.days_late(loan.due_on, args.today)}"
        for loan in lib.overdue_loans()
    ]


def cmd_fines(lib: Library, args: argparse.Namespace) -> list[str]:
    return [str(lib.fines_owed(args.member_id))]


def cmd_pay(lib: Library, args: argparse.Namespace) -> list[str]:
    return [f"remaining {lib.pay_fine(args.member_id, args.amount)}"]


def cmd_book(lib: Library, args: argparse.Namespace) -> list[str]:
    book = lib.get_book(args.isbn)
    available, total = len(lib.available_copies(book.isbn)), len(lib.copies(book.isbn))
    queue = len(lib.reservations(book.isbn))
    return [f"{book.isbn} | {book.title} | {book.author} | available {available}/{total} | reservations {queue}"]


# --- parser ------------------------------------------------------------------------

SUBCOMMANDS: list[tuple[str, Command, list[tuple[str, type]]]] = [
    ("add-book", cmd_add_book, [("isbn", str), ("title", str), ("author", str)]),
    ("add-copy", cmd_add_copy, [("isbn", str)]),
    ("add-member", cmd_add_member, [("name", str)]),
    ("checkout", cmd_checkout, [("copy_id", int), ("member_id", int)]),
    ("return", cmd_return, [("copy_id", int)]),
    ("renew", cmd_renew, [("loan_id", int)]),
    ("reserve", cmd_reserve, [("isbn", str), ("member_id", int)]),
    ("overdue", cmd_overdue, []),
    ("fines", cmd_fines, [("member_id", int)]),
    ("pay", cmd_pay, [("member_id", int), ("amount", int)]),
    ("book", cmd_book, [("isbn", str)]),
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-parser per command."""
    parser = argparse.ArgumentParser(prog="python -m library", description="Lending library")
    parser.add_argument("--db", required=True, help="path of the SQLite database file")
    parser.add_argument("--today", type=_iso_date, default=None, help="current date (YYYY-MM-DD)")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, handler, positionals in SUBCOMMANDS:
        command = sub.add_parser(name)
        for arg, kind in positionals:
            command.add_argument(arg, type=kind)
        command.set_defaults(handler=handler)
    return parser


def run(args: argparse.Namespace) -> int:
    """Execute a parsed command, mapping library errors to exit codes."""
    today: date = args.today or date.today()
    args.today = today
    try:
        with Library(args.db, today=lambda: today) as lib:
            lines = args.handler(lib, args)
    except NotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_NOT_FOUND
    except LibraryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    for line in lines:
        print(line)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; returns the exit code (argparse exits with 2 on usage errors)."""
    return run(build_parser().parse_args(argv))
