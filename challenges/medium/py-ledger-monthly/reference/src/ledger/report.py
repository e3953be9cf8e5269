"""Balances per account, and the text report."""

from __future__ import annotations

from collections.abc import Iterable

from ledger.parse import Transaction


def balances(transactions: Iterable[Transaction], account: str | None = None) -> dict[str, float]:
    """Sum of amounts per account, sorted by account name; `account` keeps that account and
    its sub-accounts (`assets` keeps `assets` and `assets:bank`)."""
    totals: dict[str, float] = {}
    for t in transactions:
        if account is None or t.account == account or t.account.startswith(account + ":"):
            totals[t.account] = totals.get(t.account, 0) + t.amount
    return dict(sorted(totals.items()))


def format_balances(totals: dict[str, float]) -> str:
    """One line per account, amounts right-aligned with two decimals, then a total line."""
    width = max([5, *(len(name) for name in totals)])
    lines = [f"{name:<{width}}  {amount:>12.2f}" for name, amount in totals.items()]
    lines.append(f"{'total':<{width}}  {sum(totals.values()):>12.2f}")
    return "\n".join(lines) + "\n"
