"""Immutable records returned by the library API."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Book:
    """A title in the catalogue, keyed by its normalised ISBN-13."""

    isbn: str
    title: str
    author: str


@dataclass(frozen=True)
class Member:
    """A library member."""

    id: int
    name: str


@dataclass(frozen=True)
class Loan:
    """A loan of one copy to one member; ``returned_on`` is None while active."""

    id: int
    copy_id: int
    member_id: int
    loaned_on: date
    due_on: date
    returned_on: date | None
    renewals: int
    fine_cents: int


@dataclass(frozen=True)
class Reservation:
    """An active place in a book's reservation queue."""

    id: int
    isbn: str
    member_id: int
    created_on: date
