"""Request body parsing and validation."""

from __future__ import annotations

import json
from typing import Any

MAX_TITLE_LENGTH = 200
CREATE_FIELDS = frozenset({"title", "done"})
PATCH_FIELDS = frozenset({"title", "done"})


class ValidationError(ValueError):
    """The request body or query string is invalid (HTTP 400)."""


def parse_json_object(body: bytes) -> dict[str, Any]:
    """Decode ``body`` as a JSON object."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValidationError("request body must be valid JSON") from exc
    if not isinstance(data, dict):
        raise ValidationError("request body must be a JSON object")
    return data


def _check_fields(data: dict[str, Any], allowed: frozenset[str]) -> None:
    """Reject fields outside ``allowed``."""
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ValidationError(f"unknown field(s): {', '.join(unknown)}")


def clean_title(value: object) -> str:
    """Return the stripped title or raise if it is not a usable string."""
    if not isinstance(value, str):
        raise ValidationError("'title' must be a string")
    title = value.strip()
    if not title:
        raise ValidationError("'title' must not be empty")
    if len(title) > MAX_TITLE_LENGTH:
        raise ValidationError(f"'title' must be at most {MAX_TITLE_LENGTH} characters")
    return title


def clean_done(value: object) -> bool:
    """Return ``value`` if it is a JSON boolean."""
    if not isinstance(value, bool):
        raise ValidationError("'done' must be a boolean")
    return value


def _clean_fields(data: dict[str, Any]) -> dict[str, Any]:
    """Validate every present field and return the cleaned values."""
    cleaners = {"title": clean_title, "done": clean_done}
    return {name: cleaners[name](value) for name, value in data.items()}


def validate_create(data: dict[str, Any]) -> dict[str, Any]:
    """Validate a POST body: ``title`` required, ``done`` optional (default False)."""
    _check_fields(data, CREATE_FIELDS)
    if "title" not in data:
        raise ValidationError("'title' is required")
    return {"done": False, **_clean_fields(data)}


def validate_patch(data: dict[str, Any]) -> dict[str, Any]:
    """Validate a PATCH body: at least one of ``title`` and ``done``."""
    _check_fields(data, PATCH_FIELDS)
    if not data:
        raise ValidationError("provide at least one of 'title' and 'done'")
    return _clean_fields(data)


def parse_done_filter(values: list[str] | None) -> bool | None:
    """Translate the ``done`` query parameter (``true``/``false``) into a filter value."""
    if values is None:
        return None
    if values == ["true"]:
        return True
    if values == ["false"]:
        return False
    raise ValidationError("query parameter 'done' must be 'true' or 'false'")
