"""The connection to the results database: SQLite (standard library) or PostgreSQL (psycopg), one interface.

`locate(db, results_dir)` says where the database is: `--db` if given, else `$AGENTBENCH_DB`, else
`<results>/agentbench.db` (SQLite). `connect(location, create=...)` opens it, brings its schema up to
date (`store.schema`) and returns a `Connection`, whose `write()` is one transaction and whose
`query()` reads. Every SQL text is a constant of this package; values are always parameters.

Whatever goes wrong with the database (locked past the timeout, read-only, corrupted, written by a
newer AgentBench, unreachable) becomes one `DatabaseError` saying what, where and what to do; the
trial folders, which are the source of truth, are never touched here.
"""

from __future__ import annotations

import contextlib
import os
import threading
import urllib.parse
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from agentbench.errors import RunError, UsageError
from agentbench.records import valid_text

DB_NAME = "agentbench.db"
"""File name of the default SQLite database inside a results folder."""
DB_ENV = "AGENTBENCH_DB"
"""Environment variable naming the database when `--db` is not given."""
TIMEOUT_ENV = "AGENTBENCH_DB_TIMEOUT"
"""Environment variable: seconds to wait for a locked database (default 30)."""
DEFAULT_TIMEOUT_S = 30.0
MIGRATION_LOCK = 7_246_915_201
"""PostgreSQL advisory-lock key held while a schema is created or migrated."""

Params = Sequence[Any]


class DatabaseError(RunError):
    """The results database cannot be used: locked, read-only, corrupted, newer, or unreachable."""

    def __init__(self, where: str, problem: str, hint: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"results database {where}: {problem}", hint)


KEEP = "the trial folders are intact"


@dataclass(frozen=True, slots=True, kw_only=True)
class Location:
    """Where the results database is."""

    kind: str
    """`sqlite` or `postgresql`."""
    target: str
    """The SQLite file's path, or the PostgreSQL connection URL (may hold a password)."""

    @property
    def shown(self) -> str:
        """The location as it may be printed: a URL's password is masked."""
        if self.kind == "sqlite":
            return self.target
        return mask_password(self.target)


def mask_password(url: str) -> str:
    """`url` with any password replaced by `***`."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


REMEMBERED_NAME = "database.txt"
"""In a results folder indexed in a database other than its own agentbench.db: that database's URL
(without a password: PostgreSQL then takes it from PGPASSWORD or ~/.pgpass) or absolute path."""


def remembered(results_dir: Path) -> str | None:
    """The database `results_dir` was last indexed in, when not its own agentbench.db."""
    try:
        value = (results_dir / REMEMBERED_NAME).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return value or None


def to_remember(location: Location) -> str:
    """What `remembered` should give back for `location`: its URL without the password, or the
    SQLite file's absolute path."""
    if location.kind == "sqlite":
        return str(Path(location.target).absolute())
    parts = urllib.parse.urlsplit(location.target)
    if parts.password is None:
        return location.target
    host = parts.netloc.rsplit("@", 1)[1]
    user = f"{parts.username}@" if parts.username else ""
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}{host}"))


def locate(db: str | None, results_dir: Path) -> Location:
    """The database named by `db`, else by `$AGENTBENCH_DB`, else the one `results_dir` remembers
    being indexed in (`database.txt`), else `<results_dir>/agentbench.db`."""
    value = db or os.environ.get(DB_ENV) or remembered(results_dir) or str(results_dir / DB_NAME)
    if value.startswith(("postgresql://", "postgres://")):
        return Location(kind="postgresql", target=value)
    if value.startswith("sqlite:///"):
        return Location(kind="sqlite", target=value.removeprefix("sqlite:///") or DB_NAME)
    if "://" in value:
        raise UsageError(f"unknown database URL scheme in {mask_password(value)!r}",
                         "use a file path (SQLite), sqlite:///PATH or postgresql://USER@HOST/DB")
    return Location(kind="sqlite", target=value)


def timeout_s() -> float:
    """Seconds to wait for a locked database: `$AGENTBENCH_DB_TIMEOUT`, else 30."""
    raw = os.environ.get(TIMEOUT_ENV)
    try:
        return float(raw) if raw else DEFAULT_TIMEOUT_S
    except ValueError:
        raise UsageError(f"{TIMEOUT_ENV}={raw!r} is not a number of seconds", "e.g. 30") from None


class Writer(Protocol):
    """What a write transaction offers."""

    def execute(self, sql: str, params: Params = ()) -> None:
        """Run one statement."""

    def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement per row."""

    def query(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        """Rows of a query, inside the transaction."""


class Connection:
    """An open results database (thread-safe: one operation at a time)."""

    def __init__(self, location: Location, raw: Any, dialect: Dialect) -> None:
        self.location = location
        self._raw = raw
        self._dialect = dialect
        self._lock = threading.Lock()

    @property
    def kind(self) -> str:
        """`sqlite` or `postgresql`."""
        return self.location.kind

    @contextlib.contextmanager
    def write(self) -> Iterator[Writer]:
        """One transaction: every statement in it is kept, or none is."""
        with self._lock, self._dialect.guard(self.location), self._dialect.transaction(self._raw) as cur:
            yield _Cursor(cur, self._dialect)

    def query(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        """The rows of one query."""
        with self._lock, self._dialect.guard(self.location):
            return self._dialect.query(self._raw, sql, params)

    def close(self) -> None:
        """Close the connection (errors on close are ignored: nothing is pending)."""
        with self._lock, contextlib.suppress(Exception):
            self._raw.close()


class _Cursor:
    def __init__(self, cursor: Any, dialect: Dialect) -> None:
        self._cursor = cursor
        self._dialect = dialect

    def execute(self, sql: str, params: Params = ()) -> None:
        self._cursor.execute(self._dialect.sql(sql), _valid(params))

    def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        self._cursor.executemany(self._dialect.sql(sql), [_valid(r) for r in rows])

    def query(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        self._cursor.execute(self._dialect.sql(sql), _valid(params))
        return list(self._cursor.fetchall())


def _valid(params: Params) -> tuple[Any, ...]:
    """Parameters with every text valid UTF-8 (an undecodable file name escaped, never a crash)."""
    return tuple(valid_text(p) if isinstance(p, str) else p for p in params)


class Dialect(Protocol):
    def sql(self, text: str) -> str: ...
    def guard(self, location: Location) -> contextlib.AbstractContextManager[None]: ...
    def transaction(self, raw: Any) -> contextlib.AbstractContextManager[Any]: ...
    def query(self, raw: Any, sql: str, params: Params) -> list[tuple[Any, ...]]: ...
    def lock_schema(self, writer: Writer) -> None: ...


def locked(where: str, waited: float) -> DatabaseError:
    """The database stayed locked by another process past the timeout."""
    return DatabaseError(where, f"locked by another process (waited {waited:g} s)",
                         f"{KEEP}; wait for the other run or command to end (or set "
                         f"{TIMEOUT_ENV}=SECONDS), then `agentbench run --resume RUN_ID` or "
                         "`agentbench db rebuild` brings the database up to date")


def read_only(where: str, detail: str) -> DatabaseError:
    """The database (or its folder) cannot be written."""
    return DatabaseError(where, f"cannot write it: read-only ({detail})",
                         "make the database and its folder writable by this user, or point --db / "
                         f"{DB_ENV} elsewhere; {KEEP} and `agentbench db rebuild` re-indexes them")


def disk_full(where: str, detail: str) -> DatabaseError:
    """The disk holding the database is full."""
    return DatabaseError(where, f"cannot write it: no space left on device ({detail})",
                         f"free some space (or point --db / {DB_ENV} elsewhere); {KEEP} and "
                         "`agentbench run --resume RUN_ID` or `agentbench db rebuild` catches up")


def corrupted(where: str, detail: str) -> DatabaseError:
    """The file is not a database, or its pages are damaged."""
    return DatabaseError(where, f"corrupted or not a database ({detail})",
                         f"{KEEP}: `agentbench db rebuild` moves the broken file aside and "
                         "re-indexes them")


def other(where: str, detail: str) -> DatabaseError:
    """Any other database failure, with the driver's own words."""
    return DatabaseError(where, detail, f"{KEEP}; once the database works again, "
                         "`agentbench db rebuild` re-indexes them")
