"""Command-line interface: ``python -m password_gen [options]``."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Sequence

from password_gen.generator import (
    PasswordError,
    PasswordPolicy,
    RandomSource,
    estimate_entropy,
    generate_passwords,
)

EXIT_OK = 0
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser for the CLI."""
    parser = argparse.ArgumentParser(
        prog="password_gen", description="Generate secure random passwords."
    )
    parser.add_argument("--length", type=int, default=16, help="password length (default 16)")
    parser.add_argument("--count", type=int, default=1, help="number of passwords (default 1)")
    parser.add_argument("--no-upper", action="store_true", help="exclude uppercase letters")
    parser.add_argument("--no-lower", action="store_true", help="exclude lowercase letters")
    parser.add_argument("--no-digits", action="store_true", help="exclude digits")
    parser.add_argument("--no-symbols", action="store_true", help="exclude symbols")
    parser.add_argument(
        "--exclude-ambiguous", action="store_true", help="leave out the characters Il1O0"
    )
    parser.add_argument("--entropy", action="store_true", help="print the entropy estimate")
    parser.add_argument("--seed", type=int, default=None, help="seed (reproducible, NOT secure)")
    return parser


def policy_from_args(args: argparse.Namespace) -> PasswordPolicy:
    """Translate parsed arguments into a :class:`PasswordPolicy`."""
    return PasswordPolicy(
        length=args.length,
        upper=not args.no_upper,
        lower=not args.no_lower,
        digits=not args.no_digits,
        symbols=not args.no_symbols,
        exclude_ambiguous=args.exclude_ambiguous,
    )


def _rng_from_seed(seed: int | None) -> RandomSource | None:
    """Return a seeded ``random.Random`` or None (secure default) when no seed is given."""
    return None if seed is None else random.Random(seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return the exit code."""
    args = build_parser().parse_args(argv)
    policy = policy_from_args(args)
    try:
        passwords = generate_passwords(args.count, policy, _rng_from_seed(args.seed))
        bits = estimate_entropy(policy)
    except PasswordError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for password in passwords:
        print(password)
    if args.entropy:
        print(f"entropy: {bits:.1f} bits")
    return EXIT_OK
