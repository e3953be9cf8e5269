"""An unknown cost is never $0: not in the usage table, the CSV, the JSON or "score against cost";
cost per run and points per dollar say where the costs came from."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

from agentbench.comparison import build_comparison
from agentbench.models import RunRecord
from agentbench.report import Format, render
from agentbench.report.charts import cost_chart
from agentbench.report.views import usage
from tests.test_comparison import NOISY_A, NOISY_B, make_run


def _with_costs(run: RunRecord, cost: float | None, source: str | None) -> RunRecord:
    """Every trial of `run` with `cost` from `source` (tokens used, so a missing cost is unknown)."""
    trials = tuple(replace(t, adapter=replace(t.adapter, cost_usd=cost, cost_source=source,
                                              input_tokens=1000, output_tokens=100))
                   for t in run.trials if t.adapter)
    return replace(run, trials=trials)


def _comparison():  # type: ignore[no-untyped-def]
    priced = _with_costs(make_run("codex", NOISY_A), 0.02, "price-table")
    unknown = _with_costs(make_run("opencode", NOISY_B), None, "unknown")
    legacy = _with_costs(make_run("old-opencode", NOISY_B, run_id="run-2"), 0.0, None)
    return build_comparison([priced, unknown, legacy])


def test_the_usage_table_says_unknown_and_where_costs_came_from():
    table = usage(_comparison())
    rows = {r[0]: dict(zip(table.headers, r, strict=True)) for r in table.rows}
    assert rows["codex"]["Cost from"] == "price table 24"
    assert rows["codex"]["Cost per run"] == "$0.480" and rows["codex"]["Points per $"] != "-"
    for agent in ("opencode", "old-opencode"):  # an old record's $0 for tokens is unknown too
        assert rows[agent]["Cost from"] == "unknown 24"
        assert rows[agent]["Cost per run"] == "unknown"
        assert rows[agent]["Median cost"] == "-" and rows[agent]["Points per $"] == "-"


def test_score_against_cost_leaves_unknown_costs_out_and_says_so():
    chart = cost_chart(_comparison())
    tips = [s.tip for s in chart.shapes if s.kind == "circle"]
    assert len(tips) == 1 and tips[0].startswith("codex")
    assert "Left out, cost unknown" in chart.description
    assert "opencode" in chart.description and "old-opencode" in chart.description


def test_csv_and_json_give_null_and_the_source_never_zero():
    c = _comparison()
    rows = list(csv.DictReader(io.StringIO(render(c, Format.CSV))))
    by_agent = {r["agent"]: r for r in rows}
    assert by_agent["opencode"]["cost_usd"] == "" and by_agent["opencode"]["cost_source"] == "unknown"
    assert by_agent["old-opencode"]["cost_usd"] == ""
    assert float(by_agent["codex"]["cost_usd"]) == 0.02
    assert by_agent["codex"]["cost_source"] == "price-table"
    body = json.loads(render(c, Format.JSON))
    trials = [t for t in body["trials"] if t["agent"] != "codex"]
    assert trials and all(t["cost_usd"] is None and t["cost_source"] == "unknown" for t in trials)
    agents = {a["label"]: a for a in body["agents"]}
    assert agents["opencode"]["run_cost_usd"] is None and agents["opencode"]["run_cost_unknown"] == 24
    assert agents["codex"]["run_cost_usd"] == 0.48 or abs(agents["codex"]["run_cost_usd"] - 0.48) < 1e-9


def test_the_usage_table_says_where_tokens_came_from():
    metered = _with_costs(make_run("aider", NOISY_A), 0.02, "price-table")
    metered = replace(metered, trials=tuple(replace(t, adapter=replace(t.adapter, tokens_source="meter"))
                                            for t in metered.trials))
    reported = _with_costs(make_run("codex", NOISY_B), 0.02, "price-table")
    table = usage(build_comparison([metered, reported]))
    rows = {r[0]: dict(zip(table.headers, r, strict=True)) for r in table.rows}
    assert rows["aider"]["Tokens from"] == "meter 24" and rows["codex"]["Tokens from"] == "cli 24"
    plain = usage(build_comparison([reported]))
    assert "Tokens from" not in plain.headers  # shown once some agent's tokens were metered
