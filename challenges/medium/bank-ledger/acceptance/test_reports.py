import pytest


@pytest.fixture
def busy(book, L):
    book.post_entry("2024-01-01", "Investment", L(("1000", 100000, 0), ("3000", 0, 100000)))
    book.post_entry("2024-01-15", "Loan", L(("1000", 50000, 0), ("2000", 0, 50000)))
    book.post_entry("2024-01-31", "Invoice", L(("1100", 20000, 0), ("4000", 0, 20000)))
    book.post_entry("2024-02-01", "Payroll", L(("5000", 180000, 0), ("1000", 0, 180000)))
    return book


def test_balances_on_normal_side(busy):
    assert busy.balance("1000") == -30000
    assert busy.balance("1100") == 20000
    assert busy.balance("2000") == 50000
    assert busy.balance("3000") == 100000
    assert busy.balance("4000") == 20000
    assert busy.balance("5000") == 180000


def test_balance_as_of_inclusive(busy):
    assert busy.balance("1000", as_of="2023-12-31") == 0
    assert busy.balance("1000", as_of="2024-01-01") == 100000
    assert busy.balance("1000", as_of="2024-01-15") == 150000
    assert busy.balance("1000", as_of="2024-01-31") == 150000
    assert busy.balance("5000", as_of="2024-01-31") == 0
    assert busy.balance("1000", as_of="2024-02-01") == -30000


def test_as_of_uses_entry_date_not_posting_order(book, L):
    book.post_entry("2024-03-01", "Later", L(("1000", 7, 0), ("3000", 0, 7)))
    book.post_entry("2024-01-01", "Back-dated", L(("1000", 5, 0), ("3000", 0, 5)))
    assert book.balance("1000", as_of="2024-02-01") == 5


def test_balance_errors(lg, book):
    with pytest.raises(lg.AccountNotFoundError):
        book.balance("ghost")
    with pytest.raises(lg.InvalidDateError):
        book.balance("1000", as_of="2024-02-31")
    assert book.balance("1000") == 0


def test_trial_balance_rows(lg, busy):
    assert busy.trial_balance() == [
        lg.TrialBalanceRow("1000", "Cash", "asset", 0, 30000),
        lg.TrialBalanceRow("1100", "Receivables", "asset", 20000, 0),
        lg.TrialBalanceRow("2000", "Loan", "liability", 0, 50000),
        lg.TrialBalanceRow("3000", "Capital", "equity", 0, 100000),
        lg.TrialBalanceRow("4000", "Revenue", "income", 0, 20000),
        lg.TrialBalanceRow("5000", "Wages", "expense", 180000, 0),
    ]


def test_trial_balance_as_of_and_totals(lg, busy):
    rows = busy.trial_balance(as_of="2024-01-15")
    assert [r.code for r in rows] == ["1000", "1100", "2000", "3000", "4000", "5000"]
    by_code = {r.code: (r.debit, r.credit) for r in rows}
    assert by_code == {"1000": (150000, 0), "1100": (0, 0), "2000": (0, 50000),
                       "3000": (0, 100000), "4000": (0, 0), "5000": (0, 0)}
    assert sum(r.debit for r in rows) == sum(r.credit for r in rows) == 150000
    with pytest.raises(lg.InvalidDateError):
        busy.trial_balance(as_of="01/15/2024")


def test_reverse_entry_defaults(busy, L):
    rev = busy.reverse_entry(2)
    assert rev.id == 5
    assert rev.date == "2024-01-15"
    assert rev.description == "Reversal of entry 2"
    assert rev.reverses == 2
    assert rev.lines == tuple(L(("1000", 0, 50000), ("2000", 50000, 0)))
    assert busy.get_entry(5) == rev
    assert busy.get_entry(2).reverses is None
    assert busy.balance("2000") == 0


def test_reverse_entry_with_date_and_description(busy):
    rev = busy.reverse_entry(3, date="2024-03-01", description="Invoice cancelled")
    assert (rev.date, rev.description) == ("2024-03-01", "Invoice cancelled")
    assert busy.balance("4000", as_of="2024-02-29") == 20000
    assert busy.balance("4000") == 0


def test_reverse_errors_and_atomicity(lg, busy):
    with pytest.raises(lg.EntryNotFoundError):
        busy.reverse_entry(99)
    with pytest.raises(lg.InvalidDateError):
        busy.reverse_entry(1, date="2024-00-10")
    assert len(busy.list_entries()) == 4
    busy.reverse_entry(1)
    with pytest.raises(lg.ReversalError):
        busy.reverse_entry(1)
    with pytest.raises(lg.ReversalError):
        busy.reverse_entry(5)
    assert [e.id for e in busy.list_entries()] == [1, 2, 3, 4, 5]
