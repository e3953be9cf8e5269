"""Shared fixtures for the hidden acceptance tests of medium/library-loans."""

from __future__ import annotations

import subprocess
import sys
from datetime import date, timedelta

import pytest

ISBN_A = "9780306406157"
ISBN_B = "9781861972712"
ISBN_C = "9791000000008"
D0 = date(2024, 3, 1)


class Today:
    """A date source the tests move by hand."""

    def __init__(self, current: date = D0) -> None:
        self.current = current

    def __call__(self) -> date:
        return self.current

    def advance(self, days: int) -> None:
        self.current = self.current + timedelta(days=days)


class Env:
    def __init__(self, tmp_path) -> None:
        from library import Library

        self.db_path = str(tmp_path / "library.db")
        self.today = Today()
        self.lib = Library(self.db_path, today=self.today)

    def book_with_copies(self, isbn=ISBN_A, title="Title", author="Author", copies=1):
        book = self.lib.add_book(isbn, title, author)
        return book, [self.lib.add_copy(book.isbn) for _ in range(copies)]

    def members(self, *names):
        return [self.lib.add_member(name).id for name in names]


@pytest.fixture
def env(tmp_path):
    environment = Env(tmp_path)
    yield environment
    environment.lib.close()


def run_cli(db_path, *args, today=None):
    cmd = [sys.executable, "-m", "library", "--db", str(db_path)]
    if today is not None:
        cmd += ["--today", today]
    return subprocess.run(cmd + [str(a) for a in args], capture_output=True, text=True, timeout=30)
