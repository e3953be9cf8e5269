"""End-to-end tests of the WSGI app through the test client."""

import io

from todo_api import create_app


def test_create_then_get(client):
    status, headers, todo = client.request("POST", "/todos", {"title": "  buy milk  "})
    assert status == 201
    assert todo == {"id": 1, "title": "buy milk", "done": False}
    assert headers["Location"] == "/todos/1"
    assert headers["Content-Type"] == "application/json"
    assert client.request("GET", "/todos/1")[2] == todo


def test_list_and_filter(client):
    client.request("POST", "/todos", {"title": "a"})
    client.request("POST", "/todos", {"title": "b", "done": True})
    assert [t["title"] for t in client.request("GET", "/todos")[2]] == ["a", "b"]
    assert [t["title"] for t in client.request("GET", "/todos", query="done=true")[2]] == ["b"]
    assert [t["title"] for t in client.request("GET", "/todos", query="done=false")[2]] == ["a"]
    status, _, body = client.request("GET", "/todos", query="done=maybe")
    assert status == 400 and "error" in body


def test_patch_and_delete(client):
    client.request("POST", "/todos", {"title": "a"})
    status, _, todo = client.request("PATCH", "/todos/1", {"done": True})
    assert status == 200 and todo == {"id": 1, "title": "a", "done": True}
    status, _, body = client.request("DELETE", "/todos/1")
    assert status == 204 and body is None
    assert client.request("GET", "/todos/1")[0] == 404


def test_unknown_ids_and_paths(client):
    assert client.request("GET", "/todos/9")[0] == 404
    assert client.request("PATCH", "/todos/9", {"done": True})[0] == 404
    assert client.request("DELETE", "/todos/9")[0] == 404
    assert client.request("GET", "/nope")[0] == 404
    assert client.request("GET", "/todos/abc")[0] == 404


def test_wrong_methods(client):
    status, headers, body = client.request("PUT", "/todos")
    assert status == 405 and headers["Allow"] == "GET, POST" and "error" in body
    status, headers, _ = client.request("POST", "/todos/1")
    assert status == 405 and headers["Allow"] == "GET, PATCH, DELETE"


def test_bad_bodies(client):
    assert client.request("POST", "/todos", raw=b"{not json")[0] == 400
    assert client.request("POST", "/todos", raw=b"\xff\xfe")[0] == 400
    assert client.request("POST", "/todos", ["title"])[0] == 400
    assert client.request("POST", "/todos", {"title": "   "})[0] == 400
    assert client.request("POST", "/todos", {"title": "x", "done": "yes"})[0] == 400
    assert client.request("POST", "/todos", {"title": "x", "extra": 1})[0] == 400
    assert client.request("POST", "/todos", {"done": True})[0] == 400
    client.request("POST", "/todos", {"title": "x"})
    assert client.request("PATCH", "/todos/1", {})[0] == 400
    assert client.request("PATCH", "/todos/1", {"title": 5})[0] == 400


def test_missing_or_invalid_content_length():
    app = create_app()
    statuses = []
    for length in (None, "abc"):
        environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/todos", "wsgi.input": io.BytesIO(b"")}
        if length is not None:
            environ["CONTENT_LENGTH"] = length
        app(environ, lambda status, headers: statuses.append(status))
    assert statuses == ["400 Bad Request", "400 Bad Request"]


def test_ids_not_reused_after_delete(client):
    client.request("POST", "/todos", {"title": "a"})
    client.request("DELETE", "/todos/1")
    assert client.request("POST", "/todos", {"title": "b"})[2]["id"] == 2


def test_persistence_across_apps(tmp_path, make_client):
    db = tmp_path / "todos.json"
    first = make_client(str(db))
    first.request("POST", "/todos", {"title": "keep"})
    first.request("POST", "/todos", {"title": "drop"})
    first.request("DELETE", "/todos/2")
    second = make_client(str(db))
    assert second.request("GET", "/todos")[2] == [{"id": 1, "title": "keep", "done": False}]
    assert second.request("POST", "/todos", {"title": "new"})[2]["id"] == 3


def test_in_memory_apps_are_independent(make_client):
    make_client().request("POST", "/todos", {"title": "a"})
    assert make_client().request("GET", "/todos")[2] == []
