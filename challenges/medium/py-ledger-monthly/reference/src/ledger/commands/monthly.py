"""`monthly FILE [--account NAME]`: net total per calendar month, oldest first."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from ledger.parse import Transaction

NAME = "monthly"
HELP = "net total per month"


def monthly_totals(transactions: Iterable[Transaction], account: str | None = None) -> dict[str, float]:
    """Sum of amounts per month (`YYYY-MM`), sorted by month; `account` keeps that account and its
    sub-accounts."""
    totals: dict[str, float] = {}
    for t in transactions:
        if account is None or t.account == account or t.account.startswith(account + ":"):
            month = f"{t.date.year:04d}-{t.date.month:02d}"
            totals[month] = totals.get(month, 0) + t.amount
    return dict(sorted(totals.items()))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`--account NAME` keeps that account and its sub-accounts."""
    parser.add_argument("--account")


def run(args: argparse.Namespace, transactions: Iterable[Transaction]) -> str:
    """One line per month, `YYYY-MM` then the amount with two decimals, right-aligned."""
    return "".join(f"{month}  {amount:>12.2f}\n"
                   for month, amount in monthly_totals(transactions, args.account).items())
