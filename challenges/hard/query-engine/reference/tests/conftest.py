"""Shared fixtures for the minisql test suite."""

from __future__ import annotations

import pytest

from minisql import Database


@pytest.fixture
def db() -> Database:
    """A small HR-style database: departments and employees (with NULLs)."""
    database = Database()
    database.create_table(
        "dept",
        ["id", "name"],
        [(1, "Engineering"), (2, "Sales"), (3, "Legal")],
    )
    database.create_table(
        "emp",
        ["id", "name", "dept_id", "salary", "manager_id"],
        [
            (1, "Ada", 1, 120.0, None),
            (2, "Bob", 1, 100.0, 1),
            (3, "Cid", 2, 80.0, 1),
            (4, "Dee", 2, None, 3),
            (5, "Eve", None, 60.0, None),
        ],
    )
    return database
