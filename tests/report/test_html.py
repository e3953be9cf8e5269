"""The HTML report: escaping, self-containment, chart geometry, and a real headless Chromium.

The browser tests drive Chromium over its DevTools protocol through a pipe
(`--remote-debugging-pipe`: file descriptors 3 and 4, NUL-separated JSON), so they need no Python
package beyond the standard library. They load the report from disk in a 1400-pixel-wide window,
check that every chart drew its SVG elements, that nothing was logged as an error, that no request
left the machine, and save a full-page screenshot. The 6-agent test (SYNTHETIC results from
`tests/synthetic.py`, the data of `examples/synthetic/`) also measures readability in the page:
no horizontal overflow, no chart scaled down, no text under 11 pixels, no overlapping chart labels,
no agent name wrapped, and the ranking before everything long.
Without Chromium the tests are skipped, except when the CI environment variable is set: then they fail.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from agentbench.comparison import CompareOptions, TrialRow, build_comparison
from agentbench.report import Format, render
from agentbench.report.charts import middle_ellipsis, short_labels, spread_out
from agentbench.report.html import heat_colour, nice_ticks, pareto_front, render_html, trial_href
from tests.synthetic import AGENTS, CHALLENGES, MORE_AGENTS, example_runs, generated_challenges
from tests.test_comparison import NOISY_A, NOISY_B, make_run

EVIL = '<script>alert("x")</script>&"\'<img src=x onerror=alert(1)>'
CHART_IDS = ("chart-aggregate", "chart-breakdown", "chart-heatmap", "chart-time", "chart-cost",
             "chart-tiers")


def sample_comparison(evil: bool = True):
    hidden = {k: [True, False, True] for k in NOISY_A}
    runs = [make_run(EVIL if evil else "alpha", NOISY_A, hidden=hidden, cost=0.40),
            make_run("beta", NOISY_B, hidden=hidden, cost=0.15),
            make_run("gamma", {k: [s - 20 for s in v] for k, v in NOISY_B.items()}, cost=0.05)]
    return build_comparison(runs, options=CompareOptions(power_gap=5))


# --- static checks --------------------------------------------------------------------------------

def test_agent_text_is_escaped_everywhere():
    html = render_html(sample_comparison(), links={EVIL: "../results", "beta": "."})
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html


def test_page_is_self_contained():
    html = render(sample_comparison(), Format.HTML)
    assert "<link" not in html and "src=" not in html.replace("&lt;img src=x", "")
    assert "@import" not in html and "url(" not in html
    urls = {part.split('"')[0] for part in html.split('"http')[1:]}
    assert urls <= {"://www.w3.org/2000/svg"}  # the SVG namespace is a name, never fetched
    assert "default-src 'none'" in html


def test_every_chart_is_present_with_its_shapes():
    html = render_html(sample_comparison(evil=False))
    for chart_id in CHART_IDS:
        assert f'<figure id="{chart_id}"' in html
    assert html.count('class="cell"') == 8 * 3  # heat map: challenges x agents
    assert html.count('class="ci"') == 3 * 3  # a whisker (3 lines) per agent
    assert html.count('class="point"') == 2 * 3  # time and cost scatter plots
    assert html.count('class="leader"') == 2 * 3  # each point's label joined to it
    assert html.count('class="frontier"') >= 1
    for table in ("ranking", "verdicts-score", "verdicts-hidden", "components", "usage",
                  "statuses", "agents", "tiers", "aggregate", "challenges", "trials"):
        assert f'id="table-{table}"' in html
    assert html.index('id="table-ranking"') < html.index('id="chart-aggregate"')


def test_trial_links_are_relative_and_encoded():
    row = TrialRow(agent="a", challenge_id="easy/x", trial=1, status="completed", score=1.0,
                   hidden_passed=None, hidden_total=None, time_s=None, cost_usd=None,
                   run_id="run:1", logs_dir="trials/a/easy/x/trial-1")
    assert trial_href("../results", row) == "../results/run%3A1/trials/a/easy/x/trial-1/"
    assert trial_href("", row).startswith("run%3A1/")
    bad = TrialRow(**{**{f: getattr(row, f) for f in row.__slots__}, "logs_dir": "../../etc"})
    assert trial_href(".", bad) is None
    html = render_html(sample_comparison(evil=False), links={"beta": "."})
    assert 'href="./run-1/trials/beta/easy/a/trial-1/"' in html
    assert html.count(">logs</a>") == 24 and "not kept" in html


def test_chart_helpers():
    assert nice_ticks(0.0042) == pytest.approx((0, 0.001, 0.002, 0.003, 0.004, 0.005))
    assert nice_ticks(87) == (0, 20, 40, 60, 80, 100)
    assert pareto_front([(1, 50), (2, 40), (3, 70), (0.5, 10), (3, 60)]) == (
        (0.5, 10), (1, 50), (3, 70))
    assert (heat_colour(0), heat_colour(100)) == ("#d73027", "#1a9850")
    assert middle_ellipsis("claude-code · run-20260101-a", 16) == "claude-c…60101-a"
    # two runs of one agent: shortened in the middle, they stay apart
    short = short_labels(["claude-code · run-1-aaaa", "claude-code · run-2-aaaa"], 12)
    assert len(set(short.values())) == 2
    assert spread_out([10.0, 11.0, 12.0, 90.0], 15.0, 0.0, 95.0) == [10.0, 25.0, 40.0, 90.0]
    assert spread_out([80.0, 85.0, 90.0], 15.0, 0.0, 95.0) == [65.0, 80.0, 95.0]


# --- the real browser -----------------------------------------------------------------------------

def chromium() -> str:
    found = os.environ.get("AGENTBENCH_CHROMIUM") or shutil.which("chromium") or shutil.which(
        "chromium-browser")
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("Chromium is not installed: CI must run ci/install/chromium.sh")
    pytest.skip("Chromium is not installed (ci/install/chromium.sh installs it)")


class DevTools:
    """A minimal Chrome DevTools Protocol client over --remote-debugging-pipe."""

    def __init__(self, executable: str, profile: Path) -> None:
        to_browser_r, self._w = os.pipe()
        self._r, from_browser_w = os.pipe()

        def wire_fds() -> None:  # runs in the child: the protocol wants fds 3 and 4
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        argv = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", "--hide-scrollbars", f"--user-data-dir={profile}",
                "--remote-debugging-pipe", "about:blank"]
        self.log = profile.parent / "chromium.log"
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(argv, preexec_fn=wire_fds, close_fds=False,
                                         stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float = 30.0) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._w, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive(timeout)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = 30.0) -> dict[str, Any]:
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self._receive(timeout)
            self.events.append(event)
            if event.get("method") == method:
                return event

    def _receive(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._r], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError(f"no reply from Chromium; log: {self.log.read_text()[-2000:]}")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise EOFError(f"Chromium exited; log: {self.log.read_text()[-2000:]}")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self) -> None:
        with contextlib.suppress(OSError, RuntimeError, TimeoutError, EOFError):
            self.call("Browser.close", timeout=5)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._w)
        os.close(self._r)


PROBE = """JSON.stringify({
  scripts: document.querySelectorAll('script').length,
  title: document.title,
  charts: Array.from(document.querySelectorAll('figure[id^="chart-"]')).map(f => {
    const svg = f.querySelector('svg'); const box = svg.getBoundingClientRect();
    return {id: f.id, width: box.width, height: box.height,
            shapes: svg.querySelectorAll('rect, line, circle, polyline, text').length,
            drawn: Array.from(svg.querySelectorAll('rect, circle'))
                        .filter(e => e.getBBox().width > 0).length};
  }),
  text: document.body.innerText,
})"""


READABILITY = """(() => {
  const own = t => Array.from(t.childNodes).filter(n => n.nodeType === 3)
                        .map(n => n.textContent).join('');
  const top = id => document.getElementById(id).getBoundingClientRect().top + window.scrollY;
  const charts = Array.from(document.querySelectorAll('figure[id^="chart-"] svg')).map(svg => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const texts = Array.from(svg.querySelectorAll('text'));
    const sizes = texts.map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
    const flat = texts.filter(t => !t.hasAttribute('transform')).map(t => {
      const b = t.getBoundingClientRect(); return {b, text: own(t)}; });
    const overlaps = [];
    for (let i = 0; i < flat.length; i++) for (let j = i + 1; j < flat.length; j++) {
      const a = flat[i].b, b = flat[j].b;
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1
          && b.top < a.bottom - 1) overlaps.push([flat[i].text, flat[j].text]);
    }
    return {id: svg.closest('figure').id, scale, minFont: Math.min(...sizes), overlaps,
            columns: Array.from(svg.querySelectorAll('text.collabel')).map(own)};
  });
  return JSON.stringify({
    pageWidth: document.documentElement.scrollWidth, charts,
    rankingTop: top('table-ranking'), matrixTop: top('table-verdicts-score'),
    wrapped: Array.from(document.querySelectorAll('.agent'))
                  .filter(e => e.getClientRects().length > 1).map(e => e.textContent),
    overflowing: Array.from(document.querySelectorAll('.scroll'))
                  .filter(e => e.scrollWidth > e.clientWidth + 1)
                  .map(e => e.querySelector('table').id),
  });
})()"""


def load_in_browser(page: Path, screenshot: Path, profile: Path, *, width: int = 1400,
                    readability: bool = False) -> dict[str, Any]:
    """Open `page` in headless Chromium: DOM facts, errors, requests; save a full-page PNG."""
    browser = DevTools(chromium(), profile)
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget",
                               {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(f"{domain}.enable", session=session)
        browser.call("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False},
            session=session)
        browser.call("Page.navigate", {"url": page.resolve().as_uri()}, session=session)
        browser.wait_for("Page.loadEventFired")
        probe = browser.call("Runtime.evaluate", {"expression": PROBE, "returnByValue": True},
                             session=session)
        read = browser.call("Runtime.evaluate", {"expression": READABILITY,
                                                 "returnByValue": True},
                            session=session) if readability else None
        height = browser.call("Page.getLayoutMetrics", session=session)["cssContentSize"]["height"]
        shot = browser.call("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}},
            session=session)
        screenshot.write_bytes(base64.b64decode(shot["data"]))
        return {"dom": json.loads(probe["result"]["value"]), "events": list(browser.events),
                "readability": json.loads(read["result"]["value"]) if read else None}
    finally:
        browser.close()


def problems(events: list[dict[str, Any]]) -> list[str]:
    """Console errors and warnings, uncaught exceptions, log errors, and non-local requests."""
    found = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            found.append(f"exception: {params['exceptionDetails']}")
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "warning", "assert"):
            found.append(f"console.{params['type']}: {params['args']}")
        elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
            found.append(f"log: {params['entry']['text']}")
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if not url.startswith(("file:", "data:", "about:")):
                found.append(f"request: {url}")
    return found


@pytest.mark.integration
def test_report_renders_in_headless_chromium(tmp_path: Path):
    comparison = sample_comparison()
    page = tmp_path / "report.html"
    page.write_text(render_html(comparison, links={"beta": "."}), encoding="utf-8")
    started = time.monotonic()
    result = load_in_browser(page, tmp_path / "report.png", tmp_path / "profile")
    elapsed = time.monotonic() - started

    dom = result["dom"]
    assert problems(result["events"]) == []
    assert dom["scripts"] == 0  # the agent's <script> name stayed text
    assert EVIL in dom["text"]
    charts = {c["id"]: c for c in dom["charts"]}
    assert set(charts) == set(CHART_IDS)
    for chart in charts.values():
        assert chart["width"] > 100 and chart["height"] > 40, chart
        assert chart["shapes"] > 5, chart
    assert charts["chart-heatmap"]["drawn"] == 24
    assert charts["chart-aggregate"]["drawn"] == 3
    assert charts["chart-cost"]["drawn"] == 3
    png = (tmp_path / "report.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 20_000
    assert elapsed < 60


def six_agent_comparison(agents=AGENTS, challenges=13):
    """SYNTHETIC: 6 fictional agents x 13 challenges x 3 trials (the data of examples/synthetic/),
    or other numbers of them."""
    ids = CHALLENGES if challenges == 13 else generated_challenges(challenges)
    pairs = example_runs(agents=agents, challenges=ids)
    return build_comparison([run for run, _ in pairs], models=[model for _, model in pairs],
                            options=CompareOptions(power_gap=5))


@pytest.mark.integration
@pytest.mark.parametrize(("agents", "challenges"), [(AGENTS, 13), (AGENTS + MORE_AGENTS, 50)])
def test_many_agents_are_readable_in_a_1400_pixel_window(tmp_path: Path, agents, challenges):
    comparison = six_agent_comparison(agents, challenges)
    assert (len(comparison.agents), len(comparison.challenges)) == (len(agents), challenges)
    page = tmp_path / "report.html"
    page.write_text(render_html(comparison), encoding="utf-8")
    result = load_in_browser(page, tmp_path / "report.png", tmp_path / "profile", width=1400,
                             readability=True)
    assert problems(result["events"]) == []
    seen = result["readability"]
    assert seen["pageWidth"] <= 1400, seen["pageWidth"]
    assert seen["overflowing"] == []  # no table needs a horizontal scroll bar
    assert seen["wrapped"] == []  # no agent name broken over two lines
    assert seen["rankingTop"] < 400 and seen["matrixTop"] < 900  # the answer comes first
    for chart in seen["charts"]:
        assert chart["scale"] >= 0.999, chart["id"]  # drawn at full size, not shrunk to fit
        assert chart["minFont"] >= 11, chart["id"]
        assert chart["overlaps"] == [], chart["id"]
    (heatmap,) = [x for x in seen["charts"] if x["id"] == "chart-heatmap"]
    assert len(set(heatmap["columns"])) == len(agents)  # two runs of delta-agent stay apart
    assert result["dom"]["charts"][2]["drawn"] == len(agents) * challenges


BAD_PAGE = """<!DOCTYPE html><html><body style="margin:0">
<table id="table-ranking"><tr><td>x</td></tr></table>
<table id="table-verdicts-score"><tr><td>x</td></tr></table>
<div style="width:300px"><span class="agent">a name long enough to wrap over two lines here</span></div>
<div class="scroll" style="width:200px;overflow-x:auto"><table id="table-wide"><tr>
<td style="white-space:nowrap">a cell much wider than its two hundred pixel box, surely</td>
</tr></table></div>
<figure id="chart-bad"><svg width="1000" height="100" viewBox="0 0 1000 100"
 style="width:500px;font-size:12px"><text x="10" y="50">first label</text>
<text x="14" y="52">second label</text></svg></figure>
<div style="width:1600px">wide</div></body></html>"""


@pytest.mark.integration
def test_the_readability_probe_catches_what_it_looks_for(tmp_path: Path):
    page = tmp_path / "bad.html"
    page.write_text(BAD_PAGE, encoding="utf-8")
    seen = load_in_browser(page, tmp_path / "bad.png", tmp_path / "profile",
                           readability=True)["readability"]
    assert seen["pageWidth"] > 1400 and seen["overflowing"] == ["table-wide"]
    assert seen["wrapped"] == ["a name long enough to wrap over two lines here"]
    (chart,) = seen["charts"]
    assert chart["scale"] == pytest.approx(0.5) and chart["minFont"] == pytest.approx(6)
    assert chart["overlaps"] == [["first label", "second label"]]
