"""Conversion between integer cents and decimal text."""

from __future__ import annotations

import re

_AMOUNT_RE = re.compile(r"([0-9]+)(?:\.([0-9]{1,2}))?")


def parse_amount(text: str) -> int:
    """Parse a non-negative decimal amount such as ``"10.5"`` into cents (``1050``).

    Raises:
        ValueError: if ``text`` is not digits optionally followed by ``.`` and 1-2 digits.
    """
    match = _AMOUNT_RE.fullmatch(text)
    if match is None:
        raise ValueError(f"invalid amount: {text!r}")
    units, fraction = match.group(1), match.group(2) or ""
    return int(units) * 100 + int(fraction.ljust(2, "0"))


def format_cents(cents: int) -> str:
    """Format cents as a decimal with exactly two places, e.g. ``-5`` -> ``"-0.05"``."""
    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), 100)
    return f"{sign}{units}.{rest:02d}"
