"""Hidden acceptance tests for easy/todo-api (the WSGI app is called directly)."""

from __future__ import annotations

import io
import json
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest

MISSING = object()


class Result:
    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes) -> None:
        self.code = int(status.split()[0])
        self.headers = {k.lower(): v for k, v in headers}
        self.raw = body

    @property
    def json(self) -> Any:
        return json.loads(self.raw.decode("utf-8"))


def call(app, method: str, path: str, body: Any = MISSING, *, raw: bytes | None = None,
         query: str = "") -> Result:
    if raw is None:
        raw = b"" if body is MISSING else json.dumps(body).encode("utf-8")
    environ: dict[str, Any] = {}
    setup_testing_defaults(environ)
    environ.update({
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query,
        "CONTENT_LENGTH": str(len(raw)), "CONTENT_TYPE": "application/json",
        "wsgi.input": io.BytesIO(raw),
    })
    seen: dict[str, Any] = {}

    def start_response(status, headers, exc_info=None):
        seen["status"], seen["headers"] = status, headers

    result = app(environ, start_response)
    try:
        payload = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return Result(seen["status"], seen["headers"], payload)


def new_app(db_path=None):
    from todo_api import create_app

    return create_app(db_path) if db_path is not None else create_app()


@pytest.fixture
def app():
    return new_app()


def add(app, title: str, done: Any = MISSING) -> dict:
    body = {"title": title} if done is MISSING else {"title": title, "done": done}
    res = call(app, "POST", "/todos", body)
    assert res.code == 201, res.raw
    return res.json


def assert_error(res: Result, code: int) -> None:
    assert res.code == code, (res.code, res.raw)
    assert res.headers.get("content-type", "").startswith("application/json")
    body = res.json
    assert isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"]


# ------------------------------------------------------------------------------------ create/read


def test_empty_list(app):
    res = call(app, "GET", "/todos")
    assert res.code == 200 and res.json == []
    assert res.headers["content-type"].startswith("application/json")


def test_create_returns_201_with_todo_and_location(app):
    res = call(app, "POST", "/todos", {"title": "buy milk"})
    assert res.code == 201
    assert res.json == {"id": 1, "title": "buy milk", "done": False}
    assert res.headers["location"] == "/todos/1"
    assert res.headers["content-type"].startswith("application/json")


def test_create_with_done_and_stripped_title(app):
    assert add(app, "  call mum \n", True) == {"id": 1, "title": "call mum", "done": True}


def test_ids_are_sequential(app):
    assert [add(app, t)["id"] for t in ("a", "b", "c")] == [1, 2, 3]


def test_get_one(app):
    add(app, "a")
    add(app, "b", True)
    res = call(app, "GET", "/todos/2")
    assert res.code == 200 and res.json == {"id": 2, "title": "b", "done": True}


def test_list_is_ordered_by_id(app):
    for title in ("x", "y", "z"):
        add(app, title)
    call(app, "PATCH", "/todos/1", {"title": "zz"})
    assert [t["id"] for t in call(app, "GET", "/todos").json] == [1, 2, 3]


def test_unicode_title_round_trip(app):
    add(app, "café ☕ 日本")
    assert call(app, "GET", "/todos/1").json["title"] == "café ☕ 日本"


def test_title_max_length_200_ok(app):
    assert add(app, "t" * 200)["title"] == "t" * 200


# ------------------------------------------------------------------------------------ filtering


def test_filter_done_true_and_false(app):
    add(app, "a")
    add(app, "b", True)
    add(app, "c")
    add(app, "d", True)
    assert [t["title"] for t in call(app, "GET", "/todos", query="done=true").json] == ["b", "d"]
    assert [t["title"] for t in call(app, "GET", "/todos", query="done=false").json] == ["a", "c"]
    assert len(call(app, "GET", "/todos").json) == 4


@pytest.mark.parametrize("query", ["done=yes", "done=1", "done=True", "done="])
def test_filter_invalid_value_is_400(app, query):
    add(app, "a")
    assert_error(call(app, "GET", "/todos", query=query), 400)


# ------------------------------------------------------------------------------------ create validation


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"done": True},
        {"title": ""},
        {"title": "   "},
        {"title": None},
        {"title": 42},
        {"title": ["a"]},
        {"title": "t" * 201},
        {"title": "ok", "done": "true"},
        {"title": "ok", "done": 1},
        {"title": "ok", "done": None},
        {"title": "ok", "priority": 3},
        ["title", "ok"],
        "ok",
        7,
    ],
)
def test_create_validation_errors(app, body):
    assert_error(call(app, "POST", "/todos", body), 400)
    assert call(app, "GET", "/todos").json == []


@pytest.mark.parametrize("raw", [b"", b"{", b"{'title': 'x'}", b"\xff\xfe\x00"])
def test_create_invalid_json(app, raw):
    assert_error(call(app, "POST", "/todos", raw=raw), 400)


def test_rejected_create_does_not_consume_an_id(app):
    call(app, "POST", "/todos", {"title": ""})
    call(app, "POST", "/todos", raw=b"nope")
    assert add(app, "first")["id"] == 1


# ------------------------------------------------------------------------------------ update


def test_patch_done_keeps_title(app):
    add(app, "a")
    res = call(app, "PATCH", "/todos/1", {"done": True})
    assert res.code == 200 and res.json == {"id": 1, "title": "a", "done": True}
    assert call(app, "GET", "/todos/1").json == {"id": 1, "title": "a", "done": True}


def test_patch_title_keeps_done_and_strips(app):
    add(app, "a", True)
    res = call(app, "PATCH", "/todos/1", {"title": "  b  "})
    assert res.code == 200 and res.json == {"id": 1, "title": "b", "done": True}


def test_patch_both_fields(app):
    add(app, "a")
    res = call(app, "PATCH", "/todos/1", {"title": "c", "done": True})
    assert res.json == {"id": 1, "title": "c", "done": True}
    res = call(app, "PATCH", "/todos/1", {"done": False})
    assert res.json["done"] is False


@pytest.mark.parametrize(
    "body",
    [{}, {"title": ""}, {"title": "  "}, {"title": 1}, {"title": "t" * 201}, {"done": "false"},
     {"done": 0}, {"id": 5}, {"title": "x", "color": "red"}, ["done"]],
)
def test_patch_validation_errors_leave_todo_unchanged(app, body):
    add(app, "a")
    assert_error(call(app, "PATCH", "/todos/1", body), 400)
    assert call(app, "GET", "/todos/1").json == {"id": 1, "title": "a", "done": False}


def test_patch_invalid_json(app):
    add(app, "a")
    assert_error(call(app, "PATCH", "/todos/1", raw=b"{done: true}"), 400)


def test_patch_unknown_id_is_404(app):
    add(app, "a")
    assert_error(call(app, "PATCH", "/todos/2", {"done": True}), 404)
    assert call(app, "GET", "/todos").json == [{"id": 1, "title": "a", "done": False}]


def test_patch_unknown_id_with_invalid_body_is_404(app):
    assert_error(call(app, "PATCH", "/todos/5", {}), 404)


# ------------------------------------------------------------------------------------ delete


def test_delete(app):
    add(app, "a")
    add(app, "b")
    res = call(app, "DELETE", "/todos/1")
    assert res.code == 204 and res.raw == b""
    assert_error(call(app, "GET", "/todos/1"), 404)
    assert [t["id"] for t in call(app, "GET", "/todos").json] == [2]


def test_delete_twice_is_404(app):
    add(app, "a")
    assert call(app, "DELETE", "/todos/1").code == 204
    assert_error(call(app, "DELETE", "/todos/1"), 404)


def test_ids_are_never_reused(app):
    add(app, "a")
    add(app, "b")
    call(app, "DELETE", "/todos/2")
    assert add(app, "c")["id"] == 3
    call(app, "DELETE", "/todos/3")
    call(app, "DELETE", "/todos/1")
    assert add(app, "d")["id"] == 4


# ------------------------------------------------------------------------------------ 404 / 405


@pytest.mark.parametrize("path", ["/todos/1", "/todos/0", "/todos/999", "/todos/abc",
                                  "/todos/-1", "/todos/1/x", "/todo", "/", "/todos/"])
def test_unknown_paths_and_ids_are_404(app, path):
    assert_error(call(app, "GET", path), 404)


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_wrong_method_on_collection_is_405(app, method):
    res = call(app, method, "/todos", {"title": "x"})
    assert_error(res, 405)
    assert {m.strip() for m in res.headers["allow"].split(",")} == {"GET", "POST"}


@pytest.mark.parametrize("method", ["PUT", "POST"])
def test_wrong_method_on_item_is_405(app, method):
    add(app, "a")
    res = call(app, method, "/todos/1", {"title": "x"})
    assert_error(res, 405)
    assert {m.strip() for m in res.headers["allow"].split(",")} == {"GET", "PATCH", "DELETE"}
    assert call(app, "GET", "/todos/1").json["title"] == "a"


def test_wrong_method_on_unknown_item_is_405(app):
    assert_error(call(app, "POST", "/todos/42", {"title": "x"}), 405)


# ------------------------------------------------------------------------------------ persistence


def test_in_memory_apps_do_not_share_state():
    first, second = new_app(), new_app()
    add(first, "a")
    assert call(second, "GET", "/todos").json == []


def test_state_survives_a_new_app(tmp_path):
    db = str(tmp_path / "todos.json")
    first = new_app(db)
    add(first, "a")
    add(first, "b")
    call(first, "PATCH", "/todos/2", {"done": True})
    add(first, "c")
    call(first, "DELETE", "/todos/1")
    second = new_app(db)
    assert call(second, "GET", "/todos").json == [
        {"id": 2, "title": "b", "done": True}, {"id": 3, "title": "c", "done": False}]


def test_next_id_survives_restart_after_deleting_last(tmp_path):
    db = str(tmp_path / "todos.json")
    first = new_app(db)
    add(first, "a")
    add(first, "b")
    call(first, "DELETE", "/todos/2")
    assert add(new_app(db), "c")["id"] == 3


def test_storage_file_format(tmp_path):
    db = tmp_path / "todos.json"
    app = new_app(str(db))
    add(app, "a")
    add(app, "b", True)
    add(app, "c")
    call(app, "DELETE", "/todos/3")
    assert json.loads(db.read_text(encoding="utf-8")) == {
        "next_id": 4,
        "todos": [{"id": 1, "title": "a", "done": False}, {"id": 2, "title": "b", "done": True}],
    }


def test_existing_file_is_loaded(tmp_path):
    db = tmp_path / "todos.json"
    db.write_text(json.dumps({"next_id": 8, "todos": [
        {"id": 3, "title": "three", "done": False}, {"id": 7, "title": "seven", "done": True}]}),
        encoding="utf-8")
    app = new_app(str(db))
    assert [t["id"] for t in call(app, "GET", "/todos", query="done=true").json] == [7]
    assert call(app, "GET", "/todos/3").json == {"id": 3, "title": "three", "done": False}
    assert add(app, "eight")["id"] == 8


def test_missing_file_starts_empty(tmp_path):
    app = new_app(str(tmp_path / "new.json"))
    assert call(app, "GET", "/todos").json == []
    assert add(app, "x")["id"] == 1
