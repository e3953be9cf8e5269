"""The :class:`Library` facade: every lending rule lives here."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from types import TracebackType

from library import rules
from library.db import open_db
from library.errors import (
    DuplicateError, FinesOwedError, LoanError, LoanLimitError, NotFoundError, RenewalError,
    ReservationError, UnavailableError, ValidationError,
)
from library.isbn import normalize_isbn
from library.models import Book, Loan, Member, Reservation
from library.repository import Repository


def _clean_text(value: str, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"{field} must be a non-empty string")
    return value.strip()


def _position(queue: list[Reservation], member_id: int) -> int | None:
    """1-based position of ``member_id`` in ``queue``, or None."""
    for index, reservation in enumerate(queue, start=1):
        if reservation.member_id == member_id:
            return index
    return None


class Library:
    """A lending library stored in one SQLite file.

    ``today`` is called whenever the current date is needed (default :meth:`date.today`).
    Every public method commits its changes before returning.
    """

    def __init__(self, db_path: str, today: Callable[[], date] | None = None) -> None:
        self._conn = open_db(db_path)
        self._repo = Repository(self._conn)
        self._today = today or date.today

    def close(self) -> None:
        """Close the database connection."""
        self._conn.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # --- lookups ---------------------------------------------------------------

    def get_book(self, isbn: str) -> Book:
        """Return the book with this ISBN (any accepted spelling)."""
        book = self._repo.book(normalize_isbn(isbn))
        if book is None:
            raise NotFoundError(f"no book with ISBN {isbn}")
        return book

    def get_member(self, member_id: int) -> Member:
        """Return the member with this id."""
        member = self._repo.member(member_id)
        if member is None:
            raise NotFoundError(f"no member {member_id}")
        return member

    def get_loan(self, loan_id: int) -> Loan:
        """Return the loan with this id."""
        loan = self._repo.loan(loan_id)
        if loan is None:
            raise NotFoundError(f"no loan {loan_id}")
        return loan

    def _copy_isbn(self, copy_id: int) -> str:
        isbn = self._repo.copy_isbn(copy_id)
        if isbn is None:
            raise NotFoundError(f"no copy {copy_id}")
        return isbn

    # --- catalogue and members -----------------------------------------------

    def add_book(self, isbn: str, title: str, author: str) -> Book:
        """Add a title to the catalogue."""
        book = Book(normalize_isbn(isbn), _clean_text(title, "title"), _clean_text(author, "author"))
        if self._repo.book(book.isbn) is not None:
            raise DuplicateError(f"book {book.isbn} already exists")
        with self._conn:
            self._repo.insert_book(book)
        return book

    def add_copy(self, isbn: str) -> int:
        """Add a physical copy of a book; returns the copy id."""
        book = self.get_book(isbn)
        with self._conn:
            return self._repo.insert_copy(book.isbn)

    def copies(self, isbn: str) -> list[int]:
        """Ids of all copies of a book, ascending."""
        return self._repo.copy_ids(self.get_book(isbn).isbn)

    def available_copies(self, isbn: str) -> list[int]:
        """Ids of the copies of a book that are not on loan, ascending."""
        return self._repo.available_copy_ids(self.get_book(isbn).isbn)

    def add_member(self, name: str) -> Member:
        """Register a member."""
        clean = _clean_text(name, "name")
        with self._conn:
            return Member(self._repo.insert_member(clean), clean)

    # --- loans -----------------------------------------------------------------

    def checkout(self, copy_id: int, member_id: int) -> Loan:
        """Lend a copy to a member for 14 days."""
        isbn = self._copy_isbn(copy_id)
        self.get_member(member_id)
        if self._repo.active_loan_for_copy(copy_id) is not None:
            raise UnavailableError(f"copy {copy_id} is on loan")
        self._check_borrower(member_id)
        reservation = self._claim_reservation(isbn, member_id)
        today = self._today()
        with self._conn:
            if reservation is not None:
                self._repo.delete_reservation(reservation.id)
            loan_id = self._repo.insert_loan(copy_id, member_id, today, rules.due_after(today))
        return self.get_loan(loan_id)

    def _check_borrower(self, member_id: int) -> None:
        if self.fines_owed(member_id) > 0:
            raise FinesOwedError(f"member {member_id} owes fines")
        if len(self._repo.active_loans(member_id)) >= rules.MAX_ACTIVE_LOANS:
            raise LoanLimitError(f"member {member_id} already has {rules.MAX_ACTIVE_LOANS} loans")

    def _claim_reservation(self, isbn: str, member_id: int) -> Reservation | None:
        """Apply the queue rule; return the member's reservation that this checkout fulfils."""
        queue = self._repo.reservations(isbn)
        available = len(self._repo.available_copy_ids(isbn))
        position = _position(queue, member_id)
        if position is None and available > len(queue):
            return None
        if position is not None and position <= available:
            return queue[position - 1]
        raise UnavailableError("all available copies are set aside for earlier reservations")

    def return_copy(self, copy_id: int) -> Loan:
        """Close the active loan of a copy, assessing any fine."""
        self._copy_isbn(copy_id)
        loan = self._repo.active_loan_for_copy(copy_id)
        if loan is None:
            raise LoanError(f"copy {copy_id} is not on loan")
        today = self._today()
        with self._conn:
            self._repo.close_loan(loan.id, today, rules.fine_for(loan.due_on, today))
        return self.get_loan(loan.id)

    def renew(self, loan_id: int) -> Loan:
        """Extend an active loan by 14 days from its current due date."""
        loan = self.get_loan(loan_id)
        if loan.returned_on is not None:
            raise LoanError(f"loan {loan_id} has been returned")
        self._check_renewable(loan)
        with self._conn:
            self._repo.extend_loan(loan_id, rules.due_after(loan.due_on))
        return self.get_loan(loan_id)

    def _check_renewable(self, loan: Loan) -> None:
        if loan.renewals >= rules.MAX_RENEWALS:
            raise RenewalError(f"loan {loan.id} was already renewed {rules.MAX_RENEWALS} times")
        if self._today() > loan.due_on:
            raise RenewalError(f"loan {loan.id} is overdue")
        if self._repo.reservations(self._copy_isbn(loan.copy_id)):
            raise RenewalError("the book is reserved by another member")

    def member_loans(self, member_id: int) -> list[Loan]:
        """Active loans of a member, by loan id."""
        self.get_member(member_id)
        return self._repo.active_loans(member_id)

    def overdue_loans(self) -> list[Loan]:
        """Active loans due before today, by due date then id."""
        return self._repo.overdue_loans(self._today())

    # --- reservations ------------------------------------------------------------

    def reserve(self, isbn: str, member_id: int) -> Reservation:
        """Join the reservation queue of a book."""
        book = self.get_book(isbn)
        self.get_member(member_id)
        queue = self._repo.reservations(book.isbn)
        self._check_reservable(book.isbn, member_id, queue)
        with self._conn:
            self._repo.insert_reservation(book.isbn, member_id, self._today())
        return self._repo.reservations(book.isbn)[-1]

    def _check_reservable(self, isbn: str, member_id: int, queue: list[Reservation]) -> None:
        if _position(queue, member_id) is not None:
            raise ReservationError(f"member {member_id} already reserved {isbn}")
        if self._repo.has_book_on_loan(member_id, isbn):
            raise ReservationError(f"member {member_id} has {isbn} on loan")
        if len(self._repo.available_copy_ids(isbn)) > len(queue):
            raise ReservationError(f"a copy of {isbn} is available: borrow it instead")

    def cancel_reservation(self, isbn: str, member_id: int) -> None:
        """Leave the reservation queue of a book."""
        queue = self._repo.reservations(self.get_book(isbn).isbn)
        position = _position(queue, member_id)
        if position is None:
            raise NotFoundError(f"member {member_id} has no reservation for {isbn}")
        with self._conn:
            self._repo.delete_reservation(queue[position - 1].id)

    def reservations(self, isbn: str) -> list[Reservation]:
        """The active reservation queue of a book, oldest first."""
        return self._repo.reservations(self.get_book(isbn).isbn)

    # --- fines -----------------------------------------------------------------

    def fines_owed(self, member_id: int) -> int:
        """Fines assessed on returned loans minus payments, in cents."""
        self.get_member(member_id)
        return self._repo.fines_assessed(member_id) - self._repo.payments_made(member_id)

    def pay_fine(self, member_id: int, amount_cents: int) -> int:
        """Record a payment; returns the amount still owed."""
        owed = self.fines_owed(member_id)
        if isinstance(amount_cents, bool) or not isinstance(amount_cents, int):
            raise ValidationError("amount must be an integer number of cents")
        if not 0 < amount_cents <= owed:
            raise ValidationError(f"amount must be between 1 and {owed} cents")
        with self._conn:
            self._repo.insert_payment(member_id, amount_cents, self._today())
        return owed - amount_cents
