"""Viewer test helpers: a real viewer server on a free loopback port, and a real Chromium.

The browser is Playwright (the Python package) driving the system Chromium that
`ci/install/chromium.sh` installs (`/usr/bin/chromium`, or `AGENTBENCH_CHROMIUM`); Playwright's own
browser download is never used. Without Chromium or Playwright the browser tests are skipped, except
when the CI environment variable is set: then they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCREENSHOTS = os.environ.get("AGENTBENCH_SCREENSHOTS")
"""A folder to save each page's screenshot in (e.g. `examples/`); unset: none kept."""


@contextmanager
def serving(results: Path) -> Iterator[str]:
    """The viewer of `results` on a free loopback port, in a thread; yields its base URL."""
    from agentbench.viewer.server import start

    server = start(results, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def chromium() -> str:
    found = os.environ.get("AGENTBENCH_CHROMIUM") or shutil.which("chromium") or shutil.which(
        "chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed: CI must run ci/install/chromium.sh")
        pytest.skip("Chromium is not installed (ci/install/chromium.sh installs it)")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """A headless system Chromium driven by Playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("playwright is not installed: CI installs it with the dev extra")
        pytest.skip("playwright is not installed (pip install -e '.[dev]')")
    path = chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path,
                                              args=["--no-sandbox", "--disable-gpu"])
        try:
            yield launched
        finally:
            launched.close()


class Watched:
    """A page with everything that could betray executed agent script recorded."""

    def __init__(self, browser: object, base: str) -> None:
        self.page = browser.new_page(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
        self.base = base
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("dialog", self._dialog)
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def _dialog(self, dialog: object) -> None:
        self.dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    def goto(self, path: str) -> object:
        self.page.goto(self.base + path if path.startswith("/") else path)
        self.page.wait_for_load_state("load")
        return self.page

    def shot(self, name: str) -> None:
        if SCREENSHOTS:
            Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(SCREENSHOTS) / f"viewer-{name}.png"), full_page=False)

    def foreign_requests(self) -> list[str]:
        return [u for u in self.requests if not u.startswith(self.base + "/")]


def run_agents(results: Path, *args: str, env: dict[str, str] | None = None) -> None:
    """`agentbench run --results RESULTS ARGS...` as a real subprocess (usable by module fixtures)."""
    proc = subprocess.run([sys.executable, "-m", "agentbench", "run", "--results", str(results), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    assert proc.returncode == 0, proc.stderr[-3000:]
