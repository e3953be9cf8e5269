"""Password hashing, signed bearer tokens and the role permission table.

Password hashes use the format ``pbkdf2_sha256$<iterations>$<salt_hex>$<hash_hex>``.
Tokens are ``<payload>.<signature>`` where ``payload`` is the unpadded base64url
encoding of the JSON object ``{"sub": username, "exp": unix_seconds}`` and
``signature`` is the unpadded base64url HMAC-SHA256 of the payload part's ASCII
bytes, keyed with the UTF-8 bytes of the server secret.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
from typing import Any

ALGORITHM = "pbkdf2_sha256"
DEFAULT_ITERATIONS = 200_000
SALT_BYTES = 16
TOKEN_TTL = 3600

ROLES: tuple[str, ...] = ("admin", "clerk", "viewer")

READ = "read"
ADJUST = "adjust"
MANAGE_ITEMS = "manage_items"
MANAGE_USERS = "manage_users"

PERMISSIONS: dict[str, frozenset[str]] = {
    READ: frozenset({"admin", "clerk", "viewer"}),
    ADJUST: frozenset({"admin", "clerk"}),
    MANAGE_ITEMS: frozenset({"admin"}),
    MANAGE_USERS: frozenset({"admin"}),
}


class TokenError(Exception):
    """A token is malformed, wrongly signed or expired."""


def is_allowed(role: str, permission: str) -> bool:
    """Return whether ``role`` holds ``permission``."""
    return role in PERMISSIONS.get(permission, frozenset())


# --- passwords -------------------------------------------------------------


def _derive(password: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, iterations)


def hash_password(
    password: str, *, iterations: int = DEFAULT_ITERATIONS, salt: bytes | None = None
) -> str:
    """Hash ``password`` with PBKDF2-HMAC-SHA256 and a random 16-byte salt."""
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    digest = _derive(password, salt, iterations)
    return f"{ALGORITHM}${iterations}${salt.hex()}${digest.hex()}"


def _parse_hash(encoded: str) -> tuple[int, bytes, bytes]:
    """Split an encoded hash into (iterations, salt, digest); ValueError if malformed."""
    algorithm, iterations, salt_hex, digest_hex = encoded.split("$")
    rounds = int(iterations)
    if algorithm != ALGORITHM or rounds < 1:
        raise ValueError("unsupported password hash")
    return rounds, bytes.fromhex(salt_hex), bytes.fromhex(digest_hex)


def verify_password(password: str, encoded: str) -> bool:
    """Check ``password`` against an encoded hash (False if the hash is malformed)."""
    try:
        iterations, salt, expected = _parse_hash(encoded)
    except ValueError:
        return False
    return hmac.compare_digest(_derive(password, salt, iterations), expected)


# --- tokens ----------------------------------------------------------------


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(payload_part: str, secret: str) -> str:
    mac = hmac.new(secret.encode("utf-8"), payload_part.encode("ascii"), hashlib.sha256)
    return _b64encode(mac.digest())


def make_token(username: str, secret: str, now: float, ttl: int = TOKEN_TTL) -> str:
    """Issue a token for ``username`` that expires at ``int(now) + ttl``."""
    claims = {"sub": username, "exp": int(now) + ttl}
    payload_part = _b64encode(json.dumps(claims, separators=(",", ":")).encode("utf-8"))
    return f"{payload_part}.{_sign(payload_part, secret)}"


def _split_token(token: str) -> tuple[str, str]:
    parts = token.split(".")
    if len(parts) != 2 or not token.isascii() or not all(parts):
        raise TokenError("malformed token")
    return parts[0], parts[1]


def _decode_claims(payload_part: str) -> dict[str, Any]:
    try:
        claims = json.loads(_b64decode(payload_part))
    except (binascii.Error, ValueError) as exc:
        raise TokenError("malformed token payload") from exc
    if not _valid_claims(claims):
        raise TokenError("malformed token claims")
    return claims


def _valid_claims(claims: Any) -> bool:
    if not isinstance(claims, dict):
        return False
    exp = claims.get("exp")
    return isinstance(claims.get("sub"), str) and isinstance(exp, int) and not isinstance(exp, bool)


def read_token(token: str, secret: str, now: float) -> str:
    """Verify ``token`` and return its username; raise :class:`TokenError` otherwise.

    A token is valid while ``now < exp``.
    """
    payload_part, signature = _split_token(token)
    expected = _sign(payload_part, secret)
    if not hmac.compare_digest(signature.encode("ascii"), expected.encode("ascii")):
        raise TokenError("bad token signature")
    claims = _decode_claims(payload_part)
    if now >= claims["exp"]:
        raise TokenError("token expired")
    return claims["sub"]
