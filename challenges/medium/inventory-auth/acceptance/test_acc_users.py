"""User management (admin only)."""

from __future__ import annotations

import pytest


def test_list_users_sorted_without_hashes(env):
    env.client.post("/users", {"username": "bea", "password": "bea-password", "role": "clerk"}, token=env.admin)
    resp = env.client.get("/users", token=env.admin)
    assert resp.status == 200
    assert resp.json() == {"users": [
        {"username": "admin", "role": "admin"}, {"username": "bea", "role": "clerk"},
        {"username": "clerk1", "role": "clerk"}, {"username": "viewer1", "role": "viewer"}]}


def test_create_user_then_login(env):
    resp = env.client.post("/users", {"username": "new.user-1", "password": "12345678", "role": "viewer"},
                           token=env.admin)
    assert resp.status == 201
    assert resp.json() == {"username": "new.user-1", "role": "viewer"}
    assert env.client.post("/login", {"username": "new.user-1", "password": "12345678"}).status == 200


def test_duplicate_username_is_409(env):
    resp = env.client.post("/users", {"username": "clerk1", "password": "another-pass", "role": "admin"},
                           token=env.admin)
    assert resp.status == 409
    assert env.rows("SELECT role FROM users WHERE username = 'clerk1'") == [{"role": "clerk"}]


@pytest.mark.parametrize("body", [
    {"username": "ab", "password": "password1", "role": "clerk"},
    {"username": "a" * 33, "password": "password1", "role": "clerk"},
    {"username": "bad name", "password": "password1", "role": "clerk"},
    {"username": "okname", "password": "1234567", "role": "clerk"},
    {"username": "okname", "password": "password1", "role": "superuser"},
    {"username": "okname", "password": "password1"},
    {"password": "password1", "role": "clerk"},
])
def test_invalid_new_users_are_400(env, body):
    assert env.client.post("/users", body, token=env.admin).status == 400
    assert len(env.rows("SELECT * FROM users")) == 3


def test_patch_password_changes_login(env):
    resp = env.client.patch("/users/viewer1", {"password": "brand-new-pass"}, token=env.admin)
    assert resp.status == 200 and resp.json() == {"username": "viewer1", "role": "viewer"}
    assert env.client.post("/login", {"username": "viewer1", "password": "viewer1-password"}).status == 401
    assert env.client.post("/login", {"username": "viewer1", "password": "brand-new-pass"}).status == 200


@pytest.mark.parametrize("body", [{}, {"role": "root"}, {"password": "short"}, {"role": "clerk", "password": "x"}])
def test_invalid_patch_user_is_400(env, body):
    assert env.client.patch("/users/viewer1", body, token=env.admin).status == 400
    assert env.rows("SELECT role FROM users WHERE username = 'viewer1'") == [{"role": "viewer"}]
    assert env.client.post("/login", {"username": "viewer1", "password": "viewer1-password"}).status == 200


def test_unknown_user_is_404(env):
    assert env.client.patch("/users/ghost", {"role": "clerk"}, token=env.admin).status == 404
    assert env.client.delete("/users/ghost", token=env.admin).status == 404


def test_delete_user_and_not_yourself(env):
    resp = env.client.delete("/users/admin", token=env.admin)
    assert resp.status == 409
    deleted = env.client.delete("/users/clerk1", token=env.admin)
    assert deleted.status == 204 and deleted.body == b""
    assert [u["username"] for u in env.client.get("/users", token=env.admin).json()["users"]] == ["admin", "viewer1"]
    assert env.client.post("/login", {"username": "clerk1", "password": "clerk1-password"}).status == 401
