"""Opening a results database: the backend its location names (SQLite or PostgreSQL), then the
schema brought up to date. The backends import the shared types from `database`; only this module
imports the backends, so `database` stays free of them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentbench.store import schema
from agentbench.store.database import (
    KEEP,
    Connection,
    DatabaseError,
    Dialect,
    Location,
    Writer,
    timeout_s,
)
from agentbench.store.postgres import open_postgres
from agentbench.store.sqlite import open_sqlite


def connect(location: Location, *, create: bool) -> Connection:
    """Open the database at `location` with its schema up to date.

    `create=False` (the read commands) refuses a missing SQLite file instead of creating an empty one.
    """
    raw: Any
    dialect: Dialect
    if location.kind == "postgresql":
        raw, dialect = open_postgres(location, timeout_s())
    else:
        raw, dialect = open_sqlite(location, timeout_s(), create=create)
    connection = Connection(location, raw, dialect)
    try:
        migrate(connection)
    except BaseException:
        connection.close()
        raise
    return connection


def migrate(connection: Connection, steps: Sequence[tuple[str, ...]] = schema.MIGRATIONS) -> int:
    """Bring the schema to the newest version `steps` describe, in one transaction; its version.

    A database from a newer AgentBench is refused unchanged. Two processes migrating at once are
    serialised (SQLite: the write lock; PostgreSQL: an advisory lock), so the steps run once.
    """
    target = len(steps)
    version = schema_version(connection)
    if version == target:
        return version
    _refuse_newer(connection, version, target)
    with connection.write() as writer:
        connection._dialect.lock_schema(writer)
        version = _version_in(writer, connection.kind)
        _refuse_newer(connection, version, target)
        for reached, statements in schema.pending(version, steps):
            for statement in statements:
                writer.execute(statement)
            writer.execute(schema.SET_META, ("schema_version", str(reached)))
    return target


def schema_version(connection: Connection) -> int:
    """The schema version of the database (0: empty, no AgentBench table yet)."""
    if not connection.query(schema.HAS_META[connection.kind])[0][0]:
        return 0
    return _parse_version(connection, connection.query(schema.READ_VERSION))


def _version_in(writer: Writer, kind: str) -> int:
    if not writer.query(schema.HAS_META[kind])[0][0]:
        return 0
    rows = writer.query(schema.READ_VERSION)
    return int(rows[0][0]) if rows and str(rows[0][0]).isdigit() else 0


def _parse_version(connection: Connection, rows: list[tuple[Any, ...]]) -> int:
    if not rows or not str(rows[0][0]).isdigit():
        raise DatabaseError(connection.location.shown, "it has no readable schema version",
                            f"it was not written by AgentBench; {KEEP}: move it aside and run "
                            "`agentbench db rebuild`, or use another --db")
    return int(rows[0][0])


def _refuse_newer(connection: Connection, version: int, target: int) -> None:
    if version > target:
        raise DatabaseError(
            connection.location.shown,
            f"its schema version is {version}, written by a newer AgentBench (this one knows "
            f"versions up to {target})",
            "upgrade AgentBench (pip install -U agentbench), or use another --db; nothing was "
            f"changed and {KEEP}")
