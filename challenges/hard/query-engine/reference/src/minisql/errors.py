"""Exception hierarchy of minisql."""

from __future__ import annotations


class MiniSQLError(Exception):
    """Base class of every error raised by minisql."""


class SQLSyntaxError(MiniSQLError):
    """The SQL text could not be tokenized or parsed.

    ``position`` is the 0-based character offset of the offending token in the SQL text
    (``len(sql)`` when the text ended unexpectedly).
    """

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"{message} at position {position}")
        self.position = position


class QueryError(MiniSQLError):
    """A well-formed query or table definition is invalid (unknown names, type errors, ...)."""
