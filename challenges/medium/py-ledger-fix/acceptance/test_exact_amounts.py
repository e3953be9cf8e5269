import subprocess
import sys
from decimal import Decimal

import pytest

from ledger import balances, format_balances, parse_amount, read_transactions
from ledger.parse import LedgerError


def test_amounts_are_exact_decimals():
    assert parse_amount("0.10") == Decimal("0.10")
    assert parse_amount("1,204.10") == Decimal("1204.10")


def test_accounting_negatives():
    assert parse_amount("(12.50)") == Decimal("-12.50")
    assert parse_amount(" (1,000) ") == Decimal("-1000")


@pytest.mark.parametrize("text", ["(-5)", "()", "12..5", "1,2,3", "abc", "1e3", "nan", "(12.50"])
def test_invalid_amounts_are_refused(text):
    with pytest.raises(ValueError):
        parse_amount(text)


def test_many_small_amounts_sum_exactly():
    rows = [f"2024-01-{d:02d},fees,0.10," for d in range(1, 31)] + ["2024-02-01,fees,(3.00),"]
    assert balances(read_transactions(rows)) == {"fees": Decimal("0.00")}


def test_report_of_exact_sums():
    rows = ["2024-01-01,a,0.10,", "2024-01-02,a,0.20,", "2024-01-03,b,(0.30),"]
    totals = balances(read_transactions(rows))
    assert totals == {"a": Decimal("0.30"), "b": Decimal("-0.30")}
    assert format_balances(totals).splitlines()[-1].split() == ["total", "0.00"]


def test_bad_amount_names_its_line():
    with pytest.raises(LedgerError, match="line 2"):
        list(read_transactions(["2024-01-01,a,1,", "2024-01-02,a,(x),"]))


def test_cli_accounting_negative(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("date,account,amount,memo\n2024-01-01,rent,(950.00),jan\n2024-01-02,rent,0.05,\n")
    out = subprocess.run([sys.executable, "-m", "ledger", "balance", str(path)], capture_output=True,
                         text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].split() == ["rent", "-949.95"]
