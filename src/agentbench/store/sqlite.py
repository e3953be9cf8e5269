"""SQLite behind `store.database`: the standard library's sqlite3, one file per results folder.

Writes are `BEGIN IMMEDIATE` transactions (the write lock is taken first, so two writers queue
instead of failing half-way), with a busy timeout for the wait. The default rollback journal is
kept (not WAL): a reader can then open the file from a read-only folder, and nothing but the
`.db` file and its short-lived `-journal` ever sits beside it. sqlite3's errors become
`DatabaseError`s with what went wrong in words.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentbench.store import database
from agentbench.store.database import DatabaseError, Location, Params


class SqliteDialect:
    """How `store.database` talks to SQLite."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout

    def sql(self, text: str) -> str:
        """SQLite takes the `?` placeholders as written."""
        return text

    @contextlib.contextmanager
    def guard(self, location: Location) -> Iterator[None]:
        """Turn sqlite3 errors into `DatabaseError`."""
        try:
            yield
        except sqlite3.Error as exc:
            raise translate(exc, location.shown, self.timeout) from exc

    @contextlib.contextmanager
    def transaction(self, raw: sqlite3.Connection) -> Iterator[sqlite3.Cursor]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception (Ctrl-C included)."""
        cursor = raw.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        try:
            yield cursor
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                raw.rollback()
            raise
        raw.commit()

    def query(self, raw: sqlite3.Connection, sql: str, params: Params) -> list[tuple[Any, ...]]:
        """Rows of one query (its own read transaction)."""
        return list(raw.execute(sql, tuple(params)).fetchall())

    def lock_schema(self, writer: database.Writer) -> None:
        """Nothing to do: BEGIN IMMEDIATE already holds the write lock."""


def open_sqlite(location: Location, timeout: float, *, create: bool) -> tuple[sqlite3.Connection, SqliteDialect]:
    """Open (and with `create`, make) the SQLite file at `location`."""
    path = Path(location.target)
    if not create and not path.exists():
        raise DatabaseError(location.shown, "no such database",
                            "run `agentbench run` first (it creates it), or `agentbench db rebuild "
                            "--results DIR` to index existing run folders; see also --db")
    mode = "rwc" if create else "rw"
    if create:
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            _owner_only(path)
        except OSError as exc:
            raise database.read_only(location.shown, exc.strerror or str(exc)) from None
    elif not _writable(path):
        mode = "ro"
    dialect = SqliteDialect(timeout)
    uri = f"file:{urllib.parse.quote(str(path.absolute()))}?mode={mode}"
    with dialect.guard(location):
        raw = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None,
                              check_same_thread=False)
        raw.execute("PRAGMA foreign_keys = OFF")
    return raw, dialect


def _owner_only(path: Path) -> None:
    """Create the database file readable by its owner only, or take others' access away from an
    existing one (SQLite gives its journal files the same mode): no trial may read the results."""
    if path.is_symlink():
        return  # NOTE: the user's own arrangement; its target keeps the mode the user gave it
    fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        mode = os.fstat(fd).st_mode
        if mode & 0o077:
            with contextlib.suppress(PermissionError):  # another user's file: theirs to protect
                os.fchmod(fd, mode & 0o700)
    finally:
        os.close(fd)


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def translate(exc: sqlite3.Error, where: str, timeout: float) -> DatabaseError:
    """The `DatabaseError` for an sqlite3 error."""
    text = str(exc)
    low = text.lower()
    if "locked" in low or "busy" in low:
        return database.locked(where, timeout)
    if "readonly" in low or "read-only" in low or getattr(exc, "sqlite_errorcode", 0) == 8:
        return database.read_only(where, text)
    if "disk is full" in low or getattr(exc, "sqlite_errorcode", 0) == 13:
        return database.disk_full(where, text)
    if "not a database" in low or "malformed" in low or "disk image" in low:
        return database.corrupted(where, text)
    if "unable to open" in low:
        return _unopenable(where, text)
    return database.other(where, text)


def _unopenable(where: str, text: str) -> DatabaseError:
    folder = Path(where).parent
    if folder.is_dir() and not os.access(folder, os.W_OK):
        return database.read_only(where, f"{text}; its folder is not writable")
    return database.other(where, f"{text} (check the path and its folder's permissions)")
