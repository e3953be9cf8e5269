import datetime as dt

import pytest

from ledger import parse_amount, read_transactions
from ledger.parse import LedgerError


def test_plain_amounts():
    assert parse_amount("12.50") == 12.5
    assert parse_amount(" -3 ") == -3


def test_thousands_separators():
    assert float(parse_amount("1,204.10")) == pytest.approx(1204.10)


def test_reads_rows_and_skips_header():
    rows = ["date,account,amount,memo", "2024-01-02,assets:bank,100,salary", "2024-01-03,food,-12.5,"]
    got = list(read_transactions(rows))
    assert [t.account for t in got] == ["assets:bank", "food"]
    assert got[0].date == dt.date(2024, 1, 2) and got[0].memo == "salary"


def test_bad_rows_name_their_line():
    with pytest.raises(LedgerError, match="line 2"):
        list(read_transactions(["date,account,amount", "2024-13-01,x,1"]))
    with pytest.raises(LedgerError, match="line 1"):
        list(read_transactions(["2024-01-01,,1"]))
