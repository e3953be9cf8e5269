"""Tests of the WSGI application through a minimal test client."""

import json

import pytest

ANN = {"name": "Ann Lee", "email": "ann@example.com", "phone": "+1 555 0100"}
BOB = {"name": "Bob Stone", "email": "bob@example.org"}


def test_create_and_get(client):
    status, headers, body = client.request("POST", "/contacts", ANN)
    assert status == 201
    assert body == {"id": 1, **ANN}
    assert headers["Location"] == "/contacts/1"
    assert headers["Content-Type"] == "application/json"
    assert client.request("GET", "/contacts/1")[2] == body


def test_create_validation_and_conflict(client):
    assert client.request("POST", "/contacts", {"name": "X", "email": "bad"})[0] == 400
    assert client.request("POST", "/contacts", raw=b"not json")[0] == 400
    client.request("POST", "/contacts", ANN)
    status, _, body = client.request("POST", "/contacts", {**BOB, "email": "ANN@example.com"})
    assert status == 409
    assert "error" in body


def test_list_search_and_pagination(client):
    for index in range(5):
        client.request("POST", "/contacts", {"name": f"Person {index}", "email": f"p{index}@x.io"})
    client.request("POST", "/contacts", BOB)
    status, _, body = client.request("GET", "/contacts", query="limit=2&offset=1")
    assert status == 200
    assert [c["id"] for c in body["items"]] == [2, 3]
    assert (body["total"], body["limit"], body["offset"]) == (6, 2, 1)
    body = client.request("GET", "/contacts", query="q=STONE")[2]
    assert [c["name"] for c in body["items"]] == ["Bob Stone"]
    assert client.request("GET", "/contacts")[2]["limit"] == 20


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "limit=x", "offset=-1", "limit="])
def test_list_bad_pagination(client, query):
    assert client.request("GET", "/contacts", query=query)[0] == 400


def test_put_patch_delete(client):
    client.request("POST", "/contacts", ANN)
    status, _, body = client.request("PUT", "/contacts/1", BOB)
    assert status == 200
    assert body == {"id": 1, **BOB, "phone": None}
    body = client.request("PATCH", "/contacts/1", {"phone": "42"})[2]
    assert body["phone"] == "42" and body["name"] == BOB["name"]
    status, headers, body = client.request("DELETE", "/contacts/1")
    assert (status, body) == (204, None)
    assert client.request("GET", "/contacts/1")[0] == 404


def test_missing_contact_is_404_before_validation(client):
    assert client.request("PUT", "/contacts/9", {"bogus": 1})[0] == 404
    assert client.request("PATCH", "/contacts/9", {})[0] == 404
    assert client.request("DELETE", "/contacts/9")[0] == 404


@pytest.mark.parametrize("path", ["/", "/contacts/", "/contacts/0", "/contacts/abc", "/contacts/1/x"])
def test_unknown_paths(client, path):
    assert client.request("GET", path)[0] == 404


def test_method_not_allowed(client):
    status, headers, body = client.request("DELETE", "/contacts")
    assert status == 405
    assert headers["Allow"] == "GET, POST"
    assert body == {"error": "method not allowed"}
    assert client.request("POST", "/contacts/1")[2]["error"]


def test_bad_content_length_means_empty_body(client):
    import io

    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/contacts", "CONTENT_LENGTH": "abc",
               "wsgi.input": io.BytesIO(b"{}")}
    statuses = []
    client.app(environ, lambda status, headers: statuses.append(status))
    assert statuses == ["400 Bad Request"]


def test_persistence_across_apps(tmp_path, make_client):
    path = str(tmp_path / "contacts.json")
    make_client(path).request("POST", "/contacts", ANN)
    again = make_client(path)
    assert again.request("GET", "/contacts/1")[2]["email"] == ANN["email"]
    assert json.loads((tmp_path / "contacts.json").read_text())["next_id"] == 2
