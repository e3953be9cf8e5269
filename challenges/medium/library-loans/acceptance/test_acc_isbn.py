"""ISBN-13 validation and normalisation."""

from __future__ import annotations

import pytest

VALID = [
    ("9780306406157", "9780306406157"),
    ("978-0-306-40615-7", "9780306406157"),
    ("978 0 306 40615 7", "9780306406157"),
    ("978-1-86197-271-2", "9781861972712"),
    ("9791000000008", "9791000000008"),
    ("979-8654321015", "9798654321015"),
    ("  978-3-16-148410-0 ", "9783161484100"),
]

INVALID = [
    "9780306406158",          # wrong check digit
    "9780306406150",
    "978030640615",           # 12 digits
    "97803064061570",         # 14 digits
    "9771234567898",          # valid checksum, wrong prefix
    "0306406152",             # ISBN-10
    "978030640615X",
    "978.0.306.40615.7",      # dots are not removed
    "",
    "---",
    "\u0669\u0667\u0668" + "0306406157",  # non-ASCII digits
    "97803064061５7",          # fullwidth digit
]


@pytest.mark.parametrize("raw,expected", VALID)
def test_valid_isbns_normalise(raw, expected):
    from library.isbn import is_valid_isbn13, normalize_isbn

    assert is_valid_isbn13(raw) is True
    assert normalize_isbn(raw) == expected


@pytest.mark.parametrize("raw", INVALID)
def test_invalid_isbns_are_rejected(raw):
    from library.errors import InvalidISBNError
    from library.isbn import is_valid_isbn13, normalize_isbn

    assert is_valid_isbn13(raw) is False
    with pytest.raises(InvalidISBNError):
        normalize_isbn(raw)


def test_error_hierarchy():
    from library import errors

    assert issubclass(errors.InvalidISBNError, errors.ValidationError)
    for name in ("ValidationError", "NotFoundError", "DuplicateError", "UnavailableError", "LoanLimitError",
                 "FinesOwedError", "LoanError", "RenewalError", "ReservationError"):
        assert issubclass(getattr(errors, name), errors.LibraryError)
    assert issubclass(errors.LibraryError, Exception)
    assert not issubclass(errors.NotFoundError, errors.ValidationError)
