"""Helpers for calling the WSGI application directly."""

import io
import json
from wsgiref.util import setup_testing_defaults

import pytest

from contacts_api import create_app


class Client:
    """A tiny WSGI test client."""

    def __init__(self, app):
        self.app = app

    def request(self, method, path, body=None, query="", raw=None):
        payload = raw if raw is not None else (json.dumps(body).encode() if body is not None else b"")
        environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query,
                   "CONTENT_LENGTH": str(len(payload)), "wsgi.input": io.BytesIO(payload)}
        setup_testing_defaults(environ)
        captured = {}

        def start_response(status, headers):
            captured["status"] = int(status.split()[0])
            captured["headers"] = dict(headers)

        data = b"".join(self.app(environ, start_response))
        return captured["status"], captured["headers"], json.loads(data) if data else None


@pytest.fixture
def client():
    return Client(create_app())


@pytest.fixture
def make_client():
    return lambda path=None: Client(create_app(path))
