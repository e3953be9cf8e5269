"""Minimal WSGI plumbing: request parsing, routing and JSON responses."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from inventory.errors import BadRequest, MethodNotAllowed, NotFound

StartResponse = Callable[..., Any]
Environ = dict[str, Any]


class Request:
    """The parts of a WSGI environ the application needs."""

    def __init__(self, environ: Environ) -> None:
        self.environ = environ
        self.method: str = environ.get("REQUEST_METHOD", "GET").upper()
        self.path: str = environ.get("PATH_INFO", "") or "/"

    def _raw_body(self) -> bytes:
        try:
            length = int(self.environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        stream = self.environ.get("wsgi.input")
        return stream.read(length) if stream is not None and length > 0 else b""

    def json(self) -> dict[str, Any]:
        """Decode the body as a JSON object or raise :class:`BadRequest`."""
        try:
            body = json.loads(self._raw_body().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise BadRequest("request body must be valid JSON") from exc
        if not isinstance(body, dict):
            raise BadRequest("request body must be a JSON object")
        return body

    def bearer_token(self) -> str | None:
        """Return the token of an ``Authorization: Bearer <token>`` header, if any."""
        scheme, _, token = self.environ.get("HTTP_AUTHORIZATION", "").strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        return token.strip()


@dataclass(frozen=True)
class Route:
    """One HTTP method on one path pattern, with the permission it requires."""

    method: str
    pattern: re.Pattern[str]
    permission: str | None
    handler: Callable[..., tuple[int, Any]]


class Router:
    """Match ``(method, path)`` to a route; 404 for unknown paths, 405 for wrong methods."""

    def __init__(self) -> None:
        self.routes: list[Route] = []

    def add(self, method: str, path: str, permission: str | None, handler: Callable[..., tuple[int, Any]]) -> None:
        """Register ``handler``; ``path`` is a regular expression matched in full."""
        self.routes.append(Route(method, re.compile(path), permission, handler))

    def _candidates(self, path: str) -> Iterable[tuple[Route, dict[str, str]]]:
        for route in self.routes:
            match = route.pattern.fullmatch(path)
            if match is not None:
                yield route, match.groupdict()

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]]:
        """Return the matching route and its path parameters."""
        candidates = list(self._candidates(path))
        if not candidates:
            raise NotFound("not found")
        for route, params in candidates:
            if route.method == method:
                return route, params
        raise MethodNotAllowed("method not allowed")


def respond(start_response: StartResponse, status: int, payload: Any) -> list[bytes]:
    """Send a JSON response (no body for 204)."""
    phrase = f"{status} {HTTPStatus(status).phrase}"
    body = b"" if status == 204 else json.dumps(payload).encode("utf-8")
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    start_response(phrase, headers)
    return [body]
