"""The WSGI application: routing, request parsing and JSON responses."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Callable, Iterable
from urllib.parse import parse_qs

from todo_api.store import TodoStore
from todo_api.validation import (
    ValidationError,
    parse_done_filter,
    parse_json_object,
    validate_create,
    validate_patch,
)

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
Handler = Callable[[], "Response"]
Headers = tuple[tuple[str, str], ...]

ITEM_PATH = re.compile(r"/todos/([0-9]+)")


@dataclass(frozen=True)
class Response:
    """An HTTP response before it is handed to the WSGI server."""

    status: int
    body: bytes = b""
    headers: Headers = ()

    @property
    def status_line(self) -> str:
        """Return e.g. ``"404 Not Found"``."""
        return f"{self.status} {HTTPStatus(self.status).phrase}"


def json_response(status: int, payload: Any, headers: Headers = ()) -> Response:
    """Return a response with a JSON body."""
    body = json.dumps(payload).encode("utf-8")
    content = (("Content-Type", "application/json"), ("Content-Length", str(len(body))))
    return Response(status, body, content + headers)


def error_response(status: int, message: str, headers: Headers = ()) -> Response:
    """Return a JSON error response ``{"error": message}``."""
    return json_response(status, {"error": message}, headers)


def read_body(environ: Environ) -> bytes:
    """Read exactly CONTENT_LENGTH bytes of the request body."""
    raw = environ.get("CONTENT_LENGTH") or "0"
    try:
        length = int(raw)
    except ValueError as exc:
        raise ValidationError("invalid Content-Length header") from exc
    return environ["wsgi.input"].read(length) if length > 0 else b""


def dispatch_method(handlers: dict[str, Handler], method: str) -> Response:
    """Call the handler for ``method``: 405 if there is none, 400 on validation errors."""
    handler = handlers.get(method)
    if handler is None:
        allow = (("Allow", ", ".join(handlers)),)
        return error_response(405, f"method {method} not allowed", allow)
    try:
        return handler()
    except ValidationError as exc:
        return error_response(400, str(exc))


class TodoApp:
    """WSGI callable serving the todo API on top of a :class:`TodoStore`."""

    def __init__(self, store: TodoStore) -> None:
        self.store = store

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        response = self.handle(environ)
        start_response(response.status_line, list(response.headers))
        return [response.body]

    def handle(self, environ: Environ) -> Response:
        """Route a request to the collection or item handlers."""
        path = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD", "GET").upper()
        if path == "/todos":
            return dispatch_method(self._collection_handlers(environ), method)
        match = ITEM_PATH.fullmatch(path)
        if match:
            return dispatch_method(self._item_handlers(environ, int(match.group(1))), method)
        return error_response(404, f"no route for {path}")

    def _collection_handlers(self, environ: Environ) -> dict[str, Handler]:
        return {"GET": lambda: self._list(environ), "POST": lambda: self._create(environ)}

    def _item_handlers(self, environ: Environ, todo_id: int) -> dict[str, Handler]:
        return {
            "GET": lambda: self._get(todo_id),
            "PATCH": lambda: self._patch(environ, todo_id),
            "DELETE": lambda: self._delete(todo_id),
        }

    def _list(self, environ: Environ) -> Response:
        query = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        done = parse_done_filter(query.get("done"))
        return json_response(200, [todo.to_dict() for todo in self.store.list(done)])

    def _create(self, environ: Environ) -> Response:
        fields = validate_create(parse_json_object(read_body(environ)))
        todo = self.store.create(fields["title"], fields["done"])
        return json_response(201, todo.to_dict(), (("Location", f"/todos/{todo.id}"),))

    def _get(self, todo_id: int) -> Response:
        todo = self.store.get(todo_id)
        if todo is None:
            return _not_found(todo_id)
        return json_response(200, todo.to_dict())

    def _patch(self, environ: Environ, todo_id: int) -> Response:
        if self.store.get(todo_id) is None:
            return _not_found(todo_id)
        changes = validate_patch(parse_json_object(read_body(environ)))
        return json_response(200, self.store.update(todo_id, changes).to_dict())

    def _delete(self, todo_id: int) -> Response:
        if not self.store.delete(todo_id):
            return _not_found(todo_id)
        return Response(204)


def _not_found(todo_id: int) -> Response:
    """Return the 404 response for an unknown todo id."""
    return error_response(404, f"todo {todo_id} not found")


def create_app(db_path: str | None = None) -> TodoApp:
    """Return the WSGI application; persist to ``db_path`` (a JSON file) when given."""
    return TodoApp(TodoStore(db_path))
