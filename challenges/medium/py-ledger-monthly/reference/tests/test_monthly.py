from ledger import read_transactions
from ledger.commands.monthly import monthly_totals


def test_monthly_totals():
    rows = ["2024-01-05,a,10,", "2024-02-01,a,-4,", "2024-01-20,b,2.5,"]
    assert monthly_totals(read_transactions(rows)) == {"2024-01": 12.5, "2024-02": -4}
