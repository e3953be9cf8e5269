"""Role permission table and the order of checks."""

from __future__ import annotations

import pytest

FORBIDDEN = [
    ("viewer", "POST", "/items/{id}/adjust", {"delta": 1, "reason": "count"}),
    ("viewer", "POST", "/items", {"sku": "NEW", "name": "New"}),
    ("viewer", "PATCH", "/items/{id}", {"name": "Renamed"}),
    ("viewer", "DELETE", "/items/{id}", None),
    ("viewer", "GET", "/users", None),
    ("viewer", "POST", "/users", {"username": "eve", "password": "password1", "role": "admin"}),
    ("clerk", "POST", "/items", {"sku": "NEW", "name": "New"}),
    ("clerk", "PATCH", "/items/{id}", {"name": "Renamed"}),
    ("clerk", "DELETE", "/items/{id}", None),
    ("clerk", "GET", "/users", None),
    ("clerk", "POST", "/users", {"username": "eve", "password": "password1", "role": "admin"}),
    ("clerk", "PATCH", "/users/clerk1", {"role": "admin"}),
    ("clerk", "DELETE", "/users/viewer1", None),
    ("viewer", "PATCH", "/users/viewer1", {"role": "admin"}),
]


@pytest.mark.parametrize("role,method,path,body", FORBIDDEN)
def test_insufficient_role_is_403_and_changes_nothing(env, role, method, path, body):
    item = env.item()
    token = env.clerk if role == "clerk" else env.viewer
    resp = env.client.request(method, path.replace("{id}", str(item["id"])), body=body, token=token)
    assert resp.status == 403
    assert "error" in resp.json()
    assert env.rows("SELECT sku, name, quantity FROM items") == [{"sku": "SKU-1", "name": "Widget", "quantity": 10}]
    assert env.rows("SELECT username, role FROM users ORDER BY username") == [
        {"username": "admin", "role": "admin"}, {"username": "clerk1", "role": "clerk"},
        {"username": "viewer1", "role": "viewer"}]
    assert env.rows("SELECT * FROM adjustments") == []


@pytest.mark.parametrize("who", ["viewer", "clerk", "admin"])
def test_every_role_can_read(env, who):
    item = env.item()
    token = getattr(env, who)
    assert env.client.get("/items", token=token).status == 200
    assert env.client.get(f"/items/{item['id']}", token=token).json() == item
    assert env.client.get(f"/items/{item['id']}/adjustments", token=token).json() == {"adjustments": []}
    me = env.client.get("/me", token=token)
    assert me.status == 200 and me.json()["role"] == who


@pytest.mark.parametrize("who", ["clerk", "admin"])
def test_clerk_and_admin_can_adjust(env, who):
    item = env.item()
    resp = env.client.post(f"/items/{item['id']}/adjust", {"delta": -3, "reason": "sold"}, token=getattr(env, who))
    assert resp.status == 201


def test_403_comes_before_404_and_401_before_403(env):
    assert env.client.delete("/items/999", token=env.clerk).status == 403
    assert env.client.delete("/users/nobody", token=env.viewer).status == 403
    assert env.client.delete("/items/999").status == 401
    assert env.client.post("/items", {"sku": ""}, token=env.clerk).status == 403


def test_unknown_path_404_and_wrong_method_405_without_auth(env):
    assert env.client.get("/nothing-here").status == 404
    assert env.client.get("/items/abc", token=env.admin).status == 404
    assert env.client.get("/login").status == 405
    assert env.client.request("PUT", "/items").status == 405
    assert env.client.request("POST", "/items/1").status == 405


def test_role_change_applies_to_existing_tokens(env):
    item = env.item()
    resp = env.client.patch("/users/clerk1", {"role": "viewer"}, token=env.admin)
    assert resp.status == 200 and resp.json() == {"username": "clerk1", "role": "viewer"}
    adjust = env.client.post(f"/items/{item['id']}/adjust", {"delta": 1, "reason": "x"}, token=env.clerk)
    assert adjust.status == 403
    env.client.patch("/users/viewer1", {"role": "admin"}, token=env.admin)
    assert env.client.get("/users", token=env.viewer).status == 200
