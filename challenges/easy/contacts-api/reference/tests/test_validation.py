"""Unit tests for contacts_api.validation."""

import pytest

from contacts_api.validation import (
    ValidationError,
    is_valid_email,
    parse_json_object,
    validate_contact,
    validate_phone,
)


@pytest.mark.parametrize("raw", [b"", b"{", b"[1]", b'"x"', b"\xff"])
def test_parse_json_object_rejects(raw):
    with pytest.raises(ValidationError):
        parse_json_object(raw)


def test_parse_json_object_accepts_object():
    assert parse_json_object(b'{"a": 1}') == {"a": 1}


@pytest.mark.parametrize("email", ["a@b.co", "first.last+tag@mail.example.org"])
def test_valid_emails(email):
    assert is_valid_email(email)


@pytest.mark.parametrize(
    "email", ["", "ab.co", "@b.co", "a@", "a@b", "a@b.", "a@.b", "a@b..c", "a@@b.co", "a b@c.de",
              "a@b@c.de", "x@" + "d" * 250 + ".com"],
)
def test_invalid_emails(email):
    assert not is_valid_email(email)


def test_validate_contact_full_normalises():
    fields = validate_contact({"name": "  Ann ", "email": " Ann@Example.COM "}, partial=False)
    assert fields == {"name": "Ann", "email": "ann@example.com", "phone": None}


@pytest.mark.parametrize(
    "data",
    [{"email": "a@b.co"}, {"name": "A"}, {"name": "", "email": "a@b.co"},
     {"name": "x" * 101, "email": "a@b.co"}, {"name": 5, "email": "a@b.co"},
     {"name": "A", "email": "a@b.co", "id": 3}, {"name": "A", "email": None}],
)
def test_validate_contact_full_rejects(data):
    with pytest.raises(ValidationError):
        validate_contact(data, partial=False)


def test_validate_contact_partial_only_given_fields():
    assert validate_contact({"phone": None}, partial=True) == {"phone": None}
    assert validate_contact({}, partial=True) == {}


@pytest.mark.parametrize("phone", ["+1 (555) 010-9999", "5", " 12 "])
def test_valid_phones(phone):
    assert validate_phone(phone) == phone.strip()


@pytest.mark.parametrize("phone", ["", "   ", "abc", "+-()", "1" * 31, 12345])
def test_invalid_phones(phone):
    with pytest.raises(ValidationError):
        validate_phone(phone)
