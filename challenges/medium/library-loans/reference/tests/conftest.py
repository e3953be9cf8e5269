"""Fixtures: a library on a temporary database with a controllable date."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from library import Library

START = date(2023, 6, 1)
ISBN = "9780306406157"
ISBN2 = "9781861972712"


class Calendar:
    """Date source moved by the tests."""

    def __init__(self) -> None:
        self.today = START

    def __call__(self) -> date:
        return self.today

    def skip(self, days: int) -> None:
        self.today += timedelta(days=days)


@pytest.fixture
def calendar() -> Calendar:
    return Calendar()


@pytest.fixture
def lib(tmp_path, calendar):
    with Library(str(tmp_path / "lib.db"), today=calendar) as library:
        yield library
