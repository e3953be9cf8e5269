"""Acceptance tests: create, read, replace, patch and delete."""

ANN = {"name": "Ann Lee", "email": "ann@example.com", "phone": "+1 555 0100"}
BOB = {"name": "Bob Stone", "email": "bob@example.org"}


def test_create_returns_201_with_contact_and_location(client):
    result = client.post(ANN)
    assert result.status == 201
    assert result.json == {"id": 1, **ANN}
    assert result.header("Location") == "/contacts/1"
    assert result.header("Content-Type").startswith("application/json")


def test_ids_increase_and_phone_defaults_to_null(client):
    assert client.post(ANN).json["id"] == 1
    second = client.post(BOB).json
    assert second == {"id": 2, **BOB, "phone": None}
    assert client.post({"name": "C", "email": "c@c.io"}).json["id"] == 3


def test_create_normalises_fields(client):
    body = client.post({"name": "  Ann  ", "email": " Ann.Lee@Example.COM ", "phone": " 555 "}).json
    assert body["name"] == "Ann"
    assert body["email"] == "ann.lee@example.com"
    assert body["phone"] == "555"


def test_get_contact(client):
    client.post(ANN)
    client.post(BOB)
    result = client.get("/contacts/2")
    assert result.status == 200
    assert result.json == {"id": 2, **BOB, "phone": None}


def test_get_missing_contact(client):
    client.post(ANN)
    result = client.get("/contacts/2")
    assert result.status == 404
    assert isinstance(result.json["error"], str)
    assert result.header("Content-Type").startswith("application/json")


def test_put_replaces_all_fields(client):
    client.post(ANN)
    result = client.request("PUT", "/contacts/1", BOB)
    assert result.status == 200
    assert result.json == {"id": 1, **BOB, "phone": None}
    assert client.get("/contacts/1").json == {"id": 1, **BOB, "phone": None}


def test_put_requires_name_and_email(client):
    client.post(ANN)
    assert client.request("PUT", "/contacts/1", {"name": "Only Name"}).status == 400
    assert client.request("PUT", "/contacts/1", {"email": "x@y.io"}).status == 400
    assert client.get("/contacts/1").json == {"id": 1, **ANN}


def test_put_patch_delete_missing_contact_is_404_before_validation(client):
    client.post(ANN)
    assert client.request("PUT", "/contacts/5", {"bogus": True}).status == 404
    assert client.request("PATCH", "/contacts/5", raw=b"not json").status == 404
    assert client.request("DELETE", "/contacts/5").status == 404


def test_patch_updates_only_given_fields(client):
    client.post(ANN)
    result = client.request("PATCH", "/contacts/1", {"name": "Ann Smith"})
    assert result.status == 200
    assert result.json == {"id": 1, **ANN, "name": "Ann Smith"}
    assert client.get("/contacts/1").json["name"] == "Ann Smith"


def test_patch_phone_null_clears_and_empty_object_is_noop(client):
    client.post(ANN)
    assert client.request("PATCH", "/contacts/1", {"phone": None}).json["phone"] is None
    result = client.request("PATCH", "/contacts/1", {})
    assert result.status == 200
    assert result.json == {"id": 1, **ANN, "phone": None}


def test_patch_invalid_leaves_contact_unchanged(client):
    client.post(ANN)
    assert client.request("PATCH", "/contacts/1", {"email": "nope"}).status == 400
    assert client.request("PATCH", "/contacts/1", {"name": None}).status == 400
    assert client.request("PATCH", "/contacts/1", {"id": 7}).status == 400
    assert client.get("/contacts/1").json == {"id": 1, **ANN}


def test_delete(client):
    client.post(ANN)
    client.post(BOB)
    result = client.request("DELETE", "/contacts/1")
    assert result.status == 204
    assert result.raw == b""
    assert client.get("/contacts/1").status == 404
    assert client.request("DELETE", "/contacts/1").status == 404
    assert client.get("/contacts/2").status == 200


def test_ids_are_not_reused(client):
    client.post(ANN)
    client.post(BOB)
    client.request("DELETE", "/contacts/2")
    assert client.post({"name": "C", "email": "c@c.io"}).json["id"] == 3


def test_status_lines(client):
    assert client.post(ANN).status_line == "201 Created"
    assert client.get("/contacts/1").status_line == "200 OK"
    assert client.post({"name": "x"}).status_line == "400 Bad Request"
    assert client.post(ANN).status_line == "409 Conflict"
    assert client.get("/nowhere").status_line == "404 Not Found"
    assert client.request("PATCH", "/contacts").status_line == "405 Method Not Allowed"
    assert client.request("DELETE", "/contacts/1").status_line == "204 No Content"


def test_apps_are_independent(make_client):
    first, second = make_client(), make_client()
    first.post(ANN)
    assert second.get("/contacts").json["total"] == 0
    assert second.post(ANN).json["id"] == 1
