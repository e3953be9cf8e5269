"""Shared helpers: call the WSGI app directly, without a server."""

from __future__ import annotations

import io
import json
from typing import Any, Callable

import pytest

from todo_api import create_app


class Client:
    """Minimal WSGI test client returning (status code, headers, decoded JSON body)."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
                query: str = "") -> tuple[int, dict[str, str], Any]:
        data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query,
            "CONTENT_LENGTH": str(len(data)), "wsgi.input": io.BytesIO(data),
        }
        captured: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]]) -> None:
            captured["status"], captured["headers"] = status, dict(headers)

        payload = b"".join(self.app(environ, start_response))
        parsed = json.loads(payload) if payload else None
        return int(captured["status"].split()[0]), captured["headers"], parsed


@pytest.fixture
def client() -> Client:
    return Client(create_app())


@pytest.fixture
def make_client() -> Callable[..., Client]:
    return lambda db_path=None: Client(create_app(db_path))
