import runpy
import subprocess
import sys

import pytest

from ledger.cli import main


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "cli.db")
    assert main(["--db", path, "add-account", "cash", "Cash", "asset"]) == 0
    assert main(["--db", path, "add-account", "sales", "Sales", "income"]) == 0
    return path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_add_account_output(capsys, tmp_path):
    code, out, _ = run(capsys, "--db", str(tmp_path / "x.db"), "add-account", "cash", "Cash", "asset")
    assert (code, out) == (0, "created account cash\n")


def test_accounts_listing(capsys, db):
    capsys.readouterr()
    code, out, _ = run(capsys, "--db", db, "accounts")
    assert code == 0
    assert out.splitlines() == ["cash\tasset\tCash", "sales\tincome\tSales"]


def test_post_and_balance(capsys, db):
    capsys.readouterr()
    code, out, _ = run(
        capsys, "--db", db, "post", "--date", "2024-01-05", "--description", "Sale",
        "--debit", "cash=12.5", "--credit", "sales=12.50",
    )
    assert (code, out) == (0, "posted entry 1\n")
    assert run(capsys, "--db", db, "balance", "cash")[1] == "12.50\n"
    assert run(capsys, "--db", db, "balance", "cash", "--as-of", "2024-01-04")[1] == "0.00\n"


def test_trial_balance_output(capsys, db):
    main(["--db", db, "post", "--date", "2024-01-05", "--description", "Sale",
          "--debit", "cash=3", "--credit", "sales=3"])
    capsys.readouterr()
    code, out, _ = run(capsys, "--db", db, "trial-balance")
    assert code == 0
    assert out.splitlines() == [
        "cash\tCash\t3.00\t0.00",
        "sales\tSales\t0.00\t3.00",
        "TOTAL\t\t3.00\t3.00",
    ]


def test_reverse_command(capsys, db):
    main(["--db", db, "post", "--date", "2024-01-05", "--description", "Sale",
          "--debit", "cash=3", "--credit", "sales=3"])
    capsys.readouterr()
    code, out, _ = run(capsys, "--db", db, "reverse", "1", "--date", "2024-01-06")
    assert (code, out) == (0, "reversed entry 1 as entry 2\n")
    assert run(capsys, "--db", db, "balance", "sales")[1] == "0.00\n"


def test_ledger_errors_exit_1(capsys, db):
    capsys.readouterr()
    code, out, err = run(
        capsys, "--db", db, "post", "--date", "2024-01-05", "--description", "Bad",
        "--debit", "cash=3", "--credit", "sales=2",
    )
    assert (code, out) == (1, "")
    assert err.startswith("error: ")
    assert run(capsys, "--db", db, "balance", "ghost")[0] == 1


@pytest.mark.parametrize("spec", ["cash", "cash=-1", "cash=1.234", "=5"])
def test_bad_line_spec_exits_2(capsys, db, spec):
    with pytest.raises(SystemExit) as exc:
        main(["--db", db, "post", "--date", "2024-01-05", "--description", "x", "--debit", spec])
    assert exc.value.code == 2


def test_module_entry_point(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "ledger", "--db", str(tmp_path / "m.db"), "accounts"],
        capture_output=True, text=True,
    )
    assert (proc.returncode, proc.stdout) == (0, "")


def test_module_entry_point_in_process(tmp_path, monkeypatch, capsys):
    """`python -m ledger` once more, in the test process (where coverage is measured)."""
    monkeypatch.setattr(sys, "argv", ["ledger", "--db", str(tmp_path / "m.db"), "accounts"])
    monkeypatch.delitem(sys.modules, "ledger.__main__", raising=False)
    with pytest.raises(SystemExit) as info:
        runpy.run_module("ledger", run_name="__main__")
    assert (info.value.code, capsys.readouterr().out) == (0, "")
