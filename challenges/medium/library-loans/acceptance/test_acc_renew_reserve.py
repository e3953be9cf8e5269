"""Renewals and the reservation queue."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from conftest import D0, ISBN_A, ISBN_B


def test_renew_twice_from_due_date(env):
    from library.errors import RenewalError

    _, (copy,) = env.book_with_copies()
    (ann,) = env.members("Ann")
    loan = env.lib.checkout(copy, ann)
    env.today.advance(3)
    first = env.lib.renew(loan.id)
    assert (first.due_on, first.renewals) == (date(2024, 3, 29), 1)
    assert first.loaned_on == D0
    env.today.current = date(2024, 3, 29)     # renewing on the due date is allowed
    second = env.lib.renew(loan.id)
    assert (second.due_on, second.renewals) == (date(2024, 4, 12), 2)
    with pytest.raises(RenewalError):
        env.lib.renew(loan.id)
    assert env.lib.get_loan(loan.id) == second


def test_overdue_loan_cannot_be_renewed(env):
    from library.errors import RenewalError

    _, (copy,) = env.book_with_copies()
    (ann,) = env.members("Ann")
    loan = env.lib.checkout(copy, ann)
    env.today.advance(15)
    with pytest.raises(RenewalError):
        env.lib.renew(loan.id)
    assert env.lib.get_loan(loan.id).due_on == D0 + timedelta(days=14)


def test_reserved_book_cannot_be_renewed_until_cancelled(env):
    from library.errors import RenewalError

    _, (copy,) = env.book_with_copies()
    ann, bob = env.members("Ann", "Bob")
    loan = env.lib.checkout(copy, ann)
    env.lib.reserve(ISBN_A, bob)
    with pytest.raises(RenewalError):
        env.lib.renew(loan.id)
    assert env.lib.get_loan(loan.id).renewals == 0
    env.lib.cancel_reservation(ISBN_A, bob)
    assert env.lib.renew(loan.id).renewals == 1


def test_renew_errors(env):
    from library.errors import LoanError, NotFoundError

    _, (copy,) = env.book_with_copies()
    (ann,) = env.members("Ann")
    loan = env.lib.checkout(copy, ann)
    env.lib.return_copy(copy)
    with pytest.raises(LoanError):
        env.lib.renew(loan.id)
    with pytest.raises(NotFoundError):
        env.lib.renew(loan.id + 1)


def test_reserve_requires_no_free_copy(env):
    from library.errors import ReservationError

    _, copies = env.book_with_copies(copies=2)
    ann, bob, cy = env.members("Ann", "Bob", "Cy")
    with pytest.raises(ReservationError):
        env.lib.reserve(ISBN_A, cy)
    env.lib.checkout(copies[0], ann)
    with pytest.raises(ReservationError):
        env.lib.reserve(ISBN_A, cy)           # one copy still free
    env.lib.checkout(copies[1], bob)
    env.today.advance(2)
    reservation = env.lib.reserve("978-0-306-40615-7", cy)
    assert (reservation.id, reservation.isbn, reservation.member_id, reservation.created_on) == (
        1, ISBN_A, cy, D0 + timedelta(days=2))
    assert env.lib.reservations(ISBN_A) == [reservation]


def test_book_without_copies_can_be_reserved(env):
    env.lib.add_book(ISBN_B, "No copies", "Nobody")
    (ann,) = env.members("Ann")
    assert env.lib.reserve(ISBN_B, ann).member_id == ann


def test_reserve_refusals(env):
    from library.errors import NotFoundError, ReservationError

    _, (copy,) = env.book_with_copies()
    ann, bob = env.members("Ann", "Bob")
    env.lib.checkout(copy, ann)
    with pytest.raises(ReservationError):
        env.lib.reserve(ISBN_A, ann)          # has it on loan
    env.lib.reserve(ISBN_A, bob)
    with pytest.raises(ReservationError):
        env.lib.reserve(ISBN_A, bob)          # already queued
    with pytest.raises(NotFoundError):
        env.lib.reserve(ISBN_A, 99)
    with pytest.raises(NotFoundError):
        env.lib.reserve(ISBN_B, bob)
    assert [r.member_id for r in env.lib.reservations(ISBN_A)] == [bob]


def test_queue_is_served_in_order(env):
    from library.errors import UnavailableError

    _, (copy,) = env.book_with_copies()
    ann, bob, cy, dee = env.members("Ann", "Bob", "Cy", "Dee")
    env.lib.checkout(copy, ann)
    env.lib.reserve(ISBN_A, bob)
    env.lib.reserve(ISBN_A, cy)
    env.lib.return_copy(copy)
    assert env.lib.available_copies(ISBN_A) == [copy]
    for outsider in (ann, cy, dee):
        with pytest.raises(UnavailableError):
            env.lib.checkout(copy, outsider)
    env.lib.checkout(copy, bob)
    assert [r.member_id for r in env.lib.reservations(ISBN_A)] == [cy]
    env.lib.return_copy(copy)
    with pytest.raises(UnavailableError):
        env.lib.checkout(copy, bob)
    env.lib.checkout(copy, cy)
    assert env.lib.reservations(ISBN_A) == []
    env.lib.return_copy(copy)
    assert env.lib.checkout(copy, dee).member_id == dee


def test_free_copies_are_set_aside_per_queue_position(env):
    from library.errors import ReservationError, UnavailableError

    _, copies = env.book_with_copies(copies=3)
    a, b, c, q1, q2, out = env.members("A", "B", "C", "Q1", "Q2", "Out")
    for copy, member in zip(copies, (a, b, c)):
        env.lib.checkout(copy, member)
    env.lib.reserve(ISBN_A, q1)
    env.lib.reserve(ISBN_A, q2)
    env.lib.return_copy(copies[0])            # A = 1, Q = [q1, q2]
    with pytest.raises(UnavailableError):
        env.lib.checkout(copies[0], q2)       # position 2 > A
    with pytest.raises(UnavailableError):
        env.lib.checkout(copies[0], out)
    env.lib.reserve(ISBN_A, out)              # A = 1 <= len(Q) = 2: reserving is allowed
    env.lib.return_copy(copies[1])            # A = 2: q1 and q2 may borrow
    env.lib.checkout(copies[1], q2)
    env.lib.checkout(copies[0], q1)
    assert [r.member_id for r in env.lib.reservations(ISBN_A)] == [out]
    env.lib.return_copy(copies[2])            # A = 1, Q = [out]
    with pytest.raises(UnavailableError):
        env.lib.checkout(copies[2], c)
    env.lib.cancel_reservation(ISBN_A, out)   # A = 1 > len(Q) = 0
    assert env.lib.checkout(copies[2], c).member_id == c
    with pytest.raises(ReservationError):
        env.lib.reserve(ISBN_A, c)


def test_cancel_reservation(env):
    from library.errors import NotFoundError

    _, (copy,) = env.book_with_copies()
    ann, bob, cy = env.members("Ann", "Bob", "Cy")
    env.lib.checkout(copy, ann)
    env.lib.reserve(ISBN_A, bob)
    env.lib.reserve(ISBN_A, cy)
    env.lib.cancel_reservation("978 0306406157", bob)
    assert [r.member_id for r in env.lib.reservations(ISBN_A)] == [cy]
    with pytest.raises(NotFoundError):
        env.lib.cancel_reservation(ISBN_A, bob)
    with pytest.raises(NotFoundError):
        env.lib.cancel_reservation(ISBN_B, cy)
    env.lib.return_copy(copy)
    assert env.lib.checkout(copy, cy).member_id == cy
