"""Command-line interface: ``python -m markdown_parser [FILE]``."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from markdown_parser.converter import to_html

EXIT_OK = 0
EXIT_ERROR = 1


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser."""
    parser = argparse.ArgumentParser(
        prog="markdown_parser", description="Convert Markdown (a subset) to HTML."
    )
    parser.add_argument("file", nargs="?", default="-", help="Markdown file (default: stdin)")
    return parser


def read_source(name: str) -> str:
    """Read UTF-8 Markdown from the file ``name`` or, for ``-``, from stdin."""
    if name == "-":
        return sys.stdin.buffer.read().decode("utf-8")
    with open(name, encoding="utf-8") as handle:
        return handle.read()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit code."""
    args = build_parser().parse_args(argv)
    try:
        source = read_source(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {args.file}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.buffer.write((to_html(source) + "\n").encode("utf-8"))
    sys.stdout.flush()
    return EXIT_OK
