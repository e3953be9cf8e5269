"""Validation of decoded JSON request bodies.

Every helper raises :class:`~inventory.errors.BadRequest` with a readable message.
"""

from __future__ import annotations

import re
from typing import Any

from inventory.auth import ROLES
from inventory.errors import BadRequest

USERNAME_RE = re.compile(r"[A-Za-z0-9_.-]{3,32}")
MIN_PASSWORD_LENGTH = 8

Body = dict[str, Any]


def is_int(value: Any) -> bool:
    """True for real integers (``bool`` is rejected)."""
    return isinstance(value, int) and not isinstance(value, bool)


def text(body: Body, key: str) -> str:
    """Return ``body[key]`` as a non-empty string."""
    value = body.get(key)
    if not isinstance(value, str) or not value:
        raise BadRequest(f"'{key}' must be a non-empty string")
    return value


def username(body: Body) -> str:
    """Return a valid username (3-32 of ``A-Z a-z 0-9 _ . -``)."""
    value = body.get("username")
    if not isinstance(value, str) or not USERNAME_RE.fullmatch(value):
        raise BadRequest("'username' must be 3-32 characters of A-Z, a-z, 0-9, '_', '.', '-'")
    return value


def password(body: Body) -> str:
    """Return a password of at least eight characters."""
    value = body.get("password")
    if not isinstance(value, str) or len(value) < MIN_PASSWORD_LENGTH:
        raise BadRequest(f"'password' must be a string of at least {MIN_PASSWORD_LENGTH} characters")
    return value


def role(body: Body) -> str:
    """Return one of the known roles."""
    value = body.get("role")
    if value not in ROLES:
        raise BadRequest("'role' must be one of: " + ", ".join(ROLES))
    return value


def quantity(body: Body) -> int:
    """Return the optional initial quantity (default 0), an integer >= 0."""
    value = body.get("quantity", 0)
    if not is_int(value) or value < 0:
        raise BadRequest("'quantity' must be an integer >= 0")
    return value


def delta(body: Body) -> int:
    """Return a non-zero integer stock change."""
    value = body.get("delta")
    if not is_int(value) or value == 0:
        raise BadRequest("'delta' must be a non-zero integer")
    return value


def require_any(body: Body, keys: tuple[str, ...]) -> None:
    """Require that at least one of ``keys`` is present (PATCH bodies)."""
    if not any(key in body for key in keys):
        raise BadRequest("body must contain at least one of: " + ", ".join(keys))
