"""Password storage format and the auth module's functions."""

from __future__ import annotations

import hashlib
import re

import pytest

from conftest import ITERATIONS, SECRET, pbkdf2_hash

HASH_RE = re.compile(r"pbkdf2_sha256\$(\d+)\$([0-9a-f]{32})\$([0-9a-f]{64})")


def test_stored_hash_has_the_stated_format(env):
    row = env.rows("SELECT password_hash FROM users WHERE username = 'clerk1'")[0]
    match = HASH_RE.fullmatch(row["password_hash"])
    assert match, row["password_hash"]
    iterations, salt_hex, digest_hex = match.groups()
    assert int(iterations) == ITERATIONS
    digest = hashlib.pbkdf2_hmac("sha256", b"clerk1-password", bytes.fromhex(salt_hex), ITERATIONS)
    assert digest.hex() == digest_hex


def test_salts_are_random_per_user(env):
    for name in ("sam", "kim"):
        resp = env.client.post("/users", {"username": name, "password": "same-password", "role": "viewer"},
                               token=env.admin)
        assert resp.status == 201
    hashes = [r["password_hash"] for r in env.rows(
        "SELECT password_hash FROM users WHERE username IN ('sam', 'kim')")]
    assert len(hashes) == 2 and hashes[0] != hashes[1]
    assert "same-password" not in "".join(hashes)


def test_directly_inserted_hash_with_other_iterations_can_log_in(env):
    encoded = pbkdf2_hash("direct-secret", bytes(range(16)), 1500)
    conn = env.db()
    with conn:
        conn.execute("INSERT INTO users (username, password_hash, role) VALUES (?, ?, ?)",
                     ("direct", encoded, "clerk"))
    conn.close()
    resp = env.client.post("/login", {"username": "direct", "password": "direct-secret"})
    assert resp.status == 200
    assert resp.json()["role"] == "clerk"
    assert env.client.post("/login", {"username": "direct", "password": "direct-secreT"}).status == 401


def test_hash_password_and_verify_password():
    from inventory.auth import hash_password, verify_password

    salt = bytes.fromhex("00112233445566778899aabbccddeeff")
    assert hash_password("pässword", iterations=1234, salt=salt) == pbkdf2_hash("pässword", salt, 1234)
    encoded = hash_password("hunter22", iterations=500)
    assert HASH_RE.fullmatch(encoded)
    assert verify_password("hunter22", encoded)
    assert not verify_password("hunter23", encoded)


@pytest.mark.parametrize("encoded", ["", "plain", "md5$1$00$00", "pbkdf2_sha256$x$00$00",
                                     "pbkdf2_sha256$10$zz$00", "pbkdf2_sha256$10$00"])
def test_verify_password_malformed_hash_is_false(encoded):
    from inventory.auth import verify_password

    assert verify_password("anything", encoded) is False


def test_make_token_and_read_token():
    from inventory.auth import TokenError, make_token, read_token

    token = make_token("alice", SECRET, 1000.9, ttl=60)
    assert read_token(token, SECRET, 1059.99) == "alice"
    with pytest.raises(TokenError):
        read_token(token, SECRET, 1060)
    with pytest.raises(TokenError):
        read_token(token, "wrong", 1000)
    with pytest.raises(TokenError):
        read_token(token + "x", SECRET, 1000)
    assert issubclass(TokenError, Exception)


def test_make_token_matches_spec_exactly():
    import json

    from conftest import b64url_decode, forge
    from inventory.auth import make_token

    token = make_token("bob", SECRET, 50.5)
    claims = json.loads(b64url_decode(token.split(".")[0]))
    assert claims == {"sub": "bob", "exp": 3650}
    # The signature must be the HMAC of the payload part as it appears in the token.
    part = token.split(".")[0]
    assert forge(b64url_decode(part)) == token
