"""The :class:`Ledger` facade: a double-entry journal stored in SQLite."""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import TracebackType

from . import storage
from .errors import (
    AccountExistsError,
    AccountNotFoundError,
    EntryNotFoundError,
    ReversalError,
)
from .models import Account, Entry, Line, TrialBalanceRow, signed_balance
from .validation import (
    check_account_fields,
    check_balanced,
    check_date,
    check_lines,
    check_optional_date,
)


class Ledger:
    """A double-entry bookkeeping ledger persisted in an SQLite database file.

    All amounts are integers of cents. Every mutating method either fully succeeds
    and commits, or raises and leaves the database unchanged.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open the database at ``path`` (``":memory:"`` allowed), creating the schema."""
        self._conn = storage.connect(path)

    # -- lifecycle -----------------------------------------------------------------
    def close(self) -> None:
        """Close the underlying database connection."""
        self._conn.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- accounts ------------------------------------------------------------------
    def create_account(self, code: str, name: str, type: str) -> Account:
        """Create and return a new account.

        Raises:
            InvalidAccountError: empty/whitespace code, blank name or unknown type.
            AccountExistsError: an account with ``code`` already exists.
        """
        check_account_fields(code, name, type)
        if storage.fetch_account(self._conn, code) is not None:
            raise AccountExistsError(f"account already exists: {code}")
        account = Account(code, name, type)
        storage.insert_account(self._conn, account)
        return account

    def get_account(self, code: str) -> Account:
        """Return the account with ``code`` or raise :class:`AccountNotFoundError`."""
        account = storage.fetch_account(self._conn, code)
        if account is None:
            raise AccountNotFoundError(f"no such account: {code}")
        return account

    def list_accounts(self) -> list[Account]:
        """Return all accounts sorted by code."""
        return storage.fetch_accounts(self._conn)

    # -- entries -------------------------------------------------------------------
    def post_entry(self, date: str, description: str, lines: Sequence[Line]) -> Entry:
        """Validate and atomically post a journal entry; return it.

        Checks, in order: the date, the lines' shape, that every account exists,
        and that debits equal credits.
        """
        check_date(date)
        checked = check_lines(lines)
        for line in checked:
            self.get_account(line.account)
        check_balanced(checked)
        entry_id = storage.insert_entry(self._conn, date, description, checked)
        return Entry(entry_id, date, description, checked)

    def get_entry(self, entry_id: int) -> Entry:
        """Return the entry with ``entry_id`` or raise :class:`EntryNotFoundError`."""
        entry = storage.fetch_entry(self._conn, entry_id)
        if entry is None:
            raise EntryNotFoundError(f"no such entry: {entry_id}")
        return entry

    def list_entries(self) -> list[Entry]:
        """Return every entry ordered by id."""
        return storage.fetch_entries(self._conn)

    def reverse_entry(
        self, entry_id: int, date: str | None = None, description: str | None = None
    ) -> Entry:
        """Post an entry that undoes ``entry_id`` by swapping each line's sides.

        ``date`` defaults to the original entry's date and ``description`` to
        ``"Reversal of entry <id>"``.

        Raises:
            EntryNotFoundError: no such entry.
            ReversalError: the entry is a reversal or has already been reversed.
            InvalidDateError: ``date`` is malformed.
        """
        original = self.get_entry(entry_id)
        self._check_reversible(original)
        when = check_optional_date(date) or original.date
        text = f"Reversal of entry {entry_id}" if description is None else description
        lines = tuple(line.reversed() for line in original.lines)
        new_id = storage.insert_entry(self._conn, when, text, lines, reverses=entry_id)
        return Entry(new_id, when, text, lines, entry_id)

    def _check_reversible(self, entry: Entry) -> None:
        if entry.reverses is not None:
            raise ReversalError(f"entry {entry.id} is itself a reversal")
        reversal = storage.find_reversal(self._conn, entry.id)
        if reversal is not None:
            raise ReversalError(f"entry {entry.id} was already reversed by entry {reversal}")

    # -- reporting -----------------------------------------------------------------
    def balance(self, code: str, as_of: str | None = None) -> int:
        """Return the account's balance on its normal side, counting entries dated <= ``as_of``."""
        check_optional_date(as_of)
        account = self.get_account(code)
        debits, credits = storage.account_totals(self._conn, code, as_of)
        return signed_balance(account.type, debits, credits)

    def trial_balance(self, as_of: str | None = None) -> list[TrialBalanceRow]:
        """Return one row per account (sorted by code) with its net debit or credit."""
        check_optional_date(as_of)
        return [
            _trial_row(account, debits - credits)
            for account, debits, credits in storage.all_account_totals(self._conn, as_of)
        ]


def _trial_row(account: Account, net: int) -> TrialBalanceRow:
    """Place a net debit-minus-credit amount on the proper side of the trial balance."""
    return TrialBalanceRow(
        account.code, account.name, account.type, debit=max(net, 0), credit=max(-net, 0)
    )
