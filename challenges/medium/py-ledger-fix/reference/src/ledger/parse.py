"""Reading transactions: one CSV row per transaction (`date,account,amount,memo`)."""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

_AMOUNT = re.compile(r"^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$")


@dataclass(frozen=True)
class Transaction:
    """One row of the file."""

    date: dt.date
    account: str
    amount: Decimal
    memo: str = ""


class LedgerError(ValueError):
    """A row that cannot be read, with its line number."""


def parse_amount(text: str) -> Decimal:
    """An exact amount as written in the file: `12.50`, `-3`, `1,204.10` (thousands separators),
    or accounting style `(12.50)` for -12.50."""
    cleaned = text.strip()
    negative = cleaned.startswith("(") and cleaned.endswith(")")
    if negative:
        cleaned = cleaned[1:-1].strip()
        if cleaned.startswith("-"):
            raise ValueError(f"invalid amount {text.strip()!r}")
    if not cleaned:
        raise ValueError("empty amount")
    if not _AMOUNT.match(cleaned):
        raise ValueError(f"invalid amount {text.strip()!r}")
    try:
        value = Decimal(cleaned.replace(",", ""))
    except InvalidOperation:
        raise ValueError(f"invalid amount {text.strip()!r}") from None
    return -value if negative else value


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
