"""Command-line interface: ``python -m ledger --db PATH <command> ...``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .errors import LedgerError
from .ledger import Ledger
from .models import ACCOUNT_TYPES, Line
from .money import format_cents, parse_amount


def _line_spec(text: str) -> tuple[str, int]:
    """argparse type for ``ACCOUNT=AMOUNT``."""
    account, sep, amount = text.rpartition("=")
    if not sep or not account:
        raise argparse.ArgumentTypeError(f"expected ACCOUNT=AMOUNT, got {text!r}")
    try:
        return account, parse_amount(amount)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _cmd_add_account(ledger: Ledger, args: argparse.Namespace) -> list[str]:
    account = ledger.create_account(args.code, args.name, args.type)
    return [f"created account {account.code}"]


def _cmd_accounts(ledger: Ledger, args: argparse.Namespace) -> list[str]:
    return [f"{a.code}\t{a.type}\t{a.name}" for a in ledger.list_accounts()]


def _cmd_post(ledger: Ledger, args: argparse.Namespace) -> list[str]:
    lines = [Line(code, debit=amount) for code, amount in args.debit]
    lines += [Line(code, credit=amount) for code, amount in args.credit]
    entry = ledger.post_entry(args.date, args.description, lines)
    return [f"posted entry {entry.id}"]


def _cmd_balance(ledger: Ledger, args: argparse.Namespace) -> list[str]:
    return [format_cents(ledger.balance(args.code, as_of=args.as_of))]


def _cmd_trial_balance(ledger: Ledger, args: argparse.Namespace) -> list[str]:
    rows = ledger.trial_balance(as_of=args.as_of)
    out = [f"{r.code}\t{r.name}\t{format_cents(r.debit)}\t{format_cents(r.credit)}" for r in rows]
    total_debit = format_cents(sum(r.debit for r in rows))
    total_credit = format_cents(sum(r.credit for r in rows))
    out.append(f"TOTAL\t\t{total_debit}\t{total_credit}")
    return out


def _cmd_reverse(ledger: Ledger, args: argparse.Namespace) -> list[str]:
    entry = ledger.reverse_entry(args.entry_id, date=args.date, description=args.description)
    return [f"reversed entry {args.entry_id} as entry {entry.id}"]


Handler = Callable[[Ledger, argparse.Namespace], list[str]]


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser for the ledger CLI."""
    parser = argparse.ArgumentParser(prog="ledger", description="Double-entry ledger.")
    parser.add_argument("--db", required=True, help="path of the SQLite database file")
    sub = parser.add_subparsers(dest="command", required=True)

    add = sub.add_parser("add-account", help="create an account")
    add.add_argument("code")
    add.add_argument("name")
    add.add_argument("type", help="one of " + ", ".join(ACCOUNT_TYPES))
    add.set_defaults(handler=_cmd_add_account)

    sub.add_parser("accounts", help="list accounts").set_defaults(handler=_cmd_accounts)

    post = sub.add_parser("post", help="post a journal entry")
    post.add_argument("--date", required=True)
    post.add_argument("--description", required=True)
    post.add_argument("--debit", type=_line_spec, action="append", default=[])
    post.add_argument("--credit", type=_line_spec, action="append", default=[])
    post.set_defaults(handler=_cmd_post)

    bal = sub.add_parser("balance", help="show an account balance")
    bal.add_argument("code")
    bal.add_argument("--as-of", dest="as_of")
    bal.set_defaults(handler=_cmd_balance)

    trial = sub.add_parser("trial-balance", help="show the trial balance")
    trial.add_argument("--as-of", dest="as_of")
    trial.set_defaults(handler=_cmd_trial_balance)

    rev = sub.add_parser("reverse", help="reverse a journal entry")
    rev.add_argument("entry_id", type=int)
    rev.add_argument("--date")
    rev.add_argument("--description")
    rev.set_defaults(handler=_cmd_reverse)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the process exit code (0 ok, 1 ledger error, 2 usage error)."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        with Ledger(args.db) as ledger:
            output = handler(ledger, args)
    except LedgerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for line in output:
        print(line)
    return 0
