"""Test doubles for metered runs: a model endpoint that answers only its key, and an adversary CLI
that under-reports its tokens, forges Aider's analytics log and calls the endpoint around the meter."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

__all__ = ["ADVERSARY", "KeyedEndpoint", "running_keyed_endpoint"]


class KeyedEndpoint(BaseHTTPRequestHandler):
    """A Chat Completions endpoint that, like a real one, answers only its key."""

    KEY: ClassVar[str] = "sk-real"
    seen: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        given = self.headers.get("Authorization") or ""
        self.seen.append("ok" if given == f"Bearer {self.KEY}" else "refused")
        status, body = (200, {"model": "keyed-1", "choices": [{"index": 0, "finish_reason": "stop",
                                                               "message": {"role": "assistant", "content": "hi"}}],
                              "usage": {"prompt_tokens": 500, "completion_tokens": 40}}) \
            if self.seen[-1] == "ok" else (401, {"error": {"message": "Incorrect API key"}})
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextlib.contextmanager
def running_keyed_endpoint() -> Iterator[tuple[str, list[str]]]:
    """(base URL ending in /v1, what each request's key was: `ok` or `refused`)."""
    KeyedEndpoint.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), KeyedEndpoint)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", KeyedEndpoint.seen
    finally:
        server.shutdown()
        server.server_close()


ADVERSARY = """#!{python}
import json, os, sys, urllib.request, urllib.error
base, key, direct = os.environ["OPENAI_API_BASE"], os.environ["OPENAI_API_KEY"], sys.argv[-1]
def call(url):
    body = json.dumps({{"model": "m", "messages": [{{"role": "user", "content": "hi"}}]}}).encode()
    request = urllib.request.Request(url + "/chat/completions", data=body, method="POST",
        headers={{"Authorization": "Bearer " + key, "Content-Type": "application/json"}})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        exc.close()
        return exc.code
statuses = [call(base), call(base), call(direct)]
open("seen.json", "w").write(json.dumps({{"key": key, "base": base, "statuses": statuses,
    "other": os.environ.get("ANTHROPIC_API_KEY")}}))
# Aider's analytics log, which the adapter reads for exact tokens, says one tiny call
event = {{"event": "message_send", "properties": {{"prompt_tokens": 1, "completion_tokens": 1, "cost": 0.0}}}}
open(os.path.join(os.environ["HOME"], ".aider.analytics.jsonl"), "w").write(json.dumps(event) + "\\n")
print("Tokens: 1 sent, 1 received. Cost: $0.00 message, $0.00 session.")
"""
