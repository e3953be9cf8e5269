"""Immutable value objects returned by the ledger."""

from __future__ import annotations

from dataclasses import dataclass

ACCOUNT_TYPES: tuple[str, ...] = ("asset", "liability", "equity", "income", "expense")
"""The five account types, in their conventional order."""

DEBIT_NORMAL_TYPES: frozenset[str] = frozenset({"asset", "expense"})
"""Account types whose balance increases with debits."""


@dataclass(frozen=True)
class Account:
    """A ledger account identified by its unique ``code``."""

    code: str
    name: str
    type: str


@dataclass(frozen=True)
class Line:
    """One line of a journal entry: a debit or a credit (in cents) to an account."""

    account: str
    debit: int = 0
    credit: int = 0

    def reversed(self) -> Line:
        """Return the line with debit and credit swapped."""
        return Line(self.account, debit=self.credit, credit=self.debit)


@dataclass(frozen=True)
class Entry:
    """A posted journal entry."""

    id: int
    date: str
    description: str
    lines: tuple[Line, ...]
    reverses: int | None = None

    @property
    def total(self) -> int:
        """Sum of the entry's debits (equal to the sum of its credits)."""
        return sum(line.debit for line in self.lines)


@dataclass(frozen=True)
class TrialBalanceRow:
    """One account's net position in a trial balance (one side is always 0)."""

    code: str
    name: str
    type: str
    debit: int
    credit: int


def signed_balance(account_type: str, debits: int, credits: int) -> int:
    """Return the balance of an account of ``account_type`` on its normal side."""
    if account_type in DEBIT_NORMAL_TYPES:
        return debits - credits
    return credits - debits
