"""Checkout, return, limits, fines and overdue loans."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from conftest import D0, ISBN_A, ISBN_B


def test_checkout_creates_a_14_day_loan(env):
    from library import Loan

    book, (copy,) = env.book_with_copies()
    (ann,) = env.members("Ann")
    loan = env.lib.checkout(copy, ann)
    assert loan == Loan(1, copy, ann, D0, date(2024, 3, 15), None, 0, 0)
    assert env.lib.get_loan(1) == loan
    assert env.lib.available_copies(book.isbn) == []
    assert env.lib.member_loans(ann) == [loan]


def test_checkout_unknown_copy_or_member(env):
    from library.errors import NotFoundError

    _, (copy,) = env.book_with_copies()
    (ann,) = env.members("Ann")
    with pytest.raises(NotFoundError):
        env.lib.checkout(99, ann)
    with pytest.raises(NotFoundError):
        env.lib.checkout(copy, 99)
    with pytest.raises(NotFoundError):
        env.lib.get_loan(1)
    with pytest.raises(NotFoundError):
        env.lib.member_loans(99)


def test_copy_on_loan_is_unavailable(env):
    from library.errors import UnavailableError

    _, (copy,) = env.book_with_copies()
    ann, bob = env.members("Ann", "Bob")
    env.lib.checkout(copy, ann)
    with pytest.raises(UnavailableError):
        env.lib.checkout(copy, bob)
    with pytest.raises(UnavailableError):
        env.lib.checkout(copy, ann)
    assert env.lib.member_loans(bob) == []


def test_five_active_loans_maximum(env):
    from library.errors import LoanLimitError

    _, copies = env.book_with_copies(copies=6)
    (ann,) = env.members("Ann")
    for copy in copies[:5]:
        env.lib.checkout(copy, ann)
    with pytest.raises(LoanLimitError):
        env.lib.checkout(copies[5], ann)
    env.lib.return_copy(copies[0])
    assert env.lib.checkout(copies[5], ann).copy_id == copies[5]
    assert [loan.copy_id for loan in env.lib.member_loans(ann)] == copies[1:6]


def test_return_on_time(env):
    book, (copy,) = env.book_with_copies()
    (ann,) = env.members("Ann")
    loan = env.lib.checkout(copy, ann)
    env.today.advance(14)
    returned = env.lib.return_copy(copy)
    assert returned.id == loan.id
    assert returned.returned_on == D0 + timedelta(days=14)
    assert returned.fine_cents == 0
    assert env.lib.available_copies(book.isbn) == [copy]
    assert env.lib.member_loans(ann) == []
    assert env.lib.fines_owed(ann) == 0


def test_return_errors(env):
    from library.errors import LoanError, NotFoundError

    _, (copy,) = env.book_with_copies()
    with pytest.raises(LoanError):
        env.lib.return_copy(copy)
    with pytest.raises(NotFoundError):
        env.lib.return_copy(42)


@pytest.mark.parametrize("late_days,fine", [(0, 0), (1, 25), (2, 50), (39, 975), (40, 1000), (41, 1000), (400, 1000)])
def test_fine_per_day_with_cap(env, late_days, fine):
    _, (copy,) = env.book_with_copies()
    (ann,) = env.members("Ann")
    env.lib.checkout(copy, ann)
    env.today.advance(14 + late_days)
    assert env.lib.return_copy(copy).fine_cents == fine
    assert env.lib.fines_owed(ann) == fine


def test_early_return_has_no_fine(env):
    _, (copy,) = env.book_with_copies()
    (ann,) = env.members("Ann")
    env.lib.checkout(copy, ann)
    env.today.advance(3)
    assert env.lib.return_copy(copy).fine_cents == 0


def test_fines_accumulate_block_borrowing_and_can_be_paid(env):
    from library.errors import FinesOwedError

    _, copies = env.book_with_copies(copies=3)
    (ann,) = env.members("Ann")
    env.lib.checkout(copies[0], ann)
    env.lib.checkout(copies[1], ann)
    env.today.advance(16)
    env.lib.return_copy(copies[0])
    env.today.advance(1)
    env.lib.return_copy(copies[1])
    assert env.lib.fines_owed(ann) == 50 + 75
    with pytest.raises(FinesOwedError):
        env.lib.checkout(copies[2], ann)
    assert env.lib.pay_fine(ann, 100) == 25
    with pytest.raises(FinesOwedError):
        env.lib.checkout(copies[2], ann)
    assert env.lib.pay_fine(ann, 25) == 0
    assert env.lib.fines_owed(ann) == 0
    assert env.lib.checkout(copies[2], ann).member_id == ann


def test_active_overdue_loans_do_not_count_as_owed(env):
    _, copies = env.book_with_copies(copies=2)
    (ann,) = env.members("Ann")
    env.lib.checkout(copies[0], ann)
    env.today.advance(30)
    assert env.lib.fines_owed(ann) == 0
    assert env.lib.checkout(copies[1], ann).loaned_on == D0 + timedelta(days=30)


@pytest.mark.parametrize("amount", [0, -5, 51, True, 10.0, "10"])
def test_invalid_payments(env, amount):
    from library.errors import ValidationError

    _, (copy,) = env.book_with_copies()
    (ann,) = env.members("Ann")
    env.lib.checkout(copy, ann)
    env.today.advance(16)
    env.lib.return_copy(copy)
    with pytest.raises(ValidationError):
        env.lib.pay_fine(ann, amount)
    assert env.lib.fines_owed(ann) == 50


def test_fines_of_unknown_member(env):
    from library.errors import NotFoundError

    with pytest.raises(NotFoundError):
        env.lib.fines_owed(7)
    with pytest.raises(NotFoundError):
        env.lib.pay_fine(7, 10)


def test_checkout_check_order(env):
    from library.errors import FinesOwedError, LoanLimitError, UnavailableError

    _, copies = env.book_with_copies(copies=6)
    _, (other,) = env.book_with_copies(ISBN_B)
    ann, bob, cy, dee = env.members("Ann", "Bob", "Cy", "Dee")
    for copy in copies[:5]:
        env.lib.checkout(copy, ann)
    env.lib.checkout(other, bob)
    env.lib.checkout(copies[5], cy)
    env.today.advance(15)
    env.lib.return_copy(other)                # bob owes 25
    with pytest.raises(UnavailableError):
        env.lib.checkout(copies[0], bob)      # copy on loan is checked before fines
    env.lib.reserve(ISBN_A, dee)
    env.lib.return_copy(copies[5])            # cy owes 25; the copy is set aside for dee
    with pytest.raises(FinesOwedError):
        env.lib.checkout(copies[5], bob)      # fines are checked before the reservation rule
    with pytest.raises(LoanLimitError):
        env.lib.checkout(copies[5], ann)      # the loan limit is checked before the reservation rule
    env.lib.pay_fine(cy, 25)
    with pytest.raises(UnavailableError):
        env.lib.checkout(copies[5], cy)       # reservation rule
    assert env.lib.checkout(copies[5], dee).member_id == dee
    assert env.lib.reservations(ISBN_A) == []


def test_overdue_loans_sorted_by_due_date_then_id(env):
    _, copies = env.book_with_copies(copies=4)
    ann, bob = env.members("Ann", "Bob")
    env.lib.checkout(copies[0], ann)          # due D0+14
    env.today.advance(2)
    env.lib.checkout(copies[1], bob)          # due D0+16
    env.lib.checkout(copies[2], ann)          # due D0+16
    env.today.advance(-2)
    env.lib.checkout(copies[3], bob)          # due D0+14, higher id
    env.today.advance(14)
    assert env.lib.overdue_loans() == []     # due today is not overdue
    env.today.advance(1)
    assert [loan.id for loan in env.lib.overdue_loans()] == [1, 4]
    env.today.advance(2)
    assert [loan.id for loan in env.lib.overdue_loans()] == [1, 4, 2, 3]
    env.lib.return_copy(copies[0])
    assert [loan.id for loan in env.lib.overdue_loans()] == [4, 2, 3]
