"""Serving the viewer: Werkzeug's threaded WSGI server, bound to 127.0.0.1 unless asked otherwise."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from werkzeug.serving import BaseWSGIServer, make_server

from agentbench.viewer.app import make_app

LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""Hosts that keep the viewer on this machine."""


def start(results: Path, host: str = "127.0.0.1", port: int = 8000) -> BaseWSGIServer:
    """A server for `results`, bound and ready (`port` 0: any free port; see `server.port`)."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # NOTE: no line per request
    return make_server(host, port, make_app(results), threaded=True)


def serve(results: Path, host: str, port: int, announce: Callable[[str], None]) -> None:
    """Serve until interrupted (Ctrl-C), saying where."""
    server = start(results, host, port)
    shown = f"[{host}]" if ":" in host else host
    announce(f"http://{shown}:{server.port}/")
    try:
        server.serve_forever()
    finally:
        server.server_close()
