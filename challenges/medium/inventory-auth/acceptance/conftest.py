"""Shared fixtures for the hidden acceptance tests of medium/inventory-auth."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import sqlite3

import pytest

SECRET = "acceptance-secret-Δ"
T0 = 1_700_000_000.25
ITERATIONS = 1000
ADMIN = ("admin", "admin-pass-1")


class Clock:
    """Manually advanced clock."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Response:
    def __init__(self, status: str, headers: list, body: bytes) -> None:
        self.status = int(status.split()[0])
        self.headers = {k.lower(): v for k, v in headers}
        self.body = body

    def json(self):
        return json.loads(self.body.decode("utf-8"))


class Client:
    def __init__(self, app) -> None:
        self.app = app

    def request(self, method, path, body=None, token=None, raw=None, auth_header=None):
        data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "testserver",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(data)),
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": io.StringIO(),
            "wsgi.url_scheme": "http",
            "wsgi.version": (1, 0),
            "wsgi.multithread": False,
            "wsgi.multiprocess": False,
            "wsgi.run_once": False,
        }
        if auth_header is not None:
            environ["HTTP_AUTHORIZATION"] = auth_header
        elif token is not None:
            environ["HTTP_AUTHORIZATION"] = f"Bearer {token}"
        captured = {}

        def start_response(status, headers, exc_info=None):
            captured["status"] = status
            captured["headers"] = headers

        result = self.app(environ, start_response)
        try:
            payload = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        return Response(captured["status"], captured["headers"], payload)

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.request("POST", path, body=body, **kw)

    def patch(self, path, body=None, **kw):
        return self.request("PATCH", path, body=body, **kw)

    def delete(self, path, **kw):
        return self.request("DELETE", path, **kw)

    def login(self, username, password):
        resp = self.post("/login", {"username": username, "password": password})
        assert resp.status == 200, (resp.status, resp.body)
        return resp.json()["token"]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def forge(payload: bytes | dict, secret: str = SECRET) -> str:
    """Build a token exactly as the prompt specifies."""
    if isinstance(payload, dict):
        payload = json.dumps(payload).encode("utf-8")
    part = b64url(payload)
    sig = hmac.new(secret.encode("utf-8"), part.encode("ascii"), hashlib.sha256).digest()
    return f"{part}.{b64url(sig)}"


def pbkdf2_hash(password: str, salt: bytes, iterations: int) -> str:
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


class Env:
    """An app on a temporary database, with an admin, a clerk, a viewer and tokens for each."""

    def __init__(self, tmp_path) -> None:
        from inventory import create_app

        self.db_path = str(tmp_path / "inventory.db")
        self.clock = Clock()
        self.app = create_app(self.db_path, SECRET, clock=self.clock, bootstrap_admin=ADMIN,
                              pbkdf2_iterations=ITERATIONS)
        self.client = Client(self.app)
        self.admin = self.client.login(*ADMIN)
        for name, role in (("clerk1", "clerk"), ("viewer1", "viewer")):
            resp = self.client.post("/users", {"username": name, "password": f"{name}-password",
                                               "role": role}, token=self.admin)
            assert resp.status == 201, (resp.status, resp.body)
        self.clerk = self.client.login("clerk1", "clerk1-password")
        self.viewer = self.client.login("viewer1", "viewer1-password")

    def db(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.db_path)
        conn.row_factory = sqlite3.Row
        return conn

    def rows(self, sql, params=()):
        conn = self.db()
        try:
            return [dict(r) for r in conn.execute(sql, params).fetchall()]
        finally:
            conn.close()

    def item(self, sku="SKU-1", name="Widget", quantity=10):
        resp = self.client.post("/items", {"sku": sku, "name": name, "quantity": quantity}, token=self.admin)
        assert resp.status == 201, (resp.status, resp.body)
        return resp.json()


@pytest.fixture
def env(tmp_path):
    return Env(tmp_path)
