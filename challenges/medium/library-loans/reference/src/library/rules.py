"""Lending rules: loan period, limits and fines."""

from __future__ import annotations

from datetime import date, timedelta

LOAN_DAYS = 14
MAX_RENEWALS = 2
MAX_ACTIVE_LOANS = 5
FINE_PER_DAY_CENTS = 25
FINE_CAP_CENTS = 1000


def due_after(start: date) -> date:
    """The due date of a loan (or renewal) period starting at ``start``."""
    return start + timedelta(days=LOAN_DAYS)


def days_late(due_on: date, on: date) -> int:
    """Whole days past ``due_on`` at ``on`` (0 if not late)."""
    return max(0, (on - due_on).days)


def fine_for(due_on: date, returned_on: date) -> int:
    """Fine in cents for a copy returned on ``returned_on``: 25 per late day, capped at 1000."""
    return min(FINE_PER_DAY_CENTS * days_late(due_on, returned_on), FINE_CAP_CENTS)
