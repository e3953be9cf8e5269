"""Validation of request bodies for the contacts API."""

from __future__ import annotations

import json
import re
from typing import Any

ALLOWED_FIELDS = ("name", "email", "phone")
REQUIRED_FIELDS = ("name", "email")
MAX_NAME_LENGTH = 100
MAX_EMAIL_LENGTH = 254
PHONE_PATTERN = re.compile(r"[0-9 +()-]{1,30}")
DIGIT_PATTERN = re.compile(r"[0-9]")
WHITESPACE_PATTERN = re.compile(r"\s")

Fields = dict[str, Any]


class ValidationError(ValueError):
    """The request body is malformed or a field is invalid (HTTP 400)."""


def parse_json_object(raw: bytes) -> Fields:
    """Decode a UTF-8 JSON request body that must be an object."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValidationError("request body must be valid JSON") from exc
    if not isinstance(data, dict):
        raise ValidationError("request body must be a JSON object")
    return data


def _require_string(field: str, value: Any) -> str:
    """Return ``value`` stripped, or fail if it is not a string."""
    if not isinstance(value, str):
        raise ValidationError(f"{field} must be a string")
    return value.strip()


def validate_name(value: Any) -> str:
    """A name is a string of 1 to 100 characters after stripping."""
    name = _require_string("name", value)
    if not 1 <= len(name) <= MAX_NAME_LENGTH:
        raise ValidationError(f"name must be 1 to {MAX_NAME_LENGTH} characters")
    return name


def is_valid_email(email: str) -> bool:
    """Check ``local@domain`` with a dotted domain, no whitespace and at most 254 characters."""
    if len(email) > MAX_EMAIL_LENGTH or WHITESPACE_PATTERN.search(email):
        return False
    local, at, domain = email.partition("@")
    labels = domain.split(".")
    return bool(at and local) and "@" not in domain and len(labels) >= 2 and all(labels)


def validate_email(value: Any) -> str:
    """Return the stripped, lower-cased email address or fail."""
    email = _require_string("email", value).lower()
    if not is_valid_email(email):
        raise ValidationError("email is not a valid address")
    return email


def validate_phone(value: Any) -> str | None:
    """A phone is null or 1-30 characters of digits, spaces and ``+-()`` with a digit."""
    if value is None:
        return None
    phone = _require_string("phone", value)
    if not PHONE_PATTERN.fullmatch(phone) or not DIGIT_PATTERN.search(phone):
        raise ValidationError("phone may contain only digits, spaces and + - ( ), max 30")
    return phone


VALIDATORS = {"name": validate_name, "email": validate_email, "phone": validate_phone}


def validate_contact(data: Fields, *, partial: bool) -> Fields:
    """Validate and normalise contact fields.

    With ``partial=False`` (POST, PUT) ``name`` and ``email`` are required and a missing
    ``phone`` becomes ``None``; with ``partial=True`` (PATCH) only the given fields are returned.
    """
    unknown = sorted(set(data) - set(ALLOWED_FIELDS))
    if unknown:
        raise ValidationError(f"unknown field(s): {', '.join(unknown)}")
    if not partial:
        missing = [field for field in REQUIRED_FIELDS if field not in data]
        if missing:
            raise ValidationError(f"missing field(s): {', '.join(missing)}")
        data = {"phone": None, **data}
    return {field: VALIDATORS[field](value) for field, value in data.items()}
