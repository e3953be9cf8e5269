"""A hostile agent's output in a real browser: nothing it wrote executes.

The agent (`tests/viewer/hostile.py`) fills its file names and contents, stdout, stderr and final
message with HTML, script tags, event handlers, a `javascript:` link, an iframe, a style sheet and
terminal escapes, and its trajectory (through the real Claude Code parser) carries the same in every
field. Chromium opens every page of that trial (timeline, each step, each log, each file, side by
side, the run) with every result and argument expanded: no dialog opens, `window.__pwned` stays
unset, no element the agent wrote exists (no img, iframe, svg, style or extra script), no request
leaves the viewer, and the page shows the text literally.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import make_tiny_challenge
from tests.viewer.conftest import Watched, run_agents, serving
from tests.viewer.hostile import agent_config, plant_trajectory

pytestmark = pytest.mark.attacks

TRIAL = "/runs/r1/trials/evil/easy/adder/1"

PROBE = """() => ({
    pwned: typeof window.__pwned !== "undefined",
    scripts: Array.from(document.scripts).map(s => s.src),
    planted: document.querySelectorAll("main img, main iframe, main svg, main style, main object, main embed").length,
    javascript: Array.from(document.querySelectorAll("a")).filter(a => a.href.startsWith("javascript:")).length,
    hidden: getComputedStyle(document.body).display === "none",
    title: document.title,
})"""


@pytest.fixture(scope="module")
def hostile_run(shared_folder: Path) -> Path:
    challenges = make_tiny_challenge(shared_folder / "challenges")
    results = shared_folder / "results"
    run_agents(results, "--agent", "evil", "--agent", "reference", "--challenge", "easy/adder",
               "--challenges", str(challenges), "--agents-config", str(agent_config(shared_folder)),
               "--run-id", "r1")
    plant_trajectory(results / "r1" / "trials" / "evil" / "easy" / "adder" / "trial-1")
    return results


def pages(w: Watched) -> list[str]:
    """Every page of the hostile trial, found by following the trial page's own links."""
    page = w.goto(TRIAL)
    links = page.eval_on_selector_all("ul.files a, ul.logs a, li.step .meta a",
                                      "nodes => nodes.map(n => n.getAttribute('href'))")
    return ["/", "/runs/r1", TRIAL, "/runs/r1/compare/easy/adder?a=evil&b=reference", *links]


def test_nothing_an_agent_wrote_executes(hostile_run, browser):
    with serving(hostile_run) as base:
        w = Watched(browser, base)
        visited = pages(w)
        for path in visited:
            page = w.goto(path)
            for summary in page.query_selector_all("details:not([open]) > summary"):
                summary.click()  # NOTE: every collapsed result, argument and reasoning opened
            page.wait_for_timeout(50)
            found = page.evaluate(PROBE)
            assert not found["pwned"] and found["planted"] == 0 and found["javascript"] == 0, (path, found)
            assert not found["hidden"] and "title" not in found["title"], (path, found)
            assert all(src.endswith("/static/live.js") for src in found["scripts"]), (path, found)
        assert len(visited) > 12, visited  # every step, log and file of the trial was opened
        assert w.dialogs == [], w.dialogs
        assert w.foreign_requests() == [], w.foreign_requests()
        assert w.errors == [], w.errors
        page = w.goto(TRIAL)
        text = page.inner_text("main")
        assert '<script>window.__pwned=1;alert("script")</script>' in text
        assert "\\x1b[31mRED" in text and "{{ 7*7 }}" in text
        w.shot("attack")
