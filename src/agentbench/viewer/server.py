"""Serving the viewer: Werkzeug's threaded WSGI server, bound to 127.0.0.1 unless asked otherwise."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

from werkzeug.serving import BaseWSGIServer, make_server

from agentbench.viewer.app import LOOPBACK_NAMES, make_app

LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""Hosts that keep the viewer on this machine."""


def start(results: Path, host: str = "127.0.0.1", port: int = 8000, *,
          warm: bool = True) -> BaseWSGIServer:
    """A server for `results`, bound and ready (`port` 0: any free port; see `server.port`).

    With `warm`, every run is read once in a background thread (see `Library.warm`); its viewer
    is `server.app`, whose `library.warmed` is set when that is done.
    """
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # NOTE: no line per request
    app = make_app(results, LOOPBACK_NAMES if host in LOOPBACK else None)
    server = make_server(host, port, app, threaded=True)
    if warm:
        threading.Thread(target=app.library.warm, name="agentbench-view-warm", daemon=True).start()
    return server


def serve(results: Path, host: str, port: int, announce: Callable[[str], None]) -> None:
    """Serve until interrupted (Ctrl-C), saying where."""
    server = start(results, host, port)
    shown = f"[{host}]" if ":" in host else host
    announce(f"http://{shown}:{server.port}/")
    try:
        server.serve_forever()
    finally:
        server.server_close()
