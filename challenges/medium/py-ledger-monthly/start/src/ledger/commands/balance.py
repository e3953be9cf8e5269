"""`balance FILE [--account NAME]`: balances per account, then the total."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from ledger.parse import Transaction
from ledger.report import balances, format_balances

NAME = "balance"
HELP = "balances per account"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`--account NAME` keeps that account and its sub-accounts."""
    parser.add_argument("--account")


def run(args: argparse.Namespace, transactions: Iterable[Transaction]) -> str:
    """The balance report."""
    return format_balances(balances(transactions, args.account))
