"""Validation of user input before anything touches the database."""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Sequence

from .errors import (
    InvalidAccountError,
    InvalidDateError,
    InvalidEntryError,
    UnbalancedEntryError,
)
from .models import ACCOUNT_TYPES, Line

_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def check_date(value: object) -> str:
    """Return ``value`` if it is a valid ``YYYY-MM-DD`` date string, else raise."""
    if not isinstance(value, str) or _DATE_RE.fullmatch(value) is None:
        raise InvalidDateError(f"invalid date: {value!r} (expected YYYY-MM-DD)")
    try:
        _dt.date.fromisoformat(value)
    except ValueError:
        raise InvalidDateError(f"invalid date: {value!r}") from None
    return value


def check_optional_date(value: object) -> str | None:
    """Like :func:`check_date` but ``None`` is passed through."""
    return None if value is None else check_date(value)


def check_account_fields(code: object, name: object, account_type: object) -> None:
    """Raise :class:`InvalidAccountError` unless code, name and type are acceptable."""
    if not isinstance(code, str) or not code or any(ch.isspace() for ch in code):
        raise InvalidAccountError(f"invalid account code: {code!r}")
    if not isinstance(name, str) or not name.strip():
        raise InvalidAccountError(f"invalid account name: {name!r}")
    if account_type not in ACCOUNT_TYPES:
        raise InvalidAccountError(
            f"invalid account type: {account_type!r} (expected one of {', '.join(ACCOUNT_TYPES)})"
        )


def _is_amount(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_line(line: object) -> Line:
    """Return ``line`` if it is a :class:`Line` with exactly one positive side."""
    if not isinstance(line, Line):
        raise InvalidEntryError(f"not a Line: {line!r}")
    if not (_is_amount(line.debit) and _is_amount(line.credit)):
        raise InvalidEntryError(f"amounts must be non-negative integers of cents: {line!r}")
    if (line.debit > 0) == (line.credit > 0):
        raise InvalidEntryError(f"a line needs exactly one positive amount: {line!r}")
    return line


def check_lines(lines: Sequence[Line]) -> tuple[Line, ...]:
    """Validate the shape of every line; the entry must have at least one."""
    checked = tuple(check_line(line) for line in lines)
    if not checked:
        raise InvalidEntryError("a journal entry needs at least one line")
    return checked


def check_balanced(lines: Sequence[Line]) -> None:
    """Raise :class:`UnbalancedEntryError` unless total debits equal total credits."""
    debits = sum(line.debit for line in lines)
    credits = sum(line.credit for line in lines)
    if debits != credits:
        raise UnbalancedEntryError(f"debits {debits} != credits {credits}")
