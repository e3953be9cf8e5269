"""Fixtures for the hidden acceptance tests of hard/query-engine."""

from __future__ import annotations

import importlib

import pytest

CUSTOMERS = (
    ["id", "name", "city", "tier"],
    [
        (1, "Alice", "Paris", "gold"),
        (2, "bob", "Berlin", None),
        (3, "Carol", "Paris", "silver"),
        (4, "Dave", None, "gold"),
        (5, "Erin", "Rome", "silver"),
    ],
)

ORDERS = (
    ["id", "customer_id", "product", "qty", "price"],
    [
        (10, 1, "pen", 3, 1.5),
        (11, 1, "book", 1, 12.0),
        (12, 2, "pen", 10, 1.25),
        (13, 3, "lamp", 1, None),
        (14, None, "pen", 2, 1.5),
        (15, 3, "book", 2, 10.0),
        (16, 9, "desk", 1, 150.0),
    ],
)

PRODUCTS = (
    ["name", "category"],
    [("pen", "office"), ("book", "media"), ("lamp", "home"), ("desk", "office")],
)


@pytest.fixture
def msql():
    """The package under test (imported lazily so an empty workspace fails every test)."""
    return importlib.import_module("minisql")


@pytest.fixture
def shop(msql):
    """A database with customers, orders and products."""
    db = msql.Database()
    db.create_table("customers", *CUSTOMERS)
    db.create_table("orders", *ORDERS)
    db.create_table("Products", *PRODUCTS)
    return db
