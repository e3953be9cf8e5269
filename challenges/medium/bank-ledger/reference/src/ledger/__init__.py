"""Double-entry bookkeeping ledger backed by SQLite."""

from .errors import (
    AccountExistsError,
    AccountNotFoundError,
    EntryNotFoundError,
    InvalidAccountError,
    InvalidDateError,
    InvalidEntryError,
    LedgerError,
    ReversalError,
    UnbalancedEntryError,
)
from .ledger import Ledger
from .models import ACCOUNT_TYPES, Account, Entry, Line, TrialBalanceRow
from .money import format_cents, parse_amount

__all__ = [
    "ACCOUNT_TYPES",
    "Account",
    "AccountExistsError",
    "AccountNotFoundError",
    "Entry",
    "EntryNotFoundError",
    "InvalidAccountError",
    "InvalidDateError",
    "InvalidEntryError",
    "Ledger",
    "LedgerError",
    "Line",
    "ReversalError",
    "TrialBalanceRow",
    "UnbalancedEntryError",
    "format_cents",
    "parse_amount",
]
