"""Items CRUD, stock adjustments and the audit log."""

from __future__ import annotations

import pytest

from conftest import T0


def test_item_crud_roundtrip(env):
    created = env.client.post("/items", {"sku": "A-1", "name": "Anvil", "quantity": 4}, token=env.admin)
    assert created.status == 201
    item = created.json()
    assert item == {"id": item["id"], "sku": "A-1", "name": "Anvil", "quantity": 4}
    assert isinstance(item["id"], int)
    second = env.item(sku="B-2", name="Bolt", quantity=0)
    listing = env.client.get("/items", token=env.viewer).json()
    assert listing == {"items": [item, second]}
    patched = env.client.patch(f"/items/{item['id']}", {"name": "Big Anvil", "sku": "A-9"}, token=env.admin)
    assert patched.status == 200
    assert patched.json() == {"id": item["id"], "sku": "A-9", "name": "Big Anvil", "quantity": 4}
    deleted = env.client.delete(f"/items/{item['id']}", token=env.admin)
    assert deleted.status == 204 and deleted.body == b""
    assert env.client.get(f"/items/{item['id']}", token=env.admin).status == 404
    assert env.client.delete(f"/items/{item['id']}", token=env.admin).status == 404
    assert env.rows("SELECT id, sku, name, quantity FROM items") == [second]


def test_quantity_defaults_to_zero(env):
    resp = env.client.post("/items", {"sku": "Z", "name": "Zero"}, token=env.admin)
    assert resp.status == 201 and resp.json()["quantity"] == 0


@pytest.mark.parametrize("body", [
    {"name": "No sku"},
    {"sku": "", "name": "Empty sku"},
    {"sku": "S", "name": ""},
    {"sku": 5, "name": "Number sku"},
    {"sku": "S", "name": "Neg", "quantity": -1},
    {"sku": "S", "name": "Float", "quantity": 1.5},
    {"sku": "S", "name": "Bool", "quantity": True},
    {"sku": "S", "name": "Str", "quantity": "3"},
])
def test_invalid_item_bodies_are_400(env, body):
    resp = env.client.post("/items", body, token=env.admin)
    assert resp.status == 400
    assert env.rows("SELECT * FROM items") == []


def test_duplicate_sku_is_409_on_create_and_patch(env):
    first = env.item(sku="DUP")
    other = env.item(sku="OTHER")
    assert env.client.post("/items", {"sku": "DUP", "name": "Again"}, token=env.admin).status == 409
    assert env.client.patch(f"/items/{other['id']}", {"sku": "DUP"}, token=env.admin).status == 409
    same = env.client.patch(f"/items/{first['id']}", {"sku": "DUP", "name": "Same sku"}, token=env.admin)
    assert same.status == 200 and same.json()["name"] == "Same sku"


@pytest.mark.parametrize("body", [{}, {"quantity": 50}, {"name": "X", "quantity": 50}, {"name": ""}, {"sku": 7}])
def test_invalid_patch_is_400(env, body):
    item = env.item()
    assert env.client.patch(f"/items/{item['id']}", body, token=env.admin).status == 400
    assert env.client.get(f"/items/{item['id']}", token=env.admin).json() == item


def test_patch_unknown_item_is_404(env):
    assert env.client.patch("/items/404", {"name": "x"}, token=env.admin).status == 404


def test_ids_are_never_reused(env):
    first = env.item(sku="ONE")
    env.client.delete(f"/items/{first['id']}", token=env.admin)
    second = env.item(sku="TWO")
    assert second["id"] > first["id"]


def test_adjustment_updates_stock_and_is_audited(env):
    item = env.item(quantity=10)
    env.clock.now = T0 + 42.9
    resp = env.client.post(f"/items/{item['id']}/adjust", {"delta": -4, "reason": "sold"}, token=env.clerk)
    assert resp.status == 201
    data = resp.json()
    assert data["item"] == {**item, "quantity": 6}
    adj = data["adjustment"]
    assert adj == {"id": adj["id"], "item_id": item["id"], "delta": -4, "quantity_after": 6,
                   "reason": "sold", "username": "clerk1", "created_at": int(T0 + 42.9)}
    assert env.rows("SELECT quantity FROM items") == [{"quantity": 6}]
    rows = env.rows("SELECT item_id, username, delta, quantity_after, reason, created_at FROM adjustments")
    assert rows == [{"item_id": item["id"], "username": "clerk1", "delta": -4, "quantity_after": 6,
                     "reason": "sold", "created_at": int(T0 + 42.9)}]


def test_stock_never_goes_below_zero(env):
    item = env.item(quantity=3)
    path = f"/items/{item['id']}/adjust"
    resp = env.client.post(path, {"delta": -4, "reason": "oversell"}, token=env.clerk)
    assert resp.status == 409
    assert "error" in resp.json()
    assert env.rows("SELECT quantity FROM items") == [{"quantity": 3}]
    assert env.rows("SELECT * FROM adjustments") == []
    assert env.client.post(path, {"delta": -3, "reason": "all"}, token=env.clerk).json()["item"]["quantity"] == 0
    assert env.client.post(path, {"delta": -1, "reason": "one more"}, token=env.admin).status == 409
    assert len(env.rows("SELECT * FROM adjustments")) == 1


@pytest.mark.parametrize("body", [
    {"delta": 0, "reason": "nothing"},
    {"delta": 1.0, "reason": "float"},
    {"delta": True, "reason": "bool"},
    {"delta": "2", "reason": "string"},
    {"reason": "missing delta"},
    {"delta": 2},
    {"delta": 2, "reason": ""},
])
def test_invalid_adjustments_are_400(env, body):
    item = env.item(quantity=5)
    assert env.client.post(f"/items/{item['id']}/adjust", body, token=env.clerk).status == 400
    assert env.rows("SELECT quantity FROM items") == [{"quantity": 5}]
    assert env.rows("SELECT * FROM adjustments") == []


def test_adjust_unknown_item_is_404(env):
    assert env.client.post("/items/77/adjust", {"delta": 1, "reason": "x"}, token=env.clerk).status == 404
    assert env.client.get("/items/77/adjustments", token=env.viewer).status == 404


def test_audit_log_lists_adjustments_oldest_first(env):
    item = env.item(quantity=0)
    other = env.item(sku="OTHER", quantity=1)
    path = f"/items/{item['id']}/adjust"
    env.client.post(path, {"delta": 5, "reason": "delivery"}, token=env.admin)
    env.clock.now += 60
    env.client.post(path, {"delta": -2, "reason": "sale"}, token=env.clerk)
    env.client.post(f"/items/{other['id']}/adjust", {"delta": 1, "reason": "elsewhere"}, token=env.clerk)
    log = env.client.get(f"/items/{item['id']}/adjustments", token=env.viewer).json()["adjustments"]
    assert [(a["delta"], a["quantity_after"], a["username"], a["reason"]) for a in log] == [
        (5, 5, "admin", "delivery"), (-2, 3, "clerk1", "sale")]
    assert log[0]["id"] < log[1]["id"]
    assert log[1]["created_at"] - log[0]["created_at"] == 60


def test_deleting_an_item_keeps_its_audit_rows(env):
    item = env.item(quantity=2)
    env.client.post(f"/items/{item['id']}/adjust", {"delta": 1, "reason": "found"}, token=env.clerk)
    assert env.client.delete(f"/items/{item['id']}", token=env.admin).status == 204
    assert env.rows("SELECT item_id, delta FROM adjustments") == [{"item_id": item["id"], "delta": 1}]
    assert env.client.get(f"/items/{item['id']}/adjustments", token=env.admin).status == 404


def test_malformed_json_body_is_400(env):
    item = env.item()
    assert env.client.request("POST", "/items", raw=b"{bad", token=env.admin).status == 400
    assert env.client.request("POST", f"/items/{item['id']}/adjust", raw=b"[1]", token=env.clerk).status == 400
