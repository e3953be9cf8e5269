import pytest

from ledger import Ledger


@pytest.fixture
def ledger(tmp_path):
    with Ledger(tmp_path / "books.db") as book:
        book.create_account("cash", "Cash", "asset")
        book.create_account("loan", "Bank loan", "liability")
        book.create_account("capital", "Owner capital", "equity")
        book.create_account("sales", "Sales", "income")
        book.create_account("rent", "Rent", "expense")
        yield book
