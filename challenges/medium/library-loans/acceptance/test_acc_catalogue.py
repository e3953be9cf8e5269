"""Books, copies, members and persistence."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import ISBN_A, ISBN_B


def test_models_are_frozen_dataclasses_with_stated_fields():
    from library import Book, Loan, Member, Reservation

    expected = {
        Book: ["isbn", "title", "author"],
        Member: ["id", "name"],
        Loan: ["id", "copy_id", "member_id", "loaned_on", "due_on", "returned_on", "renewals", "fine_cents"],
        Reservation: ["id", "isbn", "member_id", "created_on"],
    }
    for cls, fields in expected.items():
        assert [f.name for f in dataclasses.fields(cls)] == fields
        assert cls.__dataclass_params__.frozen


def test_add_book_normalises_and_strips(env):
    from library import Book

    book = env.lib.add_book("978-0-306-40615-7", "  Signal Processing ", "\tOppenheim ")
    assert book == Book("9780306406157", "Signal Processing", "Oppenheim")
    assert env.lib.get_book("978 0306 40615 7") == book


def test_duplicate_book_is_rejected_in_any_spelling(env):
    from library.errors import DuplicateError

    env.lib.add_book(ISBN_A, "T", "A")
    with pytest.raises(DuplicateError):
        env.lib.add_book("978-0306406157", "Other", "Other")
    assert env.lib.get_book(ISBN_A).title == "T"


@pytest.mark.parametrize("args,error", [
    (("9780306406158", "T", "A"), "InvalidISBNError"),
    ((ISBN_A, "   ", "A"), "ValidationError"),
    ((ISBN_A, "T", ""), "ValidationError"),
])
def test_add_book_validation(env, args, error):
    from library import errors
    from library.errors import NotFoundError

    with pytest.raises(getattr(errors, error)):
        env.lib.add_book(*args)
    with pytest.raises((NotFoundError, errors.InvalidISBNError)):
        env.lib.get_book(args[0])


def test_unknown_book_lookups_raise_not_found(env):
    from library.errors import InvalidISBNError, NotFoundError

    for call in (env.lib.get_book, env.lib.add_copy, env.lib.copies, env.lib.available_copies,
                 env.lib.reservations):
        with pytest.raises(NotFoundError):
            call(ISBN_B)
    with pytest.raises(InvalidISBNError):
        env.lib.add_copy("123")


def test_copy_and_member_ids_count_from_one(env):
    env.lib.add_book(ISBN_A, "A", "A")
    env.lib.add_book(ISBN_B, "B", "B")
    assert [env.lib.add_copy(ISBN_A), env.lib.add_copy(ISBN_B), env.lib.add_copy("978-0-306-40615-7")] == [1, 2, 3]
    assert env.lib.copies(ISBN_A) == [1, 3]
    assert env.lib.available_copies(ISBN_B) == [2]
    first = env.lib.add_member("  Ada Lovelace ")
    assert (first.id, first.name) == (1, "Ada Lovelace")
    assert env.lib.add_member("Grace").id == 2
    assert env.lib.get_member(2).name == "Grace"


def test_member_validation_and_lookup(env):
    from library.errors import NotFoundError, ValidationError

    with pytest.raises(ValidationError):
        env.lib.add_member(" \n ")
    with pytest.raises(NotFoundError):
        env.lib.get_member(1)


def test_data_persists_across_instances(env):
    from library import Library

    book, copies = env.book_with_copies(copies=2)
    (member,) = env.members("Ann")
    loan = env.lib.checkout(copies[0], member)
    env.lib.close()
    with Library(env.db_path, today=env.today) as again:
        assert again.get_book(book.isbn) == book
        assert again.available_copies(book.isbn) == [copies[1]]
        assert again.get_loan(loan.id) == loan
        assert again.get_member(member).name == "Ann"
    env.lib = Library(env.db_path, today=env.today)
