"""SQL queries and row-to-model conversion (no business rules here)."""

from __future__ import annotations

import sqlite3
from datetime import date

from library.models import Book, Loan, Member, Reservation


def _date(value: str | None) -> date | None:
    return None if value is None else date.fromisoformat(value)


def to_loan(row: sqlite3.Row) -> Loan:
    """Convert a ``loans`` row."""
    return Loan(
        id=row["id"],
        copy_id=row["copy_id"],
        member_id=row["member_id"],
        loaned_on=date.fromisoformat(row["loaned_on"]),
        due_on=date.fromisoformat(row["due_on"]),
        returned_on=_date(row["returned_on"]),
        renewals=row["renewals"],
        fine_cents=row["fine_cents"],
    )


def to_reservation(row: sqlite3.Row) -> Reservation:
    """Convert a ``reservations`` row."""
    return Reservation(row["id"], row["isbn"], row["member_id"], date.fromisoformat(row["created_on"]))


class Repository:
    """Thin data-access layer over one SQLite connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def _one(self, sql: str, *params: object) -> sqlite3.Row | None:
        return self.conn.execute(sql, params).fetchone()

    def _insert(self, sql: str, *params: object) -> int:
        return int(self.conn.execute(sql, params).lastrowid or 0)

    # books, copies, members

    def book(self, isbn: str) -> Book | None:
        row = self._one("SELECT * FROM books WHERE isbn = ?", isbn)
        return None if row is None else Book(row["isbn"], row["title"], row["author"])

    def insert_book(self, book: Book) -> None:
        self.conn.execute("INSERT INTO books (isbn, title, author) VALUES (?, ?, ?)",
                          (book.isbn, book.title, book.author))

    def copy_isbn(self, copy_id: int) -> str | None:
        row = self._one("SELECT isbn FROM copies WHERE id = ?", copy_id)
        return None if row is None else row["isbn"]

    def insert_copy(self, isbn: str) -> int:
        return self._insert("INSERT INTO copies (isbn) VALUES (?)", isbn)

    def copy_ids(self, isbn: str) -> list[int]:
        rows = self.conn.execute("SELECT id FROM copies WHERE isbn = ? ORDER BY id", (isbn,))
        return [row["id"] for row in rows]

    def available_copy_ids(self, isbn: str) -> list[int]:
        rows = self.conn.execute(
            "SELECT id FROM copies WHERE isbn = ? AND id NOT IN "
            "(SELECT copy_id FROM loans WHERE returned_on IS NULL) ORDER BY id",
            (isbn,),
        )
        return [row["id"] for row in rows]

    def member(self, member_id: int) -> Member | None:
        row = self._one("SELECT * FROM members WHERE id = ?", member_id)
        return None if row is None else Member(row["id"], row["name"])

    def insert_member(self, name: str) -> int:
        return self._insert("INSERT INTO members (name) VALUES (?)", name)

    # loans

    def loan(self, loan_id: int) -> Loan | None:
        row = self._one("SELECT * FROM loans WHERE id = ?", loan_id)
        return None if row is None else to_loan(row)

    def active_loan_for_copy(self, copy_id: int) -> Loan | None:
        row = self._one("SELECT * FROM loans WHERE copy_id = ? AND returned_on IS NULL", copy_id)
        return None if row is None else to_loan(row)

    def active_loans(self, member_id: int) -> list[Loan]:
        rows = self.conn.execute(
            "SELECT * FROM loans WHERE member_id = ? AND returned_on IS NULL ORDER BY id", (member_id,)
        )
        return [to_loan(row) for row in rows]

    def has_book_on_loan(self, member_id: int, isbn: str) -> bool:
        row = self._one(
            "SELECT 1 FROM loans JOIN copies ON copies.id = loans.copy_id "
            "WHERE loans.member_id = ? AND copies.isbn = ? AND loans.returned_on IS NULL",
            member_id, isbn,
        )
        return row is not None

    def overdue_loans(self, today: date) -> list[Loan]:
        rows = self.conn.execute(
            "SELECT * FROM loans WHERE returned_on IS NULL AND due_on < ? ORDER BY due_on, id",
            (today.isoformat(),),
        )
        return [to_loan(row) for row in rows]

    def insert_loan(self, copy_id: int, member_id: int, loaned_on: date, due_on: date) -> int:
        return self._insert(
            "INSERT INTO loans (copy_id, member_id, loaned_on, due_on) VALUES (?, ?, ?, ?)",
            copy_id, member_id, loaned_on.isoformat(), due_on.isoformat(),
        )

    def close_loan(self, loan_id: int, returned_on: date, fine_cents: int) -> None:
        self.conn.execute("UPDATE loans SET returned_on = ?, fine_cents = ? WHERE id = ?",
                          (returned_on.isoformat(), fine_cents, loan_id))

    def extend_loan(self, loan_id: int, due_on: date) -> None:
        self.conn.execute("UPDATE loans SET due_on = ?, renewals = renewals + 1 WHERE id = ?",
                          (due_on.isoformat(), loan_id))

    # reservations

    def reservations(self, isbn: str) -> list[Reservation]:
        rows = self.conn.execute("SELECT * FROM reservations WHERE isbn = ? ORDER BY id", (isbn,))
        return [to_reservation(row) for row in rows]

    def insert_reservation(self, isbn: str, member_id: int, created_on: date) -> int:
        return self._insert("INSERT INTO reservations (isbn, member_id, created_on) VALUES (?, ?, ?)",
                            isbn, member_id, created_on.isoformat())

    def delete_reservation(self, reservation_id: int) -> None:
        self.conn.execute("DELETE FROM reservations WHERE id = ?", (reservation_id,))

    # fines

    def fines_assessed(self, member_id: int) -> int:
        row = self._one("SELECT COALESCE(SUM(fine_cents), 0) AS total FROM loans WHERE member_id = ?", member_id)
        return int(row["total"]) if row else 0

    def payments_made(self, member_id: int) -> int:
        row = self._one("SELECT COALESCE(SUM(amount_cents), 0) AS total FROM payments WHERE member_id = ?",
                        member_id)
        return int(row["total"]) if row else 0

    def insert_payment(self, member_id: int, amount_cents: int, paid_on: date) -> None:
        self._insert("INSERT INTO payments (member_id, amount_cents, paid_on) VALUES (?, ?, ?)",
                     member_id, amount_cents, paid_on.isoformat())
