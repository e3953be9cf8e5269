"""The harness's own check of a model endpoint, to confirm an infrastructure failure.

A CLI's output is the agent's: a model that wanted a failed trial left out of its mean could make the
CLI print `429 Too Many Requests`. So a failure the output calls the endpoint's (unreachable, 5xx,
429, 401/403) counts as infrastructure only when the harness, from its own process, sees the endpoint
fail too: one `GET` of the API's model list (free, no tokens) with the same key, a few seconds at
most. Connection refused or unreachable, 5xx, 429, 401 and 403 confirm it; any other answer (200,
404...) means the endpoint works, and the failure stays the agent's.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import urlsplit

PROBE_TIMEOUT_S = 5.0
"""Longest the harness waits for the endpoint's answer."""

ANTHROPIC = "anthropic"
OPENAI = "openai"
GEMINI = "gemini"

DEFAULT_URLS = {ANTHROPIC: "https://api.anthropic.com", OPENAI: "https://api.openai.com/v1",
                GEMINI: "https://generativelanguage.googleapis.com"}
"""Where each API lives when no base URL is configured."""


class EndpointFailure(NamedTuple):
    """How an endpoint failed the harness's own request."""

    kind: str
    """`auth` (401/403), `rate_limit` (429), `server_error` (5xx) or `connection` (unreachable)."""
    detail: str
    """E.g. `HTTP 503` or `ConnectionRefusedError: [Errno 111] Connection refused`."""

    def __str__(self) -> str:
        return f"{self.kind} ({self.detail})"


@dataclass(frozen=True, slots=True, kw_only=True)
class Endpoint:
    """A model API as a CLI is configured to reach it."""

    protocol: str
    """`anthropic`, `openai` (a base URL ending in /v1) or `gemini`."""
    base_url: str | None = None
    """The configured base URL (None: the API's public default)."""
    key: str | None = None
    """The API key the CLI uses (sent to the endpoint only, never written anywhere)."""

    def probe_request(self) -> tuple[str, dict[str, str]]:
        """(URL, headers) of the model-list request for this API."""
        base = (self.base_url or DEFAULT_URLS[self.protocol]).rstrip("/")
        key = self.key or ""
        if self.protocol == ANTHROPIC:
            return f"{base}/v1/models", {"x-api-key": key, "anthropic-version": "2023-06-01"}
        if self.protocol == GEMINI:
            return f"{base}/v1beta/models", {"x-goog-api-key": key}
        return f"{base}/models", {"Authorization": f"Bearer {key}"}


def endpoint_failure(endpoint: Endpoint, timeout_s: float = PROBE_TIMEOUT_S) -> EndpointFailure | None:
    """How the endpoint fails the harness's own request, or None when it answers normally."""
    import urllib.error
    import urllib.request

    url, headers = endpoint.probe_request()
    if urlsplit(url).scheme not in ("http", "https"):
        return None
    request = urllib.request.Request(url, headers=headers, method="GET")
    try:
        with contextlib.closing(urllib.request.urlopen(request, timeout=timeout_s)):
            return None
    except urllib.error.HTTPError as exc:
        with contextlib.closing(exc):
            body = exc.read(65536) if exc.code == 400 else b""
        return _status_failure(exc.code, body)
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        return EndpointFailure("connection", f"{type(reason).__name__}: {reason}"[:300])


def _status_failure(status: int, body: bytes) -> EndpointFailure | None:
    if status >= 500:
        return EndpointFailure("server_error", f"HTTP {status}")
    if status == 429:
        return EndpointFailure("rate_limit", "HTTP 429")
    if status in (401, 403):
        return EndpointFailure("auth", f"HTTP {status}")
    if b"API_KEY_INVALID" in body:  # Google answers a refused key with 400
        return EndpointFailure("auth", "HTTP 400 API_KEY_INVALID")
    return None
