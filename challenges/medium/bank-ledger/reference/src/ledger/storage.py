"""SQLite schema and low-level data access for the ledger."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable

from .models import Account, Entry, Line

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    code TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('asset', 'liability', 'equity', 'income', 'expense'))
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    date TEXT NOT NULL,
    description TEXT NOT NULL,
    reverses INTEGER REFERENCES entries(id)
);
CREATE TABLE IF NOT EXISTS lines (
    id INTEGER PRIMARY KEY,
    entry_id INTEGER NOT NULL REFERENCES entries(id),
    account_code TEXT NOT NULL REFERENCES accounts(code),
    debit INTEGER NOT NULL CHECK (debit >= 0),
    credit INTEGER NOT NULL CHECK (credit >= 0)
);
CREATE INDEX IF NOT EXISTS lines_by_account ON lines(account_code);
CREATE INDEX IF NOT EXISTS lines_by_entry ON lines(entry_id);
"""

_DATE_FILTER = "(:as_of IS NULL OR e.date <= :as_of)"


def connect(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """Open (creating if needed) the database at ``path`` and ensure the schema exists."""
    conn = sqlite3.connect(os.fspath(path))
    conn.execute("PRAGMA foreign_keys = ON")
    conn.executescript(SCHEMA)
    return conn


def fetch_account(conn: sqlite3.Connection, code: str) -> Account | None:
    """Return the account with ``code`` or ``None``."""
    row = conn.execute("SELECT code, name, type FROM accounts WHERE code = ?", (code,)).fetchone()
    return Account(*row) if row else None


def fetch_accounts(conn: sqlite3.Connection) -> list[Account]:
    """Return every account ordered by code."""
    rows = conn.execute("SELECT code, name, type FROM accounts ORDER BY code").fetchall()
    return [Account(*row) for row in rows]


def insert_account(conn: sqlite3.Connection, account: Account) -> None:
    """Insert ``account`` and commit."""
    with conn:
        conn.execute(
            "INSERT INTO accounts (code, name, type) VALUES (?, ?, ?)",
            (account.code, account.name, account.type),
        )


def insert_entry(
    conn: sqlite3.Connection,
    date: str,
    description: str,
    lines: Iterable[Line],
    reverses: int | None = None,
) -> int:
    """Insert an entry and its lines in one transaction; return the new entry id."""
    with conn:
        cursor = conn.execute(
            "INSERT INTO entries (date, description, reverses) VALUES (?, ?, ?)",
            (date, description, reverses),
        )
        entry_id = int(cursor.lastrowid or 0)
        conn.executemany(
            "INSERT INTO lines (entry_id, account_code, debit, credit) VALUES (?, ?, ?, ?)",
            [(entry_id, line.account, line.debit, line.credit) for line in lines],
        )
    return entry_id


def _fetch_lines(conn: sqlite3.Connection, entry_id: int) -> tuple[Line, ...]:
    rows = conn.execute(
        "SELECT account_code, debit, credit FROM lines WHERE entry_id = ? ORDER BY id",
        (entry_id,),
    ).fetchall()
    return tuple(Line(*row) for row in rows)


def _build_entry(conn: sqlite3.Connection, row: tuple[int, str, str, int | None]) -> Entry:
    entry_id, date, description, reverses = row
    return Entry(entry_id, date, description, _fetch_lines(conn, entry_id), reverses)


def fetch_entry(conn: sqlite3.Connection, entry_id: int) -> Entry | None:
    """Return the entry with ``entry_id`` (with its lines) or ``None``."""
    row = conn.execute(
        "SELECT id, date, description, reverses FROM entries WHERE id = ?", (entry_id,)
    ).fetchone()
    return _build_entry(conn, row) if row else None


def fetch_entries(conn: sqlite3.Connection) -> list[Entry]:
    """Return every entry ordered by id."""
    rows = conn.execute("SELECT id, date, description, reverses FROM entries ORDER BY id").fetchall()
    return [_build_entry(conn, row) for row in rows]


def find_reversal(conn: sqlite3.Connection, entry_id: int) -> int | None:
    """Return the id of the entry that reverses ``entry_id``, if any."""
    row = conn.execute("SELECT id FROM entries WHERE reverses = ?", (entry_id,)).fetchone()
    return int(row[0]) if row else None


def account_totals(conn: sqlite3.Connection, code: str, as_of: str | None) -> tuple[int, int]:
    """Return ``(debits, credits)`` posted to ``code`` on or before ``as_of``."""
    row = conn.execute(
        "SELECT COALESCE(SUM(l.debit), 0), COALESCE(SUM(l.credit), 0) "
        "FROM lines l JOIN entries e ON e.id = l.entry_id "
        f"WHERE l.account_code = :code AND {_DATE_FILTER}",
        {"code": code, "as_of": as_of},
    ).fetchone()
    return int(row[0]), int(row[1])


def all_account_totals(
    conn: sqlite3.Connection, as_of: str | None
) -> list[tuple[Account, int, int]]:
    """Return ``(account, debits, credits)`` for every account, ordered by code."""
    rows = conn.execute(
        "SELECT a.code, a.name, a.type, "
        "COALESCE(SUM(t.debit), 0), COALESCE(SUM(t.credit), 0) "
        "FROM accounts a LEFT JOIN ("
        "  SELECT l.account_code, l.debit, l.credit FROM lines l "
        f"  JOIN entries e ON e.id = l.entry_id WHERE {_DATE_FILTER}"
        ") t ON t.account_code = a.code "
        "GROUP BY a.code ORDER BY a.code",
        {"as_of": as_of},
    ).fetchall()
    return [(Account(code, name, kind), int(dr), int(cr)) for code, name, kind, dr, cr in rows]
