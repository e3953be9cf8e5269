"""Tests for ISBN-13 handling."""

import pytest

from library.errors import InvalidISBNError
from library.isbn import is_valid_isbn13, normalize_isbn


@pytest.mark.parametrize("raw", ["9780306406157", "978-0-306-40615-7", "978 0 306 40615 7", "9791000000008"])
def test_valid(raw: str) -> None:
    assert is_valid_isbn13(raw)


@pytest.mark.parametrize("raw", ["9780306406158", "978030640615", "9771234567898", "abc", "", "978030640615x"])
def test_invalid(raw: str) -> None:
    assert not is_valid_isbn13(raw)


def test_non_string_is_invalid() -> None:
    assert not is_valid_isbn13(9780306406157)  # type: ignore[arg-type]


def test_normalize() -> None:
    assert normalize_isbn("978-1-86197-271-2") == "9781861972712"
    with pytest.raises(InvalidISBNError):
        normalize_isbn("978-1-86197-271-3")
