"""The viewer's WSGI application (Werkzeug): routes, security headers, templates.

Every page is rendered server-side by jinja2 with autoescaping on; agent text reaches a page only
escaped (and with its control characters shown, not acted on). Each response carries a strict
Content-Security-Policy: scripts only from this server's own static file (`live.js`, which puts the
live view's JSON into the page as text, never as HTML), no inline script or style, nothing from any
other origin, no frames, no forms posting elsewhere.
"""

from __future__ import annotations

import json
import mimetypes
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from werkzeug.exceptions import BadRequest, HTTPException, NotFound
from werkzeug.wrappers import Request, Response

from agentbench.viewer import pages
from agentbench.viewer.files import printable
from agentbench.viewer.library import Library
from agentbench.viewer.library import NotFound as Missing
from agentbench.viewer.urls import URLS, url

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""The Content-Security-Policy of every response."""

HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
           "Cross-Origin-Opener-Policy": "same-origin", "Cache-Control": "no-store"}
"""Headers added to every response."""

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
"""Host names a loopback-bound viewer answers to (anything else is refused: DNS rebinding)."""

STATIC = ("viewer.css", "live.js")
"""The only static files served."""

def _int(request: Request, name: str, default: int = 0) -> int:
    """A whole-number query value (`default` when absent or not a number)."""
    value = request.args.get(name, "")
    return int(value) if value.isdigit() else default


class Viewer:
    """The WSGI application for one results folder."""

    def __init__(self, results: Path, hosts: tuple[str, ...] | None = LOOPBACK_NAMES) -> None:
        """`hosts`: the Host names answered (None: any, for a viewer bound to another address)."""
        import jinja2

        self.library = Library(results)
        self.hosts = hosts
        self.env = jinja2.Environment(
            loader=jinja2.PackageLoader("agentbench.viewer", "templates"), autoescape=True,
            undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
        self.env.filters["printable"] = printable
        self.env.globals["url"] = url

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        request = Request(environ)
        try:
            self.check_host(request)
            endpoint, args = URLS.bind_to_environ(environ).match()
            response = self.dispatch(endpoint, request, args)
        except Missing as exc:
            response = self.page("error.html.j2", {"title": "Not found", "message": str(exc)}, 404)
        except HTTPException as exc:
            response = self.page("error.html.j2", {"title": exc.name, "message": exc.description or ""},
                                 exc.code or 500)
        response.headers.update(HEADERS)
        return response(environ, start_response)

    def check_host(self, request: Request) -> None:
        """Refuse a request naming another host: a page elsewhere that re-points its own name at
        127.0.0.1 (DNS rebinding) must not read the viewer through the user's browser."""
        if self.hosts is None:
            return
        name = request.host.rsplit(":", 1)[0] if not request.host.startswith("[") else \
            request.host[1:].split("]", 1)[0]
        if name not in self.hosts:
            raise BadRequest(f"unexpected Host {request.host!r}: open the viewer at 127.0.0.1")

    def dispatch(self, endpoint: str, request: Request, args: Mapping[str, Any]) -> Response:
        """One page."""
        if endpoint == "static":
            return self.static(args["name"])
        if endpoint == "favicon":
            return Response(status=204)
        if endpoint == "progress":
            body = pages.progress(self.library, args["run_id"], _int(request, "since"))
            return Response(json.dumps(body), mimetype="application/json")
        if endpoint == "runs":
            return self.page("runs.html.j2", pages.runs(self.library))
        if endpoint == "run":
            return self.page("run.html.j2", pages.run(self.library, args["run_id"], _int(request, "page")))
        if endpoint == "compare":
            return self.page("compare.html.j2", pages.side_by_side(
                self.library, args["run_id"], f"{args['tier']}/{args['name']}", request.args))
        key = pages.TrialKey(run_id=args["run_id"], agent=args["agent"],
                             challenge_id=f"{args['tier']}/{args['name']}", trial=args["trial"])
        if endpoint == "trial":
            return self.page("trial.html.j2", pages.trial(self.library, key, _int(request, "from"),
                                                          request.args.get("step")))
        if endpoint == "log":
            return self.page("log.html.j2", pages.log(self.library, key, args["path"], _int(request, "offset")))
        if endpoint == "file":
            return self.page("file.html.j2", pages.workspace_file(self.library, key, args["path"]))
        raise NotFound()

    def page(self, template: str, context: dict[str, Any], status: int = 200) -> Response:
        """A rendered template."""
        text = self.env.get_template(template).render(**context)
        return Response(text, status=status, mimetype="text/html")

    def static(self, name: str) -> Response:
        """One of the viewer's own static files."""
        if name not in STATIC:
            raise NotFound()
        body = resources.files("agentbench.viewer").joinpath("static", name).read_bytes()
        mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
        response = Response(body, mimetype=mimetype)
        response.headers["Cache-Control"] = "no-cache"
        return response


def make_app(results: Path, hosts: tuple[str, ...] | None = LOOPBACK_NAMES) -> Viewer:
    """The viewer for a results folder (`hosts`: the Host names it answers; None: any)."""
    return Viewer(results, hosts)
