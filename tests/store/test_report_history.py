"""The HTML report charts each agent's score over its runs from the results database (SQLite and
PostgreSQL): one point per run, names escaped, none without a database or with a single run."""

from __future__ import annotations

import re
from dataclasses import replace

from agentbench.records import dumps_run
from agentbench.store.views import latest
from tests.cli.helpers import invoke
from tests.store.helpers import index_run, info, open_index, synthetic_trials
from tests.synthetic import CHALLENGES

EVIL = '1.0<script>alert("x")</script>'


def _three_runs(db_url: str) -> None:
    index = open_index(db_url)
    try:
        for n, version in enumerate(("0.9", EVIL, EVIL), start=1):
            trials = [replace(t, adapter=replace(t.adapter, version=version)) for t in synthetic_trials(seed=n)]
            index_run(index, info(f"run-{n}", ("alpha-coder",), CHALLENGES, version=version,
                                  started=f"2026-0{n}-01T00:00:00+00:00"), trials)
        index_run(index, info("solo", ("beta-bot",), CHALLENGES, started="2026-04-01T00:00:00+00:00"),
                  synthetic_trials(seed=9), agent="beta-bot")
    finally:
        index.close()


def _figure(page: str, chart_id: str) -> str:
    match = re.search(rf'<figure id="{chart_id}".*?</figure>', page, re.S)
    assert match, f"no {chart_id} in the page"
    return match.group(0)


def test_the_html_report_charts_each_agents_runs_from_the_database(capsys, db_url, tmp_path):
    _three_runs(db_url)
    out = tmp_path / "report.html"
    r = invoke(capsys, "report", "alpha-coder@latest", "beta-bot@latest", "--results",
               str(tmp_path / "results"), "--db", db_url, "--output", str(out))
    assert r.exit_code == 0, r.err
    page = out.read_text(encoding="utf-8")
    chart = _figure(page, "chart-history-0")
    assert "History: alpha-coder" in chart
    assert chart.count("<circle") == 3
    assert re.findall(r"<title>(run-\d)", chart) == ["run-1", "run-2", "run-3"]
    assert "CLI 0.9, model default" in chart and "&lt;script&gt;" in chart
    assert "<script" not in page
    assert "chart-history-1" not in page  # beta-bot has one run: no history to draw
    r = invoke(capsys, "report", "alpha-coder@latest", "--results", str(tmp_path / "results"),
               "--db", db_url)
    assert r.exit_code == 0 and "History" not in r.out  # Markdown: no chart


def test_a_report_from_files_finds_the_database_beside_them_or_draws_no_history(capsys, tmp_path):
    results = tmp_path / "results"
    db = str(results / "agentbench.db")
    _three_runs(db)
    index = open_index(db)
    try:
        (results / "alpha-coder.json").write_text(dumps_run(latest(index.connection, "alpha-coder").record))
    finally:
        index.close()
    beside = tmp_path / "beside.html"
    r = invoke(capsys, "report", str(results / "alpha-coder.json"), "--results", str(tmp_path / "elsewhere"),
               "--output", str(beside))
    assert r.exit_code == 0, r.err
    assert _figure(beside.read_text(encoding="utf-8"), "chart-history-0").count("<circle") == 3
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "alpha-coder.json").write_text((results / "alpha-coder.json").read_text())
    page = tmp_path / "alone.html"
    r = invoke(capsys, "report", str(alone / "alpha-coder.json"), "--results", str(alone),
               "--output", str(page))
    assert r.exit_code == 0, r.err
    assert "chart-history" not in page.read_text(encoding="utf-8")
