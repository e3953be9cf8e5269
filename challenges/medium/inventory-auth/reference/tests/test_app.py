"""End-to-end tests of the WSGI application."""

from __future__ import annotations

import sqlite3

import pytest

from conftest import SECRET, START, WsgiClient
from inventory import create_app


def test_login_and_me(client, clock) -> None:
    resp = client.call("POST", "/login", {"username": "root", "password": "rootpass"})
    assert resp.status == 200
    assert resp.headers["Content-Type"] == "application/json"
    body = resp.json()
    assert body["role"] == "admin" and body["expires_at"] == int(START) + 3600
    assert client.call("GET", "/me", token=body["token"]).json() == {"username": "root", "role": "admin"}


@pytest.mark.parametrize("body", [{"username": "root", "password": "nope"}, {"username": "x", "password": "y"}])
def test_login_rejects_bad_credentials(client, body) -> None:
    assert client.call("POST", "/login", body).status == 401


@pytest.mark.parametrize("raw", [b"", b"{", b"[]", b'{"username": 1, "password": "x"}', b"\xff"])
def test_login_rejects_bad_bodies(client, raw) -> None:
    assert client.call("POST", "/login", raw=raw).status == 400


def test_expired_token(client, clock, tokens) -> None:
    clock.now = START + 3600
    assert client.call("GET", "/me", token=tokens["viewer"]).status == 401


def test_missing_token_and_unknown_user(client, tokens) -> None:
    from inventory.auth import make_token

    assert client.call("GET", "/items").status == 401
    assert client.call("GET", "/items", token=make_token("ghost", SECRET, START)).status == 401
    assert client.call("GET", "/items", token="x.y").status == 401


def test_routing_errors(client) -> None:
    assert client.call("GET", "/missing").status == 404
    assert client.call("DELETE", "/login").status == 405


def test_roles(client, tokens) -> None:
    assert client.call("POST", "/items", {"sku": "a", "name": "A"}, tokens["clerk"]).status == 403
    assert client.call("GET", "/users", token=tokens["viewer"]).status == 403
    assert client.call("GET", "/users", token=tokens["admin"]).json()["users"][0] == {"username": "clerk", "role": "clerk"}


def test_item_lifecycle(client, tokens) -> None:
    admin = tokens["admin"]
    item = client.call("POST", "/items", {"sku": "a", "name": "A", "quantity": 2}, admin).json()
    assert client.call("GET", "/items", token=tokens["viewer"]).json() == {"items": [item]}
    assert client.call("GET", f"/items/{item['id']}", token=admin).json() == item
    renamed = client.call("PATCH", f"/items/{item['id']}", {"name": "B"}, admin).json()
    assert renamed["name"] == "B"
    assert client.call("PATCH", f"/items/{item['id']}", {"quantity": 9}, admin).status == 400
    assert client.call("PATCH", f"/items/{item['id']}", {}, admin).status == 400
    assert client.call("DELETE", f"/items/{item['id']}", token=admin).status == 204
    assert client.call("GET", f"/items/{item['id']}", token=admin).status == 404


def test_item_validation_and_conflicts(client, tokens) -> None:
    admin = tokens["admin"]
    assert client.call("POST", "/items", {"sku": "", "name": "A"}, admin).status == 400
    assert client.call("POST", "/items", {"sku": "a", "name": "A", "quantity": -1}, admin).status == 400
    first = client.call("POST", "/items", {"sku": "a", "name": "A"}, admin).json()
    second = client.call("POST", "/items", {"sku": "b", "name": "B"}, admin).json()
    assert client.call("POST", "/items", {"sku": "a", "name": "A2"}, admin).status == 409
    assert client.call("PATCH", f"/items/{second['id']}", {"sku": "a"}, admin).status == 409
    assert client.call("PATCH", f"/items/{first['id']}", {"sku": "a"}, admin).status == 200


def test_adjustments_and_audit(client, clock, tokens) -> None:
    item = client.call("POST", "/items", {"sku": "a", "name": "A", "quantity": 1}, tokens["admin"]).json()
    path = f"/items/{item['id']}"
    clock.now = START + 5
    resp = client.call("POST", path + "/adjust", {"delta": 4, "reason": "restock"}, tokens["clerk"])
    assert resp.status == 201
    assert resp.json()["adjustment"]["quantity_after"] == 5
    assert resp.json()["adjustment"]["created_at"] == int(START) + 5
    assert client.call("POST", path + "/adjust", {"delta": -6, "reason": "x"}, tokens["clerk"]).status == 409
    assert client.call("POST", path + "/adjust", {"delta": 0, "reason": "x"}, tokens["clerk"]).status == 400
    assert client.call("POST", path + "/adjust", {"delta": 1}, tokens["clerk"]).status == 400
    log = client.call("GET", path + "/adjustments", token=tokens["viewer"]).json()["adjustments"]
    assert [(a["delta"], a["username"]) for a in log] == [(4, "clerk")]
    assert client.call("POST", "/items/999/adjust", {"delta": 1, "reason": "x"}, tokens["clerk"]).status == 404


def test_user_management(client, tokens) -> None:
    admin = tokens["admin"]
    assert client.call("POST", "/users", {"username": "clerk", "password": "whatever1", "role": "clerk"},
                       admin).status == 409
    assert client.call("POST", "/users", {"username": "x", "password": "whatever1", "role": "clerk"},
                       admin).status == 400
    assert client.call("PATCH", "/users/clerk", {"role": "admin", "password": "newpass99"}, admin).json() == {
        "username": "clerk", "role": "admin"}
    assert client.token("clerk", "newpass99")
    assert client.call("PATCH", "/users/clerk", {}, admin).status == 400
    assert client.call("PATCH", "/users/nobody", {"role": "viewer"}, admin).status == 404
    assert client.call("DELETE", "/users/root", token=admin).status == 409
    assert client.call("DELETE", "/users/viewer", token=admin).status == 204
    assert client.call("GET", "/me", token=tokens["viewer"]).status == 401


def test_data_persists_across_instances(tmp_path, clock) -> None:
    path = str(tmp_path / "p.db")
    first = WsgiClient(create_app(path, SECRET, clock=clock, bootstrap_admin=("root", "rootpass"),
                                  pbkdf2_iterations=10))
    token = first.token("root", "rootpass")
    first.call("POST", "/items", {"sku": "a", "name": "A"}, token)
    second = WsgiClient(create_app(path, SECRET, clock=clock, bootstrap_admin=("other", "otherpass")))
    assert len(second.call("GET", "/items", token=token).json()["items"]) == 1
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 1


def test_bad_content_length_is_treated_as_empty(client) -> None:
    import io

    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/login", "CONTENT_LENGTH": "abc",
               "wsgi.input": io.BytesIO(b"")}
    statuses: list[str] = []
    client.app(environ, lambda status, headers: statuses.append(status))
    assert statuses == ["400 Bad Request"]
