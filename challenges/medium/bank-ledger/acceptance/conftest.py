import importlib
import subprocess
import sys

import pytest

ACCOUNTS = [
    ("1000", "Cash", "asset"),
    ("1100", "Receivables", "asset"),
    ("2000", "Loan", "liability"),
    ("3000", "Capital", "equity"),
    ("4000", "Revenue", "income"),
    ("5000", "Wages", "expense"),
]


@pytest.fixture
def lg():
    """The solution's ``ledger`` package (imported per test so a broken import fails tests, not collection)."""
    return importlib.import_module("ledger")


@pytest.fixture
def L(lg):
    """Build a tuple of Lines from (account, debit, credit) triples."""

    def make(*specs):
        return [lg.Line(acc, debit=dr, credit=cr) for acc, dr, cr in specs]

    return make


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "acc.db"


@pytest.fixture
def book(lg, db_path):
    ledger = lg.Ledger(str(db_path))
    for code, name, kind in ACCOUNTS:
        ledger.create_account(code, name, kind)
    yield ledger
    ledger.close()


@pytest.fixture
def cli(tmp_path):
    db = str(tmp_path / "cli.db")

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "ledger", "--db", db, *args],
            capture_output=True, text=True, timeout=30,
        )

    run.db = db
    return run


@pytest.fixture
def cli_accounts(lg, cli):
    """A CLI database pre-populated (through the library) with three accounts."""
    with lg.Ledger(cli.db) as ledger:
        ledger.create_account("1000", "Cash", "asset")
        ledger.create_account("3000", "Owner Capital", "equity")
        ledger.create_account("5000", "Wages", "expense")
    return cli
