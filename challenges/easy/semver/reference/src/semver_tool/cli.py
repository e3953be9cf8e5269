"""Command-line interface: ``python -m semver_tool {compare,bump,sort} ...``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from semver_tool.version import BUMP_PARTS, Version, compare, sort_versions

EXIT_OK = 0
EXIT_ERROR = 2


def build_parser() -> argparse.ArgumentParser:
    """Create the argument parser with its three sub-commands."""
    parser = argparse.ArgumentParser(prog="semver_tool", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    compare_cmd = commands.add_parser("compare", help="print -1, 0 or 1")
    compare_cmd.add_argument("a")
    compare_cmd.add_argument("b")
    bump_cmd = commands.add_parser("bump", help="print the bumped version")
    bump_cmd.add_argument("part", choices=BUMP_PARTS)
    bump_cmd.add_argument("version")
    sort_cmd = commands.add_parser("sort", help="sort versions read from stdin")
    sort_cmd.add_argument("--reverse", action="store_true", help="highest precedence first")
    return parser


def run_compare(args: argparse.Namespace) -> list[str]:
    """Output lines of ``compare``."""
    return [str(compare(args.a, args.b))]


def run_bump(args: argparse.Namespace) -> list[str]:
    """Output lines of ``bump``."""
    return [str(Version.parse(args.version).bump(args.part))]


def read_versions(stream: TextIO) -> list[Version]:
    """Parse one version per non-blank line; errors name the line number."""
    versions = []
    for number, line in enumerate(stream, start=1):
        text = line.strip()
        if not text:
            continue
        try:
            versions.append(Version.parse(text))
        except ValueError as exc:
            raise ValueError(f"line {number}: {exc}") from exc
    return versions


def run_sort(args: argparse.Namespace) -> list[str]:
    """Output lines of ``sort``."""
    return [str(version) for version in sort_versions(read_versions(sys.stdin), args.reverse)]


COMMANDS = {"compare": run_compare, "bump": run_bump, "sort": run_sort}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return the exit code."""
    args = build_parser().parse_args(argv)
    try:
        lines = COMMANDS[args.command](args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    for line in lines:
        print(line)
    return EXIT_OK
