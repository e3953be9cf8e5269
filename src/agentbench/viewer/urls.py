"""The viewer's URL map: every page's path, in one place."""

from __future__ import annotations

from typing import Any

from werkzeug.routing import Map, Rule

TRIAL = "/runs/<run_id>/trials/<agent>/<tier>/<name>/<int:trial>"

URLS = Map([
    Rule("/", endpoint="runs"),
    Rule("/runs/<run_id>", endpoint="run"),
    Rule("/runs/<run_id>/progress.json", endpoint="progress"),
    Rule(TRIAL, endpoint="trial"),
    Rule(f"{TRIAL}/log/<path:path>", endpoint="log"),
    Rule(f"{TRIAL}/file/<path:path>", endpoint="file"),
    Rule("/runs/<run_id>/compare/<tier>/<name>", endpoint="compare"),
    Rule("/static/<name>", endpoint="static"),
    Rule("/favicon.ico", endpoint="favicon"),
], strict_slashes=False)
"""Endpoint names and their paths."""


def url(endpoint: str, **values: Any) -> str:
    """The path of a page, its values quoted (extra values become the query string)."""
    return URLS.bind("localhost").build(endpoint, {k: v for k, v in values.items() if v is not None})
