"""Unit tests for password hashing, tokens and permissions."""

from __future__ import annotations

import base64
import json

import pytest

from inventory.auth import (
    ADJUST, MANAGE_ITEMS, READ, TokenError, hash_password, is_allowed, make_token, read_token,
    verify_password,
)


def test_hash_format_and_verification() -> None:
    encoded = hash_password("s3cret-pw", iterations=5, salt=b"\x01" * 16)
    algorithm, iterations, salt, digest = encoded.split("$")
    assert (algorithm, iterations, salt) == ("pbkdf2_sha256", "5", "01" * 16)
    assert len(digest) == 64
    assert verify_password("s3cret-pw", encoded)
    assert not verify_password("s3cret-pX", encoded)


def test_random_salts_differ() -> None:
    assert hash_password("same", iterations=3) != hash_password("same", iterations=3)


@pytest.mark.parametrize("encoded", ["", "a$b$c$d", "pbkdf2_sha256$0$00$00", "pbkdf2_sha256$2$xx$00", "sha1$2$00$00"])
def test_malformed_hashes_never_verify(encoded: str) -> None:
    assert verify_password("x", encoded) is False


def test_token_roundtrip_and_expiry() -> None:
    token = make_token("ann", "k", 100.7, ttl=10)
    assert read_token(token, "k", 109.9) == "ann"
    with pytest.raises(TokenError, match="expired"):
        read_token(token, "k", 110)


def test_token_payload_is_unpadded_json() -> None:
    payload = make_token("bo", "k", 0).split(".")[0]
    assert "=" not in payload
    decoded = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert decoded == {"sub": "bo", "exp": 3600}


@pytest.mark.parametrize("token", ["", "abc", "a.b.c", ".sig", "payload.", "é.x"])
def test_malformed_tokens(token: str) -> None:
    with pytest.raises(TokenError):
        read_token(token, "k", 0)


def test_wrong_secret_rejected() -> None:
    with pytest.raises(TokenError, match="signature"):
        read_token(make_token("ann", "k", 0), "other", 0)


def _signed(payload: bytes) -> str:
    from inventory.auth import _b64encode, _sign

    part = _b64encode(payload)
    return f"{part}.{_sign(part, 'k')}"


@pytest.mark.parametrize("payload", [b"nope", b"[]", b'{"sub": "a", "exp": true}', b'{"sub": 3, "exp": 9}'])
def test_signed_but_invalid_claims(payload: bytes) -> None:
    with pytest.raises(TokenError):
        read_token(_signed(payload), "k", 0)


def test_permission_table() -> None:
    assert is_allowed("viewer", READ)
    assert not is_allowed("viewer", ADJUST)
    assert is_allowed("clerk", ADJUST)
    assert not is_allowed("clerk", MANAGE_ITEMS)
    assert is_allowed("admin", MANAGE_ITEMS)
    assert not is_allowed("admin", "unknown-permission")
