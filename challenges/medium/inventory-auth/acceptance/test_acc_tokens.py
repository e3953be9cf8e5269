"""Login, token format, expiry and tampering."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from conftest import ADMIN, ITERATIONS, SECRET, T0, Client, b64url, b64url_decode, forge


def test_login_returns_token_expiry_and_role(env):
    resp = env.client.post("/login", {"username": "clerk1", "password": "clerk1-password"})
    assert resp.status == 200
    assert resp.headers["content-type"].startswith("application/json")
    data = resp.json()
    assert data["role"] == "clerk"
    assert data["expires_at"] == int(T0) + 3600
    assert isinstance(data["token"], str)


def test_issued_token_has_exact_format(env):
    token = env.client.login("viewer1", "viewer1-password")
    payload_part, sig_part = token.split(".")
    assert "=" not in token
    claims = json.loads(b64url_decode(payload_part))
    assert claims["sub"] == "viewer1"
    assert claims["exp"] == int(T0) + 3600
    expected = hmac.new(SECRET.encode("utf-8"), payload_part.encode("ascii"), hashlib.sha256).digest()
    assert b64url_decode(sig_part) == expected


@pytest.mark.parametrize("body", [
    {"username": "admin", "password": "wrong-password"},
    {"username": "nobody", "password": "admin-pass-1"},
    {"username": "ADMIN", "password": "admin-pass-1"},
])
def test_bad_credentials_are_401(env, body):
    resp = env.client.post("/login", body)
    assert resp.status == 401
    assert "error" in resp.json()
    assert "token" not in resp.json()


@pytest.mark.parametrize("raw", [
    b'{"username": "admin"}',
    b'{"username": "admin", "password": 12345678}',
    b'["admin", "admin-pass-1"]',
    b"not json",
    b"",
])
def test_malformed_login_body_is_400(env, raw):
    resp = env.client.request("POST", "/login", raw=raw)
    assert resp.status == 400
    assert "error" in resp.json()


@pytest.mark.parametrize("header", [None, "", "Bearer", "Bearer ", "Basic YWRtaW46YWRtaW4tcGFzcy0x", "Token {t}"])
def test_missing_or_wrong_scheme_is_401(env, header):
    if header is None:
        resp = env.client.get("/items")
    else:
        resp = env.client.get("/items", auth_header=header.replace("{t}", env.admin))
    assert resp.status == 401
    assert "error" in resp.json()


def test_token_expires_exactly_at_exp(env):
    token = env.client.login("clerk1", "clerk1-password")
    exp = int(T0) + 3600
    env.clock.now = exp - 0.5
    assert env.client.get("/me", token=token).status == 200
    env.clock.now = exp
    assert env.client.get("/me", token=token).status == 401
    env.clock.now = exp + 86400
    assert env.client.get("/me", token=token).status == 401


def test_new_login_after_expiry_works(env):
    env.clock.now = T0 + 7200
    token = env.client.login("viewer1", "viewer1-password")
    assert env.client.get("/me", token=token).json() == {"username": "viewer1", "role": "viewer"}


def test_token_forged_with_the_secret_is_accepted(env):
    token = forge({"sub": "clerk1", "exp": int(T0) + 10})
    resp = env.client.get("/me", token=token)
    assert resp.status == 200
    assert resp.json() == {"username": "clerk1", "role": "clerk"}


def test_tampered_payload_keeping_signature_is_rejected(env):
    payload_part, sig = env.viewer.split(".")
    claims = json.loads(b64url_decode(payload_part))
    claims["sub"] = "admin"
    tampered = b64url(json.dumps(claims).encode()) + "." + sig
    assert env.client.get("/me", token=tampered).status == 401
    assert env.client.get("/users", token=tampered).status == 401


def test_extended_expiry_without_resigning_is_rejected(env):
    payload_part, sig = env.clerk.split(".")
    claims = json.loads(b64url_decode(payload_part))
    claims["exp"] += 10 ** 6
    env.clock.now = T0 + 4000
    tampered = b64url(json.dumps(claims).encode()) + "." + sig
    assert env.client.get("/me", token=tampered).status == 401


def test_token_signed_with_another_secret_is_rejected(env):
    token = forge({"sub": "admin", "exp": int(T0) + 100}, secret="some-other-secret")
    assert env.client.get("/me", token=token).status == 401


@pytest.mark.parametrize("mutate", [
    lambda t: t[:-2] + ("AA" if t[-2:] != "AA" else "BB"),
    lambda t: t.split(".")[0],
    lambda t: t.split(".")[0] + ".",
    lambda t: "." + t.split(".")[1],
    lambda t: t + ".extra",
    lambda t: t.split(".")[1] + "." + t.split(".")[0],
    lambda t: "garbage",
])
def test_malformed_or_tampered_tokens_are_401(env, mutate):
    assert env.client.get("/items", token=mutate(env.admin)).status == 401


@pytest.mark.parametrize("payload", [
    b"not json at all",
    b'["admin", 99999999999]',
    b'{"sub": "admin", "exp": "99999999999"}',
    b'{"sub": 1, "exp": 99999999999}',
    b'{"sub": "admin"}',
    b'{"exp": 99999999999}',
])
def test_correctly_signed_but_invalid_payload_is_401(env, payload):
    assert env.client.get("/me", token=forge(payload)).status == 401


def test_token_of_unknown_or_deleted_user_is_401(env):
    assert env.client.get("/me", token=forge({"sub": "ghost", "exp": int(T0) + 100})).status == 401
    assert env.client.delete("/users/viewer1", token=env.admin).status == 204
    assert env.client.get("/items", token=env.viewer).status == 401


def test_tokens_survive_a_new_app_instance_with_the_same_secret(env):
    from inventory import create_app

    again = Client(create_app(env.db_path, SECRET, clock=env.clock, pbkdf2_iterations=ITERATIONS))
    assert again.get("/me", token=env.clerk).json()["username"] == "clerk1"
    other = Client(create_app(env.db_path, "rotated-secret", clock=env.clock, pbkdf2_iterations=ITERATIONS))
    assert other.get("/me", token=env.clerk).status == 401
    assert other.login("clerk1", "clerk1-password")


def test_bootstrap_admin_only_when_no_users(env):
    from inventory import create_app

    create_app(env.db_path, SECRET, clock=env.clock, bootstrap_admin=("second", "second-pass"),
               pbkdf2_iterations=ITERATIONS)
    assert [u["username"] for u in env.rows("SELECT username FROM users ORDER BY username")] == [
        "admin", "clerk1", "viewer1"]
    assert env.rows("SELECT role FROM users WHERE username = ?", (ADMIN[0],)) == [{"role": "admin"}]
