"""A metering proxy the harness owns, between an agent CLI and its model endpoint (opt-in: `meter`).

A CLI's own account of its tokens is the agent's word: it can leave calls out (Aider's chat-history
summaries are in no log it writes), round them (`1.2k`), or be made to print anything. The meter
counts what the endpoint itself answered instead. For one trial it listens on 127.0.0.1, the CLI's
base-URL variable points at it, and every request is forwarded unchanged to the real endpoint; the
usage each answer carries (a JSON body, or the server-sent events of a stream: OpenAI's last chunk,
Responses' `response.completed`, Anthropic's `message_start` + `message_delta`, Gemini's
`usageMetadata`) is counted as it passes, without changing a byte of it.

The meter holds the API key. The CLI gets a random per-trial token in its place, which the meter
swaps for the real key on the way out; a request without the token is refused and never forwarded.
Only model calls and model lists are forwarded (`ROUTES`): the key cannot be used through the meter
for anything whose tokens an answer would not show (batches, stored responses, files).
So a call that goes around the meter (straight to the endpoint, from the CLI or from anything the
agent runs) has no key and fails: every call that spends tokens is a call the meter counted. Other
providers' keys are not given to a metered agent at all.

Only the harness's process sees the real key and the counts; nothing in the trial can reach them.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import ssl
import threading
import zlib
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from agentbench.adapters.endpoint import ANTHROPIC, DEFAULT_URLS, Endpoint
from agentbench.pricing import CallTokens

UPSTREAM_TIMEOUT_S = 900.0
"""Longest wait for one read from the endpoint (a long generation streams slowly)."""

JSON_CAP_BYTES = 64 * 1024 * 1024
"""Largest non-streamed answer whose usage is read (a larger one is passed on, its usage unseen)."""

MAX_REQUEST_BYTES = 64 * 1024 * 1024
"""Largest request body the meter reads (a model call's is far smaller)."""

SETTLE_S = 10.0
"""Longest wait, when the reading is taken, for requests still in flight."""

ROUTES = (
    ("POST", re.compile(r"(?:/[\w-][\w.-]*)*/(?:chat/completions|completions|responses|messages"
                        r"|messages/count_tokens)")),
    ("POST", re.compile(r"(?:/[\w-][\w.-]*)*/models/[\w-][\w.-]*:(?:generateContent|streamGenerateContent"
                        r"|countTokens)")),
    ("GET", re.compile(r"(?:/[\w-][\w.-]*)*/models(?:/[\w-][\w.:-]*)?")),
)
"""(method, full-match path pattern) of the requests the meter forwards: model calls (OpenAI Chat
Completions and Responses, Anthropic Messages, Gemini) and model lists; anything else is refused."""

_FREE = re.compile(r".*(?:/messages/count_tokens|:countTokens)")
"""Routes that count tokens without spending any (their answers carry no usage)."""

MAX_REFUSED_KEPT = 20
"""Refused requests whose method and path the reading keeps (to say what a CLI tried)."""

_HOP_HEADERS = frozenset({"expect", "connection", "keep-alive", "proxy-authenticate", "proxy-authorization",
                          "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length"})
_KEY_HEADERS = ("authorization", "x-api-key", "x-goog-api-key", "api-key")
_TOKEN_PREFIX = "agentbench-meter-"


@dataclass(frozen=True, slots=True)
class MeteredCall:
    """One request the meter forwarded."""

    method: str
    path: str
    status: int
    tokens: CallTokens | None
    """The usage the endpoint's answer reported (None: it reported none)."""
    model: str | None
    complete: bool = True
    """Whether the whole answer passed (False: the client went away mid-answer; its usage so far)."""
    tools: bool = False
    """Whether the request offered the model tools (a tool-using CLI's main-loop call, not a side
    request such as a title or a summary)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterReading:
    """What the meter saw during one trial."""

    calls: tuple[CallTokens, ...]
    """Each answer's usage, in order (answers that reported usage only)."""
    forwarded: int
    """Requests forwarded to the endpoint (model calls, model lists...)."""
    unmetered: int
    """Successful POST answers without usage, and requests still running when the reading was
    taken: tokens may have been spent that the meter could not read (the totals are then a lower
    bound)."""
    refused: int
    """Requests refused, never forwarded: without the trial's token, or not a model call."""
    refused_requests: tuple[str, ...] = ()
    """`METHOD /path` of the first refused requests (why a CLI failed under the meter)."""
    models: tuple[str, ...]
    """The models the endpoint said answered, in order of first use."""
    offered_tools: tuple[bool, ...] = ()
    """For each of `calls`: whether its request offered the model tools."""
    call_models: tuple[str | None, ...] = ()
    """For each of `calls`: the model the endpoint said answered (None: not said)."""

    @property
    def totals(self) -> CallTokens:
        """The summed usage (input counts cached tokens too)."""
        return CallTokens(sum(c.input for c in self.calls), sum(c.output for c in self.calls),
                          sum(c.cache_read for c in self.calls), sum(c.cache_write for c in self.calls))


@dataclass
class _Log:
    calls: list[MeteredCall] = field(default_factory=list)
    refused: int = 0
    refused_requests: list[str] = field(default_factory=list)
    active: int = 0
    lock: threading.Condition = field(default_factory=threading.Condition)

    def add(self, call: MeteredCall) -> None:
        with self.lock:
            self.calls.append(call)

    def refuse(self, request: str) -> None:
        with self.lock:
            self.refused += 1
            if len(self.refused_requests) < MAX_REFUSED_KEPT:
                self.refused_requests.append(request[:300])

    def begin(self) -> None:
        with self.lock:
            self.active += 1

    def end(self) -> None:
        with self.lock:
            self.active -= 1
            self.lock.notify_all()

    def settle(self, timeout_s: float) -> tuple[list[MeteredCall], list[str], int]:
        """The calls, the refusals and the requests still in flight, once those are done (or
        after `timeout_s`)."""
        with self.lock:
            self.lock.wait_for(lambda: self.active == 0, timeout=timeout_s)
            return list(self.calls), list(self.refused_requests) + [""] * (
                self.refused - len(self.refused_requests)), self.active


def usage_fields(event: Any, protocol: str) -> dict[str, int]:
    """The usage counts one JSON object of an answer carries (`input` counts cached tokens)."""
    if not isinstance(event, dict):
        return {}
    meta = event.get("usageMetadata")
    if isinstance(meta, dict):
        return _gemini(meta)
    for holder in (event, event.get("message"), event.get("response")):
        usage = holder.get("usage") if isinstance(holder, dict) else None
        if isinstance(usage, dict):
            return _anthropic(usage) if protocol == ANTHROPIC else _openai(usage)
    return {}


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _openai(usage: dict[str, Any]) -> dict[str, int]:
    chat = "prompt_tokens" in usage or "completion_tokens" in usage
    details = usage.get("prompt_tokens_details" if chat else "input_tokens_details")
    cached = _int(details.get("cached_tokens")) if isinstance(details, dict) else 0
    return {"input": _int(usage.get("prompt_tokens" if chat else "input_tokens")),
            "output": _int(usage.get("completion_tokens" if chat else "output_tokens")),
            "cache_read": cached}


def _anthropic(usage: dict[str, Any]) -> dict[str, int]:
    read, write = _int(usage.get("cache_read_input_tokens")), _int(usage.get("cache_creation_input_tokens"))
    found = {"output": _int(usage.get("output_tokens")), "cache_read": read, "cache_write": write}
    if "input_tokens" in usage:
        found["input"] = _int(usage.get("input_tokens")) + read + write
    return found


def _gemini(meta: dict[str, Any]) -> dict[str, int]:
    return {"input": _int(meta.get("promptTokenCount")),
            "output": _int(meta.get("candidatesTokenCount")) + _int(meta.get("thoughtsTokenCount")),
            "cache_read": _int(meta.get("cachedContentTokenCount"))}


def model_of(event: Any) -> str | None:
    """The model an answer says answered (`model`, `message.model`, `response.model`, `modelVersion`)."""
    if not isinstance(event, dict):
        return None
    for holder in (event, event.get("message"), event.get("response")):
        if isinstance(holder, dict):
            found = holder.get("model") or holder.get("modelVersion")
            if isinstance(found, str) and found:
                return found[:200]
    return None


class _Answer:
    """Reads the usage of one answer from its bytes as they pass (SSE lines or one JSON body)."""

    def __init__(self, protocol: str, content_type: str, encoding: str) -> None:
        self.protocol = protocol
        self.stream = "text/event-stream" in content_type
        self.inflate = zlib.decompressobj(wbits=47) if encoding in ("gzip", "deflate") else None
        self.pending = bytearray()
        self.fields: dict[str, int] = {}
        self.model: str | None = None
        self.overflow = False

    def feed(self, data: bytes) -> None:
        if self.inflate is not None:
            data = self.inflate.decompress(data)
        self.pending += data
        if self.stream:
            *lines, rest = bytes(self.pending).split(b"\n")
            self.pending = bytearray(rest)
            for line in lines:
                self._line(line)
        elif len(self.pending) > JSON_CAP_BYTES:
            self.overflow, self.pending = True, bytearray()

    def _line(self, line: bytes) -> None:
        text = line.strip()
        if text.startswith(b"data:") and text[5:].strip() != b"[DONE]":
            self._event(text[5:].strip())

    def _event(self, raw: bytes) -> None:
        try:
            event = json.loads(raw)
        except ValueError:
            return
        for item in event if isinstance(event, list) else [event]:
            for key, value in usage_fields(item, self.protocol).items():
                self.fields[key] = max(self.fields.get(key, 0), value)
            self.model = self.model or model_of(item)

    def finish(self) -> tuple[CallTokens | None, str | None]:
        if self.stream:
            self._line(bytes(self.pending))
        elif not self.overflow and self.pending:
            self._event(bytes(self.pending))
        if "input" not in self.fields and "output" not in self.fields:
            return None, self.model
        f = self.fields
        return CallTokens(f.get("input", 0), f.get("output", 0), f.get("cache_read", 0),
                          f.get("cache_write", 0)), self.model


METER_LOG = "meter.json"
"""The reading, kept in the trial's logs folder (the harness's; the agent cannot reach it)."""


def write_reading(path: Path, reading: MeterReading) -> None:
    """Keep a reading as JSON: totals, each call's tokens, refused requests."""
    totals = reading.totals
    data = {"input_tokens": totals.input, "output_tokens": totals.output,
            "cache_read_tokens": totals.cache_read, "cache_write_tokens": totals.cache_write,
            "calls": [{"input": c.input, "output": c.output, "cache_read": c.cache_read,
                       "cache_write": c.cache_write, "tools": tools}
                      for c, tools in zip(reading.calls, reading.offered_tools, strict=True)],
            "forwarded": reading.forwarded, "unmetered": reading.unmetered,
            "refused": reading.refused, "refused_requests": list(reading.refused_requests),
            "models": list(reading.models)}
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def unmeterable(endpoint: Endpoint) -> str | None:
    """Why the meter cannot stand in front of `endpoint` (None: it can)."""
    base = urlsplit(endpoint.base_url or DEFAULT_URLS[endpoint.protocol])
    if base.scheme not in ("http", "https") or not base.hostname:
        return f"the model endpoint's URL is not http(s): {base.geturl()!r}"
    return None


class Meter:
    """The proxy for one trial: `with Meter(endpoint) as meter:` ... `meter.reading()`."""

    def __init__(self, endpoint: Endpoint) -> None:
        problem = unmeterable(endpoint)
        if problem:
            raise ValueError(problem)
        base = urlsplit(endpoint.base_url or DEFAULT_URLS[endpoint.protocol])
        self.endpoint = endpoint
        self.upstream = base
        self.token = _TOKEN_PREFIX + secrets.token_hex(16) if endpoint.key else None
        self._log = _Log()
        self._open: set[http.client.HTTPConnection] = set()
        self._server = _ProxyServer(self)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """The URL the CLI is given in place of the endpoint's (same path, the meter's origin)."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{self.upstream.path.rstrip('/')}"

    def __enter__(self) -> Meter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        with self._log.lock:
            still_open = list(self._open)
        for conn in still_open:  # NOTE: ends the handler threads of requests the CLI left running
            conn.close()

    def opened(self, conn: http.client.HTTPConnection) -> None:
        """A connection to the endpoint is in use (closed at the latest when the meter stops)."""
        with self._log.lock:
            self._open.add(conn)

    def closed(self, conn: http.client.HTTPConnection) -> None:
        """A connection to the endpoint is done."""
        with self._log.lock:
            self._open.discard(conn)

    def reading(self, settle_s: float = SETTLE_S) -> MeterReading:
        """What was counted (once the requests in flight are done, waiting `settle_s` at most)."""
        calls, refusals, running = self._log.settle(settle_s)
        models = dict.fromkeys(c.model for c in calls if c.model and c.tokens)
        return MeterReading(
            calls=tuple(c.tokens for c in calls if c.tokens), forwarded=len(calls),
            offered_tools=tuple(c.tools for c in calls if c.tokens),
            call_models=tuple(c.model for c in calls if c.tokens),
            refused=len(refusals), refused_requests=tuple(r for r in refusals if r),
            unmetered=running + sum(1 for c in calls if (c.tokens is None or not c.complete)
                                    and 200 <= c.status < 300 and c.method == "POST"
                                    and not _FREE.fullmatch(c.path)),
            models=tuple(m for m in models if m))

    def record(self, call: MeteredCall) -> None:
        """Count one forwarded request (called by the proxy's handler threads)."""
        self._log.add(call)

    def refuse(self, request: str) -> None:
        """Count one refused request (`METHOD /path`)."""
        self._log.refuse(request)

    def begin(self) -> None:
        """A request arrived (the reading waits for it)."""
        self._log.begin()

    def end(self) -> None:
        """A request is done."""
        self._log.end()

    def connection(self) -> http.client.HTTPConnection:
        """A new connection to the endpoint; an HTTPS one through the user's proxy where one is set
        for it (`HTTPS_PROXY`, `NO_PROXY`), as the CLI itself would go."""
        host, port = self.upstream.hostname or "", self.upstream.port
        if self.upstream.scheme != "https":
            return http.client.HTTPConnection(host, port, timeout=UPSTREAM_TIMEOUT_S)
        proxy = _proxy_for(host)
        via = urlsplit(proxy) if proxy else None
        conn = http.client.HTTPSConnection(via.hostname or "" if via else host, via.port if via else port,
                                           timeout=UPSTREAM_TIMEOUT_S, context=ssl.create_default_context())
        if via:
            conn.set_tunnel(host, port)
        return conn


def _proxy_for(host: str) -> str | None:
    """The user's proxy URL for HTTPS requests to `host`, or None."""
    import urllib.request

    proxy = urllib.request.getproxies().get("https")
    if not proxy or urllib.request.proxy_bypass(host):
        return None
    return proxy if "://" in proxy else f"http://{proxy}"


class _ProxyServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, meter: Meter) -> None:
        self.meter = meter
        super().__init__(("127.0.0.1", 0), _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: _ProxyServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the meter keeps its own count."""

    def do_GET(self) -> None:
        self._forward("GET")

    def do_POST(self) -> None:
        self._forward("POST")

    def do_PUT(self) -> None:
        self._forward("PUT")

    def do_DELETE(self) -> None:
        self._forward("DELETE")

    def _forward(self, method: str) -> None:
        self.server.meter.begin()
        try:
            self._meter(method)
        finally:
            self.server.meter.end()

    def _meter(self, method: str) -> None:
        meter = self.server.meter
        body = self._read_body()
        if body is None:
            meter.refuse(f"{method} (a malformed or oversized body)")
            self._json(413, f"AgentBench's meter takes request bodies up to {MAX_REQUEST_BYTES} bytes")
            return
        headers, path = self._swap_token(meter)
        where = f"{method} {self.path.split('?')[0]}"
        if headers is None:
            meter.refuse(where.replace(meter.token or "\0", "<token>"))
            self._json(401, "the request does not carry this trial's key (AgentBench's meter)")
            return
        if not any(m == method and p.fullmatch(path.split("?")[0]) for m, p in ROUTES):
            meter.refuse(where.replace(meter.token or "\0", "<token>"))
            self._json(403, f"AgentBench's meter forwards model calls only, not {where[:200]}")
            return
        self._relay(meter, (method, path), headers, _with_stream_usage(path, body))

    def _read_body(self) -> bytes | None:
        """The request's body; None when it is malformed or over `MAX_REQUEST_BYTES` (not read
        further: a client cannot make the harness hold more)."""
        try:
            if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                return self._read_chunks()
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            return None
        if not 0 <= length <= MAX_REQUEST_BYTES:
            return None
        body = self.rfile.read(length) if length else b""
        return body if len(body) == length else None

    def _read_chunks(self) -> bytes | None:
        parts, total = [], 0
        while size := int(self.rfile.readline(64).split(b";")[0].strip() or b"0", 16):
            total += size
            if size < 0 or total > MAX_REQUEST_BYTES:
                return None
            parts.append(self.rfile.read(size))
            self.rfile.readline(64)
        while self.rfile.readline(8192).strip():
            pass
        return b"".join(parts)

    def _swap_token(self, meter: Meter) -> tuple[dict[str, str] | None, str]:
        """The headers to send (the token replaced by the real key) and the path; None headers when
        the request does not carry the trial's token."""
        headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_HEADERS}
        headers["Accept-Encoding"] = "identity"
        headers["Host"] = self.server.meter.upstream.netloc
        path, token, key = self.path, meter.token, meter.endpoint.key or ""
        if token is None:
            return headers, path
        seen = token in path
        path = path.replace(token, key)
        for name, value in list(headers.items()):
            if name.lower() in _KEY_HEADERS and token in value:
                headers[name], seen = value.replace(token, key), True
        return (headers if seen else None), path

    def _relay(self, meter: Meter, request: tuple[str, str], headers: dict[str, str],
               body: bytes) -> None:
        """Send the request on, and its answer back as it comes, counting the answer's usage."""
        method, path = request
        conn = meter.connection()
        meter.opened(conn)
        stack = contextlib.ExitStack()
        status, tokens, model, answered, complete = 502, None, None, False, False
        try:
            conn.request(method, path, body=body if body or method != "GET" else None, headers=headers)
            answer = stack.enter_context(contextlib.closing(conn.getresponse()))
            status = answer.status
            reader = _Answer(meter.endpoint.protocol, answer.getheader("Content-Type") or "",
                             (answer.getheader("Content-Encoding") or "").lower())
            self._send_head(answer)
            answered = True
            while chunk := answer.read1(65536):
                reader.feed(chunk)
                self.wfile.write(chunk)
                self.wfile.flush()
            tokens, model = reader.finish()
            complete = True
        except (OSError, ValueError, http.client.HTTPException) as exc:
            if not answered:
                with contextlib.suppress(OSError):
                    self._json(502, f"AgentBench's meter cannot reach the endpoint: {type(exc).__name__}")
            else:
                tokens, model = reader.finish()
        finally:
            stack.close()
            conn.close()
            meter.closed(conn)
            self.close_connection = True
            meter.record(MeteredCall(method, path.split("?")[0], status, tokens, model, complete,
                                     _offers_tools(body)))

    def _send_head(self, answer: http.client.HTTPResponse) -> None:
        self.send_response(answer.status, answer.reason)
        for name, value in answer.getheaders():
            if name.lower() not in _HOP_HEADERS or name.lower() == "content-length":
                self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()

    def _json(self, status: int, message: str) -> None:
        kind = {401: "authentication_error", 403: "permission_error"}.get(status, "api_error")
        data = json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True


def _offers_tools(body: bytes) -> bool:
    """Whether a request's JSON body offers the model tools (`tools`: OpenAI, Anthropic, Gemini)."""
    if b'"tools"' not in body:
        return False
    try:
        request = json.loads(body)
    except ValueError:
        return False
    return isinstance(request, dict) and isinstance(request.get("tools"), list) and bool(request["tools"])


def _with_stream_usage(path: str, body: bytes) -> bytes:
    """A streamed Chat Completions request always asks for the usage chunk
    (`stream_options.include_usage`): without it the endpoint reports no usage for the call, and a
    client could hide its calls' tokens by asking for none."""
    if not path.split("?")[0].endswith("/chat/completions") or b'"stream"' not in body:
        return body
    try:
        request = json.loads(body)
    except ValueError:
        return body
    if not isinstance(request, dict) or request.get("stream") is not True:
        return body
    options = request.get("stream_options")
    options = options if isinstance(options, dict) else {}
    if options.get("include_usage") is True:
        return body
    return json.dumps({**request, "stream_options": {**options, "include_usage": True}}).encode()
