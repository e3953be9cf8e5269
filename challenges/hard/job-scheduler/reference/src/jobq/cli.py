"""Command-line interface: ``python -m jobq --db PATH list|status ID|cancel ID``.

The CLI opens the database with ``recover=False`` so that inspecting a queue never re-queues the job a
live worker is running.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from .errors import UnknownJobError
from .models import STATES, JobRecord
from .scheduler import Scheduler

__all__ = ["build_parser", "format_line", "main"]

Command = Callable[[Scheduler, argparse.Namespace, TextIO], int]


def format_line(record: JobRecord) -> str:
    """Format one job as a ``list`` output line."""
    return f"{record.id}\t{record.state}\t{record.name}\t{record.attempts}/{record.max_attempts}"


def _list(scheduler: Scheduler, args: argparse.Namespace, out: TextIO) -> int:
    for record in scheduler.jobs(args.state):
        print(format_line(record), file=out)
    return 0


def _status(scheduler: Scheduler, args: argparse.Namespace, out: TextIO) -> int:
    record = scheduler.status(args.id)
    print(json.dumps(dataclasses.asdict(record), indent=2, sort_keys=True), file=out)
    return 0


def _cancel(scheduler: Scheduler, args: argparse.Namespace, out: TextIO) -> int:
    if scheduler.cancel(args.id):
        print(f"cancelled {args.id}", file=out)
    else:
        state = scheduler.status(args.id).state
        print(f"job {args.id} is {state}; nothing to cancel", file=out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser (argparse exits with status 2 on usage errors)."""
    parser = argparse.ArgumentParser(prog="jobq", description="Inspect and manage a jobq database.")
    parser.add_argument("--db", required=True, metavar="PATH", help="SQLite database file")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="list jobs ordered by id")
    listing.add_argument("--state", choices=STATES, help="only jobs in this state")
    listing.set_defaults(handler=_list)
    for name, handler, text in (("status", _status, "show one job as JSON"),
                                ("cancel", _cancel, "cancel a pending job")):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("id", type=int, metavar="ID")
        sub.set_defaults(handler=handler)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the CLI and return its exit status (0 ok, 1 unknown job or missing database, 2 usage)."""
    out, err = out or sys.stdout, err or sys.stderr
    args = build_parser().parse_args(argv)
    if not Path(args.db).is_file():
        print(f"error: database not found: {args.db}", file=err)
        return 1
    with Scheduler(args.db, recover=False) as scheduler:
        try:
            command: Command = args.handler
            return command(scheduler, args, out)
        except UnknownJobError:
            print(f"error: job {args.id} not found", file=err)
            return 1
