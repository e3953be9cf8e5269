"""A loopback HTTP server that answers model-API requests from a `Script`.

Protocol modules (`anthropic`, `openai_chat`, `openai_responses`, `gemini`) each expose `ROUTES`, a
tuple of `Route(method, pattern, handler)`; a handler turns an `Exchange` into a `Reply` (a status,
headers and body chunks, so server-sent-event streams work). The server binds to 127.0.0.1 only,
counts the usage it reported in a thread-safe `Ledger`, and logs every request it saw.
"""

from __future__ import annotations

import importlib
import json
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlsplit

from agentbench.modelserver.script import Script

PROTOCOLS = ("anthropic", "openai_chat", "openai_responses", "gemini")
"""Protocol modules loaded if present (each in agentbench/modelserver/<name>.py)."""


class Reply(NamedTuple):
    """An HTTP answer: body chunks are sent as they come (streaming) unless there is one."""

    status: int
    headers: dict[str, str]
    chunks: Iterable[bytes]


@dataclass(frozen=True, slots=True)
class Exchange:
    """One request as a handler sees it."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    script: Script
    ledger: Ledger
    match: re.Match[str]


class Route(NamedTuple):
    """A handler for `method` requests whose path matches `pattern` (a full-match regex)."""

    method: str
    pattern: str
    handler: Callable[[Exchange], Reply]


@dataclass
class Ledger:
    """Usage the server reported and requests it saw (guarded by a lock: handlers run in threads)."""

    input_tokens: int = 0
    output_tokens: int = 0
    calls: int = 0
    requests: list[dict[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def charge(self, input_tokens: int, output_tokens: int) -> None:
        """Count one model call's reported usage."""
        with self._lock:
            self.input_tokens += input_tokens
            self.output_tokens += output_tokens
            self.calls += 1

    def note(self, method: str, path: str, body: Any) -> None:
        """Remember a request (for `doctor` and tests)."""
        with self._lock:
            self.requests.append({"method": method, "path": path, "body": body})


def json_reply(status: int, payload: Any) -> Reply:
    """A JSON body."""
    return Reply(status, {"Content-Type": "application/json"}, [json.dumps(payload).encode()])


def sse_reply(events: Iterable[tuple[str | None, Any]]) -> Reply:
    """A server-sent-event stream of (event name or None, JSON data) pairs."""

    def chunks() -> Iterable[bytes]:
        for name, data in events:
            head = f"event: {name}\n" if name else ""
            yield f"{head}data: {json.dumps(data)}\n\n".encode()

    return Reply(200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}, chunks())


ERROR_TYPES = {401: ("authentication_error", "UNAUTHENTICATED"), 403: ("permission_error", "PERMISSION_DENIED"),
               429: ("rate_limit_error", "RESOURCE_EXHAUSTED")}
"""Error type names per status: (Anthropic/OpenAI `type`, Google `status`); 5xx are server errors."""


def failure_reply(status: int) -> Reply:
    """An error answer every client can parse: Anthropic (`type`, `error.type`), OpenAI
    (`error.message`, `error.type`, `error.code`) and Google (`error.code`, `error.status`)."""
    kind, google = ERROR_TYPES.get(status, ("api_error" if status >= 500 else "invalid_request_error",
                                            "UNAVAILABLE" if status >= 500 else "INVALID_ARGUMENT"))
    message = f"scripted endpoint failure: HTTP {status} ({kind})"
    return json_reply(status, {"type": "error", "error": {"type": kind, "message": message,
                                                          "code": status, "status": google}})


def load_routes() -> tuple[Route, ...]:
    """Routes of every protocol module present."""
    routes: list[Route] = []
    for name in PROTOCOLS:
        try:
            module = importlib.import_module(f"agentbench.modelserver.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"agentbench.modelserver.{name}":
                raise
            continue
        routes.extend(module.ROUTES)
    return tuple(routes)


class ModelServer(ThreadingHTTPServer):
    """The HTTP server: holds the script, the ledger and the routes."""

    daemon_threads = True

    def __init__(self, script: Script, port: int = 0) -> None:
        self.script = script
        self.ledger = Ledger()
        self.routes = load_routes()
        super().__init__(("127.0.0.1", port), _Handler)

    @property
    def url(self) -> str:
        """Base URL, e.g. http://127.0.0.1:41234."""
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class _Handler(BaseHTTPRequestHandler):
    server: ModelServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: requests are kept in the ledger instead."""

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        url = urlsplit(self.path)
        body = self._read_body()
        self.server.ledger.note(method, url.path, body)
        if self.server.script.fail_status is not None:
            self._send(failure_reply(self.server.script.fail_status))
            return
        for route in self.server.routes:
            match = re.fullmatch(route.pattern, url.path)
            if route.method == method and match:
                exchange = Exchange(method, url.path, parse_qs(url.query), dict(self.headers), body,
                                    self.server.script, self.server.ledger, match)
                self._send(route.handler(exchange))
                return
        self._send(json_reply(404, {"error": {"message": f"no scripted route for {method} {url.path}"}}))

    def _read_body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return raw.decode("utf-8", "replace")

    def _send(self, reply: Reply) -> None:
        chunks = reply.chunks if isinstance(reply.chunks, list) else None
        self.send_response(reply.status)
        for key, value in reply.headers.items():
            self.send_header(key, value)
        if chunks is not None:
            data = b"".join(chunks)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self.send_header("Connection", "close")
        self.end_headers()
        for chunk in reply.chunks:
            self.wfile.write(chunk)
            self.wfile.flush()
        self.close_connection = True


class RunningServer:
    """A model server running in a background thread; use as a context manager."""

    def __init__(self, script: Script, port: int = 0) -> None:
        self.server = ModelServer(script, port)
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """Base URL."""
        return self.server.url

    @property
    def ledger(self) -> Ledger:
        """Usage reported and requests seen."""
        return self.server.ledger

    def __enter__(self) -> RunningServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
