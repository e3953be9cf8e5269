import sqlite3

import pytest


def invest(book, L, date="2024-01-01", amount=100000):
    return book.post_entry(date, "Owner investment", L(("1000", amount, 0), ("3000", 0, amount)))


def table_counts(path):
    conn = sqlite3.connect(str(path))
    try:
        return tuple(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("entries", "lines"))
    finally:
        conn.close()


def test_exception_hierarchy(lg):
    import ledger.errors

    names = ["InvalidAccountError", "AccountExistsError", "AccountNotFoundError", "InvalidDateError",
             "InvalidEntryError", "UnbalancedEntryError", "EntryNotFoundError", "ReversalError"]
    for name in names:
        cls = getattr(lg, name)
        assert issubclass(cls, lg.LedgerError)
        assert cls is getattr(ledger.errors, name)
    assert issubclass(lg.LedgerError, Exception)
    assert lg.ACCOUNT_TYPES == ("asset", "liability", "equity", "income", "expense")


def test_accounts_created_listed_and_fetched(lg, book):
    assert book.get_account("2000") == lg.Account("2000", "Loan", "liability")
    assert [a.code for a in book.list_accounts()] == ["1000", "1100", "2000", "3000", "4000", "5000"]
    assert book.create_account("0500", "Petty cash", "asset") == lg.Account("0500", "Petty cash", "asset")
    assert book.list_accounts()[0].code == "0500"


@pytest.mark.parametrize(("code", "name", "kind"), [
    ("", "Name", "asset"), ("has space", "Name", "asset"), ("9000", "", "asset"),
    ("9000", "   ", "asset"), ("9000", "Name", "Asset"), ("9000", "Name", "revenue"),
])
def test_invalid_account_rejected(lg, book, code, name, kind):
    with pytest.raises(lg.InvalidAccountError):
        book.create_account(code, name, kind)
    assert len(book.list_accounts()) == 6


def test_duplicate_account_and_missing_account(lg, book):
    with pytest.raises(lg.AccountExistsError):
        book.create_account("1000", "Other", "expense")
    assert book.get_account("1000").name == "Cash"
    with pytest.raises(lg.AccountNotFoundError):
        book.get_account("9999")


def test_post_returns_entry_with_sequential_ids(lg, book, L):
    first = invest(book, L)
    assert first == lg.Entry(1, "2024-01-01", "Owner investment",
                             tuple(L(("1000", 100000, 0), ("3000", 0, 100000))), None)
    second = book.post_entry("2024-01-02", "Split", L(("5000", 300, 0), ("1000", 0, 100), ("1000", 0, 200)))
    assert second.id == 2
    assert book.get_entry(2).lines == tuple(L(("5000", 300, 0), ("1000", 0, 100), ("1000", 0, 200)))
    assert [e.id for e in book.list_entries()] == [1, 2]


@pytest.mark.parametrize("specs", [
    [],
    [("1000", -500, 0), ("3000", 0, -500)],
    [("1000", 0, 0), ("3000", 0, 0)],
    [("1000", 500, 500), ("3000", 0, 500), ("3000", 500, 0)],
    [("1000", 5.0, 0), ("3000", 0, 5.0)],
    [("1000", "500", 0), ("3000", 0, "500")],
    [("1000", 500, 0), ("3000", 0, 600), ("3000", 0, -100)],
])
def test_malformed_entries_raise_invalid_entry(lg, book, L, specs):
    with pytest.raises(lg.InvalidEntryError):
        book.post_entry("2024-01-01", "bad", L(*specs))


def test_non_line_item_rejected(lg, book, L):
    with pytest.raises(lg.InvalidEntryError):
        book.post_entry("2024-01-01", "bad", [*L(("1000", 500, 0)), ("3000", 0, 500)])


@pytest.mark.parametrize("specs", [
    [("1000", 500, 0), ("3000", 0, 499)],
    [("1000", 500, 0)],
    [("1000", 100, 0), ("5000", 100, 0), ("3000", 0, 100)],
])
def test_unbalanced_entries(lg, book, L, specs):
    with pytest.raises(lg.UnbalancedEntryError):
        book.post_entry("2024-01-01", "bad", L(*specs))


@pytest.mark.parametrize("date", ["2024-02-30", "2023-13-01", "2024/01/01", "20240101", "2024-1-5", "", None])
def test_invalid_dates_rejected(lg, book, L, date):
    with pytest.raises(lg.InvalidDateError):
        invest(book, L, date=date)


def test_leap_day_accepted(book, L):
    assert invest(book, L, date="2024-02-29").date == "2024-02-29"


def test_unknown_account_in_entry(lg, book, L):
    with pytest.raises(lg.AccountNotFoundError):
        book.post_entry("2024-01-01", "x", L(("1000", 5, 0), ("nope", 0, 5)))


def test_failed_posts_leave_nothing_behind(lg, book, L, db_path):
    invest(book, L)
    attempts = [
        ("2024-01-05", L(("1000", 5, 0), ("nope", 0, 5))),
        ("2024-01-05", L(("1000", 5, 0), ("3000", 0, 4))),
        ("2024-01-05", L(("1000", 5, 0), ("3000", 0, 5), ("3000", 0, 0))),
        ("bad-date", L(("1000", 5, 0), ("3000", 0, 5))),
    ]
    for date, lines in attempts:
        with pytest.raises(lg.LedgerError):
            book.post_entry(date, "failing", lines)
    assert table_counts(db_path) == (1, 2)
    assert len(book.list_entries()) == 1
    assert invest(book, L, date="2024-01-06").id == 2


def test_validation_order(lg, book, L):
    with pytest.raises(lg.InvalidDateError):
        book.post_entry("nope", "x", [])
    with pytest.raises(lg.InvalidEntryError):
        book.post_entry("2024-01-01", "x", L(("ghost", -1, 0), ("1000", 0, 7)))
    with pytest.raises(lg.AccountNotFoundError):
        book.post_entry("2024-01-01", "x", L(("ghost", 1, 0), ("1000", 0, 7)))


def test_schema_and_rows(book, L, db_path):
    invest(book, L)
    book.reverse_entry(1, date="2024-01-03")
    conn = sqlite3.connect(str(db_path))
    try:
        assert conn.execute("SELECT code, name, type FROM accounts WHERE code = '5000'").fetchall() == [
            ("5000", "Wages", "expense")]
        assert conn.execute("SELECT id, date, description, reverses FROM entries ORDER BY id").fetchall() == [
            (1, "2024-01-01", "Owner investment", None),
            (2, "2024-01-03", "Reversal of entry 1", 1)]
        assert conn.execute(
            "SELECT entry_id, account_code, debit, credit FROM lines ORDER BY id").fetchall() == [
            (1, "1000", 100000, 0), (1, "3000", 0, 100000), (2, "1000", 0, 100000), (2, "3000", 100000, 0)]
    finally:
        conn.close()


def test_data_persists_across_instances(lg, book, L, db_path):
    invest(book, L)
    book.close()
    with lg.Ledger(db_path) as again:
        assert again.get_account("1000").name == "Cash"
        assert again.balance("1000") == 100000
        assert again.get_entry(1).description == "Owner investment"


def test_memory_database_and_context_manager(lg):
    with lg.Ledger(":memory:") as mem:
        assert isinstance(mem, lg.Ledger)
        assert mem.list_accounts() == []
        assert mem.list_entries() == []


def test_missing_entry(lg, book):
    with pytest.raises(lg.EntryNotFoundError):
        book.get_entry(1)


@pytest.mark.parametrize(("text", "cents"), [("0", 0), ("10", 1000), ("10.5", 1050), ("0.07", 7), ("1234.56", 123456)])
def test_parse_amount(lg, text, cents):
    assert lg.parse_amount(text) == cents


@pytest.mark.parametrize("text", ["-1", "1.234", "1.", ".5", "abc", "", "1,5", " 1"])
def test_parse_amount_rejects(lg, text):
    with pytest.raises(ValueError):
        lg.parse_amount(text)


def test_format_cents(lg):
    assert [lg.format_cents(c) for c in (123456, -5, 0, 100, -123456, 7)] == [
        "1234.56", "-0.05", "0.00", "1.00", "-1234.56", "0.07"]
