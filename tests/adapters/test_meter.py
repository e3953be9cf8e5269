"""The metering proxy (`agentbench.adapters.meter`) between real HTTP clients and the scripted model
server: every wire format, streamed and not, counted exactly; the key held by the meter; requests
without the trial's token refused and never forwarded."""

from __future__ import annotations

import contextlib
import json
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest

from agentbench.adapters.endpoint import ANTHROPIC, GEMINI, OPENAI, Endpoint
from agentbench.adapters.meter import Meter
from agentbench.modelserver.script import Script
from agentbench.modelserver.server import RunningServer
from agentbench.pricing import CallTokens

SCRIPT = Script(files=(), input_tokens=1234,
                output_tokens=56)


def _post(url: str, body: dict[str, Any], headers: dict[str, str]) -> bytes:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return bytes(answer.read())


def _chat(stream: bool) -> dict[str, Any]:
    return {"model": "scripted", "stream": stream, "messages": [{"role": "user", "content": "hi"}]}


CASES = [
    (OPENAI, "/v1", "/chat/completions", _chat(False), "Authorization", "Bearer {key}"),
    (OPENAI, "/v1", "/chat/completions", _chat(True), "Authorization", "Bearer {key}"),
    (OPENAI, "/v1", "/responses", {"model": "scripted", "input": "hi", "stream": True},
     "Authorization", "Bearer {key}"),
    (OPENAI, "/v1", "/responses", {"model": "scripted", "input": "hi"}, "Authorization", "Bearer {key}"),
    (ANTHROPIC, "", "/v1/messages", {"model": "scripted", "max_tokens": 10, "stream": True,
                                     "messages": [{"role": "user", "content": "hi"}]},
     "x-api-key", "{key}"),
    (ANTHROPIC, "", "/v1/messages", {"model": "scripted", "max_tokens": 10,
                                     "messages": [{"role": "user", "content": "hi"}]},
     "x-api-key", "{key}"),
    (GEMINI, "", "/v1beta/models/scripted:streamGenerateContent?alt=sse",
     {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, "x-goog-api-key", "{key}"),
    (GEMINI, "", "/v1beta/models/scripted:streamGenerateContent",
     {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, "x-goog-api-key", "{key}"),
    (GEMINI, "", "/v1beta/models/scripted:generateContent",
     {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, "x-goog-api-key", "{key}"),
]


@pytest.mark.parametrize(("protocol", "base", "route", "body", "header", "value"), CASES)
def test_every_wire_format_is_counted_exactly(protocol, base, route, body, header, value) -> None:
    with RunningServer(SCRIPT) as server, \
            Meter(Endpoint(protocol=protocol, base_url=server.url + base, key="real-key")) as meter:
        assert meter.token and meter.token != "real-key"
        for _ in range(3):
            answer = _post(meter.base_url + route, body, {header: value.format(key=meter.token)})
            assert answer
        reading = meter.reading()
        assert server.ledger.calls == 3
    assert reading.calls == (CallTokens(1234, 56),) * 3
    assert (reading.forwarded, reading.unmetered, reading.refused) == (3, 0, 0)


class _Recorder(BaseHTTPRequestHandler):
    """An endpoint that records the key each request carries and reports a fixed usage."""

    seen: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.seen.append(self.headers.get("Authorization") or "")
        data = json.dumps({"model": "m-1", "usage": {"prompt_tokens": 7, "completion_tokens": 3,
                                                     "prompt_tokens_details": {"cached_tokens": 2}}})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data.encode())


@pytest.fixture
def recorder():
    _Recorder.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", _Recorder.seen
    server.shutdown()
    server.server_close()


def test_the_endpoint_gets_the_real_key_and_the_client_never_needs_it(recorder) -> None:
    url, seen = recorder
    with Meter(Endpoint(protocol=OPENAI, base_url=url, key="sk-real")) as meter:
        _post(meter.base_url + "/chat/completions", _chat(False), {"Authorization": f"Bearer {meter.token}"})
        reading = meter.reading()
    assert seen == ["Bearer sk-real"]
    assert reading.calls == (CallTokens(7, 3, cache_read=2),)
    assert reading.models == ("m-1",)


@pytest.mark.parametrize("given", ["", "Bearer sk-real", "Bearer agentbench-meter-0000"])
def test_a_request_without_the_trials_token_is_refused_and_never_forwarded(recorder, given) -> None:
    url, seen = recorder
    with Meter(Endpoint(protocol=OPENAI, base_url=url, key="sk-real")) as meter:
        with pytest.raises(urllib.error.HTTPError) as refused:
            _post(meter.base_url + "/chat/completions", _chat(False), {"Authorization": given})
        reading = meter.reading()
    refused.value.close()
    assert refused.value.code == 401
    assert seen == []
    assert (reading.calls, reading.forwarded, reading.refused) == ((), 0, 1)


@pytest.mark.parametrize("options", [None, {"include_usage": False}, "garbage"])
def test_a_streamed_chat_request_always_asks_for_its_usage(options) -> None:
    """OpenAI-compatible streams report usage only when asked: the meter asks, whatever the client
    said (a client asking for none would hide its tokens)."""
    body = {**_chat(True), **({"stream_options": options} if options is not None else {})}
    with RunningServer(SCRIPT) as server, \
            Meter(Endpoint(protocol=OPENAI, base_url=server.url + "/v1", key="k")) as meter:
        answer = _post(meter.base_url + "/chat/completions", body,
                       {"Authorization": f"Bearer {meter.token}"})
        sent = server.ledger.requests[-1]["body"]
    assert sent["stream_options"] == {"include_usage": True}
    assert answer.rstrip().endswith(b"data: [DONE]")
    assert meter.reading().calls == (CallTokens(1234, 56),)


@pytest.mark.parametrize("path", ["/v1/batches", "/v1/files", "/v1/responses/resp_1",
                                  "/v1/../v1/batches/x/chat/completions/..", "/v1/./fine_tuning/jobs"])
def test_only_model_calls_are_forwarded(recorder, path) -> None:
    """With the trial's token, the key still opens nothing but model calls: a batch or a stored
    response would spend or show tokens no answer through the meter reports."""
    url, seen = recorder
    with Meter(Endpoint(protocol=OPENAI, base_url=url, key="sk-real")) as meter:
        with pytest.raises(urllib.error.HTTPError) as refused:
            _post(meter.base_url.removesuffix("/v1") + path, {"input_file_id": "f"},
                  {"Authorization": f"Bearer {meter.token}"})
        reading = meter.reading()
    refused.value.close()
    assert refused.value.code == 403 and seen == []
    assert reading.refused == 1 and reading.refused_requests == (f"POST {path}",)


@pytest.mark.parametrize(("protocol", "route", "body", "header"), [
    (ANTHROPIC, "/v1/messages/count_tokens", {"model": "scripted",
                                              "messages": [{"role": "user", "content": "hi"}]},
     "x-api-key"),
    (GEMINI, "/v1beta/models/scripted:countTokens",
     {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, "x-goog-api-key"),
])
def test_token_counting_spends_nothing_and_is_not_a_gap(protocol, route, body, header) -> None:
    with RunningServer(SCRIPT) as server, \
            Meter(Endpoint(protocol=protocol, base_url=server.url, key="k")) as meter:
        _post(meter.base_url + route, body, {header: meter.token or ""})
        reading = meter.reading()
    assert (reading.calls, reading.forwarded, reading.unmetered) == ((), 1, 0)


@pytest.fixture
def tls_files(tmp_path):
    import subprocess

    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


class _Tunnel(BaseHTTPRequestHandler):
    """A CONNECT proxy (as a corporate HTTPS proxy works): it pipes bytes, it sees no content."""

    targets: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_CONNECT(self) -> None:
        import socket

        self.targets.append(self.path)
        host, port = self.path.rsplit(":", 1)
        upstream = socket.create_connection((host, int(port)), timeout=10)
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        client = self.connection

        def pipe(a, b) -> None:
            try:
                while data := a.recv(65536):
                    b.sendall(data)
            except OSError:
                pass
            finally:
                for end in (a, b):
                    with contextlib.suppress(OSError):
                        end.shutdown(socket.SHUT_RDWR)

        other = threading.Thread(target=pipe, args=(upstream, client), daemon=True)
        other.start()
        pipe(client, upstream)
        other.join(timeout=10)
        upstream.close()
        self.close_connection = True


@pytest.mark.parametrize("through_proxy", [False, True])
def test_an_https_endpoint_directly_or_through_the_users_proxy(tls_files, monkeypatch, through_proxy):
    import ssl

    cert, key = tls_files
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    for name in ("NO_PROXY", "no_proxy", "HTTPS_PROXY", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    _Tunnel.targets = []
    tunnel = ThreadingHTTPServer(("127.0.0.1", 0), _Tunnel)
    threading.Thread(target=tunnel.serve_forever, daemon=True).start()
    if through_proxy:
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{tunnel.server_address[1]}")
    try:
        with RunningServer(SCRIPT) as server:
            server.server.socket = context.wrap_socket(server.server.socket, server_side=True)
            port = server.server.server_address[1]
            with Meter(Endpoint(protocol=OPENAI, base_url=f"https://localhost:{port}/v1", key="k")) as meter:
                assert meter.base_url.startswith("http://127.0.0.1:") and meter.base_url.endswith("/v1")
                _post(meter.base_url + "/chat/completions", _chat(True),
                      {"Authorization": f"Bearer {meter.token}"})
                reading = meter.reading()
    finally:
        tunnel.shutdown()
        tunnel.server_close()
    assert reading.calls == (CallTokens(1234, 56),)
    assert _Tunnel.targets == ([f"localhost:{port}"] if through_proxy else [])


def test_a_call_still_running_when_the_reading_is_taken_makes_it_partial() -> None:
    """The CLI was killed mid-call and the endpoint never answered: the reading does not wait for
    ever, says tokens may be missing, and stopping the meter ends the call."""
    from tests.adapters.helpers import silent_endpoint

    with silent_endpoint() as url, Meter(Endpoint(protocol=OPENAI, base_url=url + "/v1", key="k")) as meter:
        with pytest.raises(OSError):
            request = urllib.request.Request(
                meter.base_url + "/chat/completions", data=json.dumps(_chat(False)).encode(),
                method="POST", headers={"Authorization": f"Bearer {meter.token}"})
            urllib.request.urlopen(request, timeout=1)
        reading = meter.reading(settle_s=0.5)
    assert (reading.calls, reading.unmetered) == ((), 1)


@pytest.mark.parametrize("head", [
    "Content-Length: 1000000000000",  # the harness would hold a terabyte
    "Content-Length: -5",
    "Content-Length: lots",
    "Transfer-Encoding: chunked\r\n\r\nzz\r\nbody",
    "Transfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nbody",
])
def test_a_hostile_request_body_is_refused_and_the_meter_keeps_serving(recorder, head) -> None:
    import socket

    url, seen = recorder
    with Meter(Endpoint(protocol=OPENAI, base_url=url, key="sk-real")) as meter:
        port = int(meter.base_url.split(":")[2].split("/")[0])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            raw.sendall(f"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                        f"Authorization: Bearer {meter.token}\r\n{head}\r\n\r\n".encode())
            answer = raw.recv(200)
        _post(meter.base_url + "/chat/completions", _chat(False), {"Authorization": f"Bearer {meter.token}"})
        reading = meter.reading()
    assert answer.startswith(b"HTTP/1.1 413")
    assert (reading.refused, len(reading.calls), seen) == (1, 1, ["Bearer sk-real"])


@pytest.mark.parametrize(("protocol", "event", "fields"), [
    # Anthropic: input_tokens leaves the cache out; the meter's input counts it (as CallTokens does)
    (ANTHROPIC, {"type": "message_start", "message": {"usage": {
        "input_tokens": 10, "cache_read_input_tokens": 200, "cache_creation_input_tokens": 30,
        "output_tokens": 1}}},
     {"input": 240, "output": 1, "cache_read": 200, "cache_write": 30}),
    (ANTHROPIC, {"type": "message_delta", "usage": {"output_tokens": 77}},
     {"output": 77, "cache_read": 0, "cache_write": 0}),
    (OPENAI, {"usage": {"prompt_tokens": 500, "completion_tokens": 20,
                        "prompt_tokens_details": {"cached_tokens": 400}}},
     {"input": 500, "output": 20, "cache_read": 400}),
    (OPENAI, {"type": "response.completed", "response": {"usage": {
        "input_tokens": 900, "output_tokens": 60, "input_tokens_details": {"cached_tokens": 800}}}},
     {"input": 900, "output": 60, "cache_read": 800}),
    (GEMINI, {"usageMetadata": {"promptTokenCount": 300, "candidatesTokenCount": 40,
                                "thoughtsTokenCount": 15, "cachedContentTokenCount": 100}},
     {"input": 300, "output": 55, "cache_read": 100}),
    (OPENAI, {"usage": {"prompt_tokens": True, "completion_tokens": -4}}, {"input": 0, "output": 0, "cache_read": 0}),
    (OPENAI, {"choices": [{"delta": {"content": '{"usage": {"prompt_tokens": 1}}'}}]}, {}),
])
def test_usage_fields_of_each_wire_format(protocol, event, fields) -> None:
    """Cache reads and writes are part of the input, as `CallTokens` counts them; nothing the
    model writes (its text) is read as usage."""
    from agentbench.adapters.meter import usage_fields

    assert usage_fields(event, protocol) == fields


def test_an_anthropic_stream_is_one_call_with_its_start_and_final_counts() -> None:
    from agentbench.adapters.meter import _Answer

    answer = _Answer(ANTHROPIC, "text/event-stream", "")
    start = {"type": "message_start", "message": {"model": "claude-x", "usage": {
        "input_tokens": 10, "cache_read_input_tokens": 200, "output_tokens": 1}}}
    for event in (start, {"type": "content_block_delta", "delta": {"text": "hi"}},
                  {"type": "message_delta", "usage": {"output_tokens": 77}}):
        data = f"event: x\r\ndata: {json.dumps(event)}\r\n\r\n".encode()
        answer.feed(data[:7])
        answer.feed(data[7:])
    assert answer.finish() == (CallTokens(210, 77, cache_read=200), "claude-x")
