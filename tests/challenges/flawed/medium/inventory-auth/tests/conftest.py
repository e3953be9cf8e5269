"""Test helpers: a fake clock and a tiny WSGI client."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

import pytest

from inventory import create_app

SECRET = "test-secret"
START = 1_000_000.0


class FakeClock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Result:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class WsgiClient:
    """Calls a WSGI app in-process."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             raw: bytes | None = None) -> Result:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else b"")
        environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "CONTENT_LENGTH": str(len(data)),
                   "wsgi.input": io.BytesIO(data)}
        if token:
            environ["HTTP_AUTHORIZATION"] = f"Bearer {token}"
        seen: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]]) -> None:
            seen["status"], seen["headers"] = status, dict(headers)

        payload = b"".join(self.app(environ, start_response))
        return Result(int(seen["status"].split()[0]), seen["headers"], payload)

    def token(self, username: str, password: str) -> str:
        return self.call("POST", "/login", {"username": username, "password": password}).json()["token"]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(tmp_path, clock) -> WsgiClient:
    app = create_app(str(tmp_path / "inv.db"), SECRET, clock=clock, bootstrap_admin=("root", "rootpass"),
                     pbkdf2_iterations=10)
    return WsgiClient(app)


@pytest.fixture
def tokens(client) -> dict[str, str]:
    admin = client.token("root", "rootpass")
    for role in ("clerk", "viewer"):
        client.call("POST", "/users", {"username": role, "password": f"{role}-pass", "role": role}, admin)
    return {"admin": admin, "clerk": client.token("clerk", "clerk-pass"),
            "viewer": client.token("viewer", "viewer-pass")}
