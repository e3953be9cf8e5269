"""Tests for the Library API."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conftest import ISBN, ISBN2, START
from library import Book, Library
from library.errors import (
    DuplicateError, FinesOwedError, InvalidISBNError, LoanError, LoanLimitError, NotFoundError,
    RenewalError, ReservationError, UnavailableError, ValidationError,
)


def setup_book(lib: Library, copies: int = 1, isbn: str = ISBN) -> list[int]:
    lib.add_book(isbn, "Title", "Author")
    return [lib.add_copy(isbn) for _ in range(copies)]


def test_catalogue(lib: Library) -> None:
    assert lib.add_book("978-0-306-40615-7", " Title ", "Author") == Book(ISBN, "Title", "Author")
    with pytest.raises(DuplicateError):
        lib.add_book(ISBN, "Again", "Author")
    with pytest.raises(ValidationError):
        lib.add_book(ISBN2, "", "Author")
    with pytest.raises(InvalidISBNError):
        lib.get_book("123")
    with pytest.raises(NotFoundError):
        lib.get_book(ISBN2)
    assert [lib.add_copy(ISBN), lib.add_copy(ISBN)] == [1, 2]
    assert lib.copies(ISBN) == [1, 2]


def test_members(lib: Library) -> None:
    assert lib.add_member(" Ann ").name == "Ann"
    with pytest.raises(ValidationError):
        lib.add_member("  ")
    with pytest.raises(NotFoundError):
        lib.get_member(5)


def test_checkout_and_return(lib: Library, calendar) -> None:
    (copy,) = setup_book(lib)
    member = lib.add_member("Ann").id
    loan = lib.checkout(copy, member)
    assert loan.due_on == START + timedelta(days=14)
    assert lib.available_copies(ISBN) == []
    with pytest.raises(UnavailableError):
        lib.checkout(copy, member)
    calendar.skip(20)
    assert lib.overdue_loans() == [loan]
    returned = lib.return_copy(copy)
    assert (returned.returned_on, returned.fine_cents) == (calendar.today, 150)
    with pytest.raises(LoanError):
        lib.return_copy(copy)
    with pytest.raises(NotFoundError):
        lib.checkout(99, member)


def test_loan_limit(lib: Library) -> None:
    copies = setup_book(lib, copies=6)
    member = lib.add_member("Ann").id
    for copy in copies[:5]:
        lib.checkout(copy, member)
    with pytest.raises(LoanLimitError):
        lib.checkout(copies[5], member)
    assert len(lib.member_loans(member)) == 5


def test_fines_and_payments(lib: Library, calendar) -> None:
    copies = setup_book(lib, copies=2)
    member = lib.add_member("Ann").id
    lib.checkout(copies[0], member)
    calendar.skip(15)
    lib.return_copy(copies[0])
    assert lib.fines_owed(member) == 25
    with pytest.raises(FinesOwedError):
        lib.checkout(copies[1], member)
    for bad in (0, 26, True):
        with pytest.raises(ValidationError):
            lib.pay_fine(member, bad)
    assert lib.pay_fine(member, 25) == 0
    assert lib.checkout(copies[1], member).member_id == member


def test_renewals(lib: Library, calendar) -> None:
    (copy,) = setup_book(lib)
    ann, bob = lib.add_member("Ann").id, lib.add_member("Bob").id
    loan = lib.checkout(copy, ann)
    assert lib.renew(loan.id).due_on == START + timedelta(days=28)
    assert lib.renew(loan.id).renewals == 2
    with pytest.raises(RenewalError):
        lib.renew(loan.id)
    lib.return_copy(copy)
    with pytest.raises(LoanError):
        lib.renew(loan.id)
    loan2 = lib.checkout(copy, bob)
    lib.reserve(ISBN, ann)
    with pytest.raises(RenewalError):
        lib.renew(loan2.id)
    calendar.skip(15)
    with pytest.raises(RenewalError):
        lib.renew(loan2.id)


def test_reservation_queue(lib: Library) -> None:
    (copy,) = setup_book(lib)
    ann, bob, cy = (lib.add_member(n).id for n in ("Ann", "Bob", "Cy"))
    with pytest.raises(ReservationError):
        lib.reserve(ISBN, bob)
    lib.checkout(copy, ann)
    with pytest.raises(ReservationError):
        lib.reserve(ISBN, ann)
    lib.reserve(ISBN, bob)
    with pytest.raises(ReservationError):
        lib.reserve(ISBN, bob)
    lib.reserve(ISBN, cy)
    lib.return_copy(copy)
    with pytest.raises(UnavailableError):
        lib.checkout(copy, cy)
    lib.checkout(copy, bob)
    assert [r.member_id for r in lib.reservations(ISBN)] == [cy]
    lib.cancel_reservation(ISBN, cy)
    with pytest.raises(NotFoundError):
        lib.cancel_reservation(ISBN, cy)


def test_persistence(tmp_path, calendar) -> None:
    path = str(tmp_path / "p.db")
    with Library(path, today=calendar) as first:
        setup_book(first)
    with Library(path) as second:
        assert second.available_copies(ISBN) == [1]
