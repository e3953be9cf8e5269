"""`python -m ledger balance FILE [--account NAME]`."""

from __future__ import annotations

import argparse
import sys

from ledger.parse import LedgerError, read_transactions
from ledger.report import balances, format_balances


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; exit 0, or 2 with `error: ...` on stderr for a bad file."""
    parser = argparse.ArgumentParser(prog="ledger")
    commands = parser.add_subparsers(dest="command", required=True)
    balance = commands.add_parser("balance", help="balances per account")
    balance.add_argument("file")
    balance.add_argument("--account")
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8", newline="") as handle:
            totals = balances(read_transactions(handle), args.account)
    except (OSError, LedgerError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(format_balances(totals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
