"""Balances and reports from a transactions CSV."""

from ledger.parse import Transaction, parse_amount, read_transactions
from ledger.report import balances, format_balances

__all__ = ["Transaction", "balances", "format_balances", "parse_amount", "read_transactions"]
