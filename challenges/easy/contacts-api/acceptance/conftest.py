"""WSGI test client fixtures for the contacts_api acceptance tests."""

import io
import json
from dataclasses import dataclass

import pytest


@dataclass
class Result:
    status_line: str
    headers: dict
    raw: bytes

    @property
    def status(self):
        return int(self.status_line.split()[0])

    @property
    def json(self):
        return json.loads(self.raw.decode("utf-8"))

    def header(self, name):
        for key, value in self.headers.items():
            if key.lower() == name.lower():
                return value
        return None


class Client:
    def __init__(self, app):
        self.app = app

    def request(self, method, path, body=None, query="", raw=None, content_length=True):
        if raw is None:
            raw = b"" if body is None else json.dumps(body).encode("utf-8")
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SCRIPT_NAME": "",
            "SERVER_NAME": "testserver",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "CONTENT_TYPE": "application/json",
            "wsgi.input": io.BytesIO(raw),
            "wsgi.errors": io.StringIO(),
            "wsgi.url_scheme": "http",
            "wsgi.version": (1, 0),
            "wsgi.multithread": False,
            "wsgi.multiprocess": False,
            "wsgi.run_once": False,
        }
        if content_length:
            environ["CONTENT_LENGTH"] = str(len(raw))
        captured = {}

        def start_response(status, headers, exc_info=None):
            captured["status"] = status
            captured["headers"] = dict(headers)

        chunks = self.app(environ, start_response)
        try:
            data = b"".join(chunks)
        finally:
            if hasattr(chunks, "close"):
                chunks.close()
        return Result(captured["status"], captured["headers"], data)

    def get(self, path, query=""):
        return self.request("GET", path, query=query)

    def post(self, body, path="/contacts"):
        return self.request("POST", path, body)


def _create_app(path=None):
    from contacts_api import create_app

    return create_app(None if path is None else str(path))


@pytest.fixture
def client():
    return Client(_create_app())


@pytest.fixture
def make_client():
    return lambda path=None: Client(_create_app(path))
