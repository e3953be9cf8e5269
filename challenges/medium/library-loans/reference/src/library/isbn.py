"""ISBN-13 validation and normalisation."""

from __future__ import annotations

from library.errors import InvalidISBNError

PREFIXES = ("978", "979")


def _strip(raw: str) -> str:
    return raw.replace("-", "").replace(" ", "")


def _checksum_ok(digits: str) -> bool:
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits))
    return total % 10 == 0


def is_valid_isbn13(raw: str) -> bool:
    """True if ``raw`` (hyphens and spaces allowed) is a valid ISBN-13."""
    digits = _strip(raw) if isinstance(raw, str) else ""
    return (
        len(digits) == 13
        and digits.isascii()
        and digits.isdigit()
        and digits.startswith(PREFIXES)
        and _checksum_ok(digits)
    )


def normalize_isbn(raw: str) -> str:
    """Return the 13 digits of a valid ISBN-13 or raise :class:`InvalidISBNError`."""
    if not is_valid_isbn13(raw):
        raise InvalidISBNError(f"invalid ISBN-13: {raw!r}")
    return _strip(raw)
