"""Reading transactions: one CSV row per transaction (`date,account,amount,memo`)."""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Transaction:
    """One row of the file."""

    date: dt.date
    account: str
    amount: float
    memo: str = ""


class LedgerError(ValueError):
    """A row that cannot be read, with its line number."""


def parse_amount(text: str) -> float:
    """An amount as written in the file: `12.50`, `-3`, `1,204.10` (thousands separators)."""
    cleaned = text.strip().replace(",", "")
    if not cleaned:
        raise ValueError("empty amount")
    return float(cleaned)


def read_transactions(lines: Iterable[str]) -> Iterator[Transaction]:
    """Transactions from CSV lines (a header row `date,account,amount,memo` is skipped)."""
    for number, row in enumerate(csv.reader(lines), start=1):
        if not row or row[0].strip().lower() == "date":
            continue
        if len(row) < 3:
            raise LedgerError(f"line {number}: expected date,account,amount[,memo]")
        try:
            date = dt.date.fromisoformat(row[0].strip())
            amount = parse_amount(row[2])
        except ValueError as exc:
            raise LedgerError(f"line {number}: {exc}") from None
        account = row[1].strip()
        if not account:
            raise LedgerError(f"line {number}: empty account")
        yield Transaction(date, account, amount, row[3].strip() if len(row) > 3 else "")
