"""A lending library backed by SQLite: books, copies, members, loans, reservations and fines."""

from library.models import Book, Loan, Member, Reservation
from library.service import Library

__all__ = ["Book", "Library", "Loan", "Member", "Reservation"]
