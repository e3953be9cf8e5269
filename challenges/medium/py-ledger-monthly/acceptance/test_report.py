from ledger import balances, format_balances, read_transactions
from ledger.__main__ import main

ROWS = ["2024-01-01,assets:bank,100,", "2024-01-02,assets:cash,20,", "2024-01-03,food,-12.5,",
        "2024-01-04,assets:bank,-30,"]


def test_balances_per_account_sorted():
    assert balances(read_transactions(ROWS)) == {"assets:bank": 70, "assets:cash": 20, "food": -12.5}


def test_account_filter_keeps_sub_accounts():
    assert list(balances(read_transactions(ROWS), "assets")) == ["assets:bank", "assets:cash"]


def test_format():
    text = format_balances({"a": 1, "bb": -2.5})
    assert text.splitlines() == ["a              1.00", "bb            -2.50", "total         -1.50"]


def test_cli(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("\n".join(ROWS) + "\n")
    assert main(["balance", str(path), "--account", "food"]) == 0
    assert capsys.readouterr().out.splitlines()[0].split() == ["food", "-12.50"]
    path.write_text("nonsense\n")
    assert main(["balance", str(path)]) == 2
