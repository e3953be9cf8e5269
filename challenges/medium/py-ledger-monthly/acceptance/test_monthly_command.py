import subprocess
import sys

import pytest

from ledger import read_transactions
from ledger.commands import load

ROWS = ["date,account,amount,memo", "2024-03-02,assets:bank,100,", "2024-01-15,food,-12.5,",
        "2024-01-31,assets:cash,20,", "2023-12-31,assets:bank,7,", "2024-03-09,food,-0.5,"]


def test_monthly_is_a_command():
    commands = load()
    assert "monthly" in commands and commands["monthly"].HELP


def test_monthly_totals_sorted_by_month():
    from ledger.commands.monthly import monthly_totals

    assert monthly_totals(read_transactions(ROWS)) == pytest.approx(
        {"2023-12": 7, "2024-01": 7.5, "2024-03": 99.5})
    assert list(monthly_totals(read_transactions(ROWS))) == ["2023-12", "2024-01", "2024-03"]


def test_monthly_account_filter_keeps_sub_accounts():
    from ledger.commands.monthly import monthly_totals

    assert monthly_totals(read_transactions(ROWS), "assets") == {"2023-12": 7, "2024-01": 20, "2024-03": 100}
    assert monthly_totals(read_transactions(ROWS), "nothing") == {}


def _cli(tmp_path, *args):
    path = tmp_path / "t.csv"
    path.write_text("\n".join(ROWS) + "\n")
    return subprocess.run([sys.executable, "-m", "ledger", "monthly", str(path), *args],
                          capture_output=True, text=True, check=False)


def test_monthly_cli(tmp_path):
    out = _cli(tmp_path)
    assert out.returncode == 0, out.stderr
    assert [line.split() for line in out.stdout.splitlines()] == [
        ["2023-12", "7.00"], ["2024-01", "7.50"], ["2024-03", "99.50"]]
    assert out.stdout.splitlines()[0] == "2023-12          7.00"


def test_monthly_cli_account(tmp_path):
    out = _cli(tmp_path, "--account", "food")
    assert [line.split() for line in out.stdout.splitlines()] == [["2024-01", "-12.50"], ["2024-03", "-0.50"]]
