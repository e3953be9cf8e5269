import pytest


def test_add_account_and_list(cli):
    proc = cli("add-account", "1000", "Cash", "asset")
    assert (proc.returncode, proc.stdout) == (0, "created account 1000\n")
    cli("add-account", "0100", "Petty Cash", "asset")
    proc = cli("accounts")
    assert proc.returncode == 0
    assert proc.stdout == "0100\tasset\tPetty Cash\n1000\tasset\tCash\n"


def test_post_balance_and_amount_formats(cli_accounts):
    cli = cli_accounts
    proc = cli("post", "--date", "2024-01-01", "--description", "Investment",
               "--debit", "1000=1500", "--credit", "3000=1000.5", "--credit", "3000=499.50")
    assert (proc.returncode, proc.stdout) == (0, "posted entry 1\n"), proc.stderr
    assert cli("balance", "1000").stdout == "1500.00\n"
    assert cli("balance", "3000").stdout == "1500.00\n"
    proc = cli("post", "--date", "2024-01-20", "--description", "Pay", "--debit", "5000=1600.07",
               "--credit", "1000=1600.07")
    assert proc.stdout == "posted entry 2\n"
    assert cli("balance", "1000").stdout == "-100.07\n"
    assert cli("balance", "1000", "--as-of", "2024-01-19").stdout == "1500.00\n"


def test_cli_post_rows_in_database(cli_accounts):
    import sqlite3

    cli = cli_accounts
    cli("post", "--date", "2024-01-01", "--description", "Mixed", "--credit", "3000=0.05",
        "--debit", "1000=0.02", "--debit", "5000=0.03")
    conn = sqlite3.connect(cli.db)
    try:
        rows = conn.execute("SELECT account_code, debit, credit FROM lines ORDER BY id").fetchall()
    finally:
        conn.close()
    assert rows == [("1000", 2, 0), ("5000", 3, 0), ("3000", 0, 5)]


def test_trial_balance_output(cli_accounts):
    cli = cli_accounts
    cli("post", "--date", "2024-01-01", "--description", "Investment", "--debit", "1000=100",
        "--credit", "3000=100")
    cli("post", "--date", "2024-02-01", "--description", "Pay", "--debit", "5000=40",
        "--credit", "1000=40")
    proc = cli("trial-balance")
    assert proc.returncode == 0
    assert proc.stdout == ("1000\tCash\t60.00\t0.00\n3000\tOwner Capital\t0.00\t100.00\n"
                           "5000\tWages\t40.00\t0.00\nTOTAL\t\t100.00\t100.00\n")
    proc = cli("trial-balance", "--as-of", "2024-01-31")
    assert proc.stdout.splitlines()[-1] == "TOTAL\t\t100.00\t100.00"
    assert proc.stdout.splitlines()[2] == "5000\tWages\t0.00\t0.00"


def test_reverse_command(cli_accounts):
    cli = cli_accounts
    cli("post", "--date", "2024-01-01", "--description", "Investment", "--debit", "1000=100",
        "--credit", "3000=100")
    proc = cli("reverse", "1", "--date", "2024-01-05", "--description", "Oops")
    assert (proc.returncode, proc.stdout) == (0, "reversed entry 1 as entry 2\n")
    assert cli("balance", "1000").stdout == "0.00\n"
    assert cli("balance", "1000", "--as-of", "2024-01-04").stdout == "100.00\n"
    proc = cli("reverse", "1")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.startswith("error: ")


@pytest.mark.parametrize("args", [
    ("post", "--date", "2024-01-01", "--description", "x", "--debit", "1000=5", "--credit", "3000=4"),
    ("post", "--date", "2024-01-01", "--description", "x", "--debit", "1000=5", "--credit", "9999=5"),
    ("post", "--date", "2024-13-01", "--description", "x", "--debit", "1000=5", "--credit", "3000=5"),
    ("post", "--date", "2024-01-01", "--description", "x", "--debit", "1000=0", "--credit", "3000=0"),
    ("post", "--date", "2024-01-01", "--description", "x"),
    ("add-account", "1000", "Dup", "asset"),
    ("add-account", "7000", "Thing", "asset-ish"),
    ("balance", "9999"),
    ("balance", "1000", "--as-of", "tomorrow"),
    ("reverse", "42"),
])
def test_ledger_errors_exit_1(cli_accounts, args):
    cli = cli_accounts
    proc = cli(*args)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.startswith("error: ")


@pytest.mark.parametrize("args", [
    ("post", "--date", "2024-01-01", "--description", "x", "--debit", "1000", "--credit", "3000=5"),
    ("post", "--date", "2024-01-01", "--description", "x", "--debit", "1000=-5", "--credit", "3000=-5"),
    ("post", "--date", "2024-01-01", "--description", "x", "--debit", "1000=1.005", "--credit", "3000=1.005"),
    ("post", "--date", "2024-01-01", "--description", "x", "--debit", "=5", "--credit", "3000=5"),
    ("post", "--description", "x", "--debit", "1000=5", "--credit", "3000=5"),
    ("reverse", "one"),
    ("frobnicate",),
    (),
])
def test_usage_errors_exit_2(cli_accounts, args):
    cli = cli_accounts
    proc = cli(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""


def test_missing_db_option_exits_2():
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "ledger", "accounts"], capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 2


def test_failed_cli_post_leaves_no_entry(cli_accounts):
    cli = cli_accounts
    assert cli("post", "--date", "2024-01-01", "--description", "x", "--debit", "1000=5",
               "--credit", "3000=6").returncode == 1
    proc = cli("post", "--date", "2024-01-01", "--description", "y", "--debit", "1000=5",
               "--credit", "3000=5")
    assert proc.stdout == "posted entry 1\n"
