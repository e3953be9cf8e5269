"""PostgreSQL behind `store.database`, through psycopg 3 (`pip install "agentbench[postgres]"`).

The same constant SQL as SQLite, with `?` turned into psycopg's `%s`; values always travel as
parameters. Each write is one transaction; the session's `lock_timeout` is the database timeout,
so a table held by another session fails in words instead of hanging. psycopg's errors become
`DatabaseError`s (unreachable, refused login, locked, read-only), the URL's password masked.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from agentbench.store import database
from agentbench.store.database import DatabaseError, Location, Params


class PostgresDialect:
    """How `store.database` talks to PostgreSQL."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout

    def sql(self, text: str) -> str:
        """psycopg's placeholders are `%s` (the package's SQL holds no other `?` or `%`)."""
        return text.replace("?", "%s")

    @contextlib.contextmanager
    def guard(self, location: Location) -> Iterator[None]:
        """Turn psycopg errors into `DatabaseError`."""
        import psycopg

        try:
            yield
        except psycopg.Error as exc:
            raise translate(exc, location.shown, self.timeout) from exc

    @contextlib.contextmanager
    def transaction(self, raw: Any) -> Iterator[Any]:
        """One transaction, rolled back on any exception."""
        with raw.transaction(), raw.cursor() as cursor:
            yield cursor

    def query(self, raw: Any, sql: str, params: Params) -> list[tuple[Any, ...]]:
        """Rows of one query (its own transaction, so no session is left idle in one)."""
        with raw.transaction(), raw.cursor() as cursor:
            cursor.execute(self.sql(sql), tuple(params))
            return list(cursor.fetchall())

    def lock_schema(self, writer: database.Writer) -> None:
        """Serialise schema creation between processes (released at commit)."""
        writer.query("SELECT pg_advisory_xact_lock(?)", (database.MIGRATION_LOCK,))


def open_postgres(location: Location, timeout: float) -> tuple[Any, PostgresDialect]:
    """Connect to the PostgreSQL database at `location`."""
    try:
        import psycopg
    except ImportError:
        raise DatabaseError(location.shown, "PostgreSQL needs the psycopg package, which is not "
                            "installed", 'pip install "agentbench[postgres]"') from None
    dialect = PostgresDialect(timeout)
    with dialect.guard(location):
        raw = psycopg.connect(location.target, autocommit=True,
                              connect_timeout=max(1, round(timeout)))
        with raw.cursor() as cursor:
            cursor.execute("SELECT set_config('lock_timeout', %s, false)",
                           (f"{max(1, round(timeout * 1000))}ms",))
    return raw, dialect


def translate(exc: Exception, where: str, timeout: float) -> DatabaseError:
    """The `DatabaseError` for a psycopg error."""
    from psycopg import errors

    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, errors.LockNotAvailable | errors.DeadlockDetected):
        return database.locked(where, timeout)
    if isinstance(exc, errors.ReadOnlySqlTransaction | errors.InsufficientPrivilege):
        return database.read_only(where, detail)
    if isinstance(exc, errors.DiskFull):
        return database.disk_full(where, detail)
    if isinstance(exc, errors.DataCorrupted | errors.IndexCorrupted):
        return database.corrupted(where, detail)
    if type(exc).__name__ == "OperationalError":
        return DatabaseError(where, f"cannot connect ({detail})",
                             "check that the server runs and the URL, user and password are right "
                             "(a password may also come from ~/.pgpass or PGPASSWORD); the trial "
                             "folders are intact")
    return database.other(where, detail)
