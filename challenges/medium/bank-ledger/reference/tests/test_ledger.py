import sqlite3

import pytest

from ledger import (
    Account,
    AccountExistsError,
    AccountNotFoundError,
    EntryNotFoundError,
    InvalidAccountError,
    InvalidDateError,
    InvalidEntryError,
    Ledger,
    Line,
    ReversalError,
    TrialBalanceRow,
    UnbalancedEntryError,
)


def post_sale(ledger, date="2024-01-10", amount=500):
    return ledger.post_entry(
        date, "Cash sale", [Line("cash", debit=amount), Line("sales", credit=amount)]
    )


class TestAccounts:
    def test_create_and_get(self, ledger):
        assert ledger.get_account("cash") == Account("cash", "Cash", "asset")

    def test_list_sorted_by_code(self, ledger):
        codes = [a.code for a in ledger.list_accounts()]
        assert codes == sorted(codes)
        assert len(codes) == 5

    def test_duplicate_rejected(self, ledger):
        with pytest.raises(AccountExistsError):
            ledger.create_account("cash", "Other cash", "asset")

    @pytest.mark.parametrize(
        ("code", "name", "kind"),
        [("", "X", "asset"), ("a b", "X", "asset"), ("x", " ", "asset"), ("x", "X", "Asset")],
    )
    def test_invalid_fields(self, ledger, code, name, kind):
        with pytest.raises(InvalidAccountError):
            ledger.create_account(code, name, kind)

    def test_missing_account(self, ledger):
        with pytest.raises(AccountNotFoundError):
            ledger.get_account("nope")


class TestPosting:
    def test_post_returns_entry(self, ledger):
        entry = post_sale(ledger)
        assert entry.id == 1
        assert entry.total == 500
        assert ledger.get_entry(1) == entry

    def test_multi_line_entry(self, ledger):
        entry = ledger.post_entry(
            "2024-01-01",
            "Start-up",
            [Line("cash", debit=10000), Line("loan", credit=4000), Line("capital", credit=6000)],
        )
        assert len(entry.lines) == 3
        assert ledger.balance("loan") == 4000

    @pytest.mark.parametrize(
        "lines",
        [
            [],
            [Line("cash", debit=-5), Line("sales", credit=-5)],
            [Line("cash"), Line("sales")],
            [Line("cash", debit=5, credit=5), Line("sales", credit=0)],
            [Line("cash", debit=1.5), Line("sales", credit=1.5)],
            [Line("cash", debit=True), Line("sales", credit=True)],
            [("cash", 5, 0)],
        ],
    )
    def test_malformed_lines(self, ledger, lines):
        with pytest.raises(InvalidEntryError):
            ledger.post_entry("2024-01-01", "bad", lines)

    def test_unbalanced(self, ledger):
        with pytest.raises(UnbalancedEntryError):
            ledger.post_entry("2024-01-01", "bad", [Line("cash", debit=5), Line("sales", credit=4)])

    @pytest.mark.parametrize("date", ["2024-13-01", "2024-02-30", "2024/01/01", "20240101", None])
    def test_bad_date(self, ledger, date):
        with pytest.raises(InvalidDateError):
            post_sale(ledger, date=date)

    def test_unknown_account_leaves_nothing(self, ledger, tmp_path):
        with pytest.raises(AccountNotFoundError):
            ledger.post_entry("2024-01-01", "x", [Line("cash", debit=5), Line("ghost", credit=5)])
        assert ledger.list_entries() == []
        assert post_sale(ledger).id == 1

    def test_database_failure_rolls_back(self, ledger, monkeypatch):
        from ledger import storage

        original = storage.insert_entry

        def broken(conn, date, description, lines, reverses=None):
            return original(conn, date, description, [*lines, None], reverses)

        monkeypatch.setattr(storage, "insert_entry", broken)
        with pytest.raises(AttributeError):
            post_sale(ledger)
        monkeypatch.undo()
        assert ledger.list_entries() == []

    def test_missing_entry(self, ledger):
        with pytest.raises(EntryNotFoundError):
            ledger.get_entry(42)

    def test_persistence(self, tmp_path):
        path = tmp_path / "p.db"
        with Ledger(path) as book:
            book.create_account("cash", "Cash", "asset")
            book.create_account("sales", "Sales", "income")
            post_sale(book)
        with Ledger(path) as book:
            assert book.balance("cash") == 500
        rows = sqlite3.connect(path).execute("SELECT account_code, debit, credit FROM lines").fetchall()
        assert rows == [("cash", 500, 0), ("sales", 0, 500)]


class TestReporting:
    def test_balances_follow_normal_side(self, ledger):
        post_sale(ledger)
        ledger.post_entry("2024-01-15", "Rent", [Line("rent", debit=200), Line("cash", credit=200)])
        assert ledger.balance("cash") == 300
        assert ledger.balance("sales") == 500
        assert ledger.balance("rent") == 200

    def test_balance_as_of_is_inclusive(self, ledger):
        post_sale(ledger, "2024-01-10")
        post_sale(ledger, "2024-02-10", amount=100)
        assert ledger.balance("cash", as_of="2024-01-09") == 0
        assert ledger.balance("cash", as_of="2024-01-10") == 500
        assert ledger.balance("cash", as_of="2024-02-10") == 600

    def test_balance_errors(self, ledger):
        with pytest.raises(AccountNotFoundError):
            ledger.balance("ghost")
        with pytest.raises(InvalidDateError):
            ledger.balance("cash", as_of="yesterday")

    def test_trial_balance(self, ledger):
        post_sale(ledger)
        ledger.post_entry("2024-01-15", "Rent", [Line("rent", debit=700), Line("cash", credit=700)])
        rows = {row.code: row for row in ledger.trial_balance()}
        assert rows["cash"] == TrialBalanceRow("cash", "Cash", "asset", 0, 200)
        assert rows["rent"].debit == 700
        assert rows["loan"] == TrialBalanceRow("loan", "Bank loan", "liability", 0, 0)
        assert sum(r.debit for r in rows.values()) == sum(r.credit for r in rows.values())

    def test_trial_balance_as_of(self, ledger):
        post_sale(ledger, "2024-03-01")
        assert all(r.debit == r.credit == 0 for r in ledger.trial_balance(as_of="2024-02-28"))


class TestReversal:
    def test_reverse_swaps_lines(self, ledger):
        post_sale(ledger)
        reversal = ledger.reverse_entry(1)
        assert reversal.reverses == 1
        assert reversal.date == "2024-01-10"
        assert reversal.description == "Reversal of entry 1"
        assert reversal.lines == (Line("cash", credit=500), Line("sales", debit=500))
        assert ledger.balance("cash") == 0
        assert ledger.get_entry(reversal.id) == reversal

    def test_reverse_with_date_and_description(self, ledger):
        post_sale(ledger)
        reversal = ledger.reverse_entry(1, date="2024-02-01", description="Refund")
        assert (reversal.date, reversal.description) == ("2024-02-01", "Refund")
        assert ledger.balance("cash", as_of="2024-01-31") == 500

    def test_cannot_reverse_twice_or_reverse_a_reversal(self, ledger):
        post_sale(ledger)
        ledger.reverse_entry(1)
        with pytest.raises(ReversalError):
            ledger.reverse_entry(1)
        with pytest.raises(ReversalError):
            ledger.reverse_entry(2)

    def test_reverse_errors(self, ledger):
        with pytest.raises(EntryNotFoundError):
            ledger.reverse_entry(9)
        post_sale(ledger)
        with pytest.raises(InvalidDateError):
            ledger.reverse_entry(1, date="soon")
        assert len(ledger.list_entries()) == 1


def test_in_memory_database():
    book = Ledger(":memory:")
    book.create_account("cash", "Cash", "asset")
    assert book.list_accounts() == [Account("cash", "Cash", "asset")]
    book.close()
