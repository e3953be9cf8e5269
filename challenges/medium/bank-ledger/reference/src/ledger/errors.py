"""Exception hierarchy of the ledger package."""


class LedgerError(Exception):
    """Base class of every error raised by the ledger."""


class InvalidAccountError(LedgerError):
    """An account code, name or type is invalid."""


class AccountExistsError(LedgerError):
    """An account with the same code already exists."""


class AccountNotFoundError(LedgerError):
    """No account has the requested code."""


class InvalidDateError(LedgerError):
    """A date is not a valid ``YYYY-MM-DD`` calendar date."""


class InvalidEntryError(LedgerError):
    """A journal entry is malformed (no lines, or a bad line)."""


class UnbalancedEntryError(LedgerError):
    """The debits of a journal entry do not equal its credits."""


class EntryNotFoundError(LedgerError):
    """No journal entry has the requested id."""


class ReversalError(LedgerError):
    """The entry cannot be reversed (already reversed, or itself a reversal)."""
