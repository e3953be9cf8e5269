"""`python -m ledger COMMAND FILE [options]`: the commands are the modules of `ledger.commands`."""

from __future__ import annotations

import argparse
import sys

from ledger.commands import load
from ledger.parse import LedgerError, read_transactions


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; exit 0, or 2 with `error: ...` on stderr for a bad file."""
    commands = load()
    parser = argparse.ArgumentParser(prog="ledger")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, module in commands.items():
        command = sub.add_parser(name, help=module.HELP)
        command.add_argument("file")
        module.add_arguments(command)
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8", newline="") as handle:
            text = commands[args.command].run(args, list(read_transactions(handle)))
    except (OSError, LedgerError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
