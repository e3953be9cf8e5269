"""The CSV export of the per-trial table: every trial, read back with the csv module, formulas inert."""

import csv
import io

from agentbench.comparison import build_comparison
from agentbench.models import TrialStatus
from agentbench.report import Format, render
from agentbench.report.csv import COLUMNS, inert
from tests.test_comparison import NOISY_A, NOISY_B, make_run, make_trial


def test_one_row_per_trial_with_every_column():
    run = make_run("a", NOISY_A, cost=0.25, version="1.2.3")
    broken = make_trial("a", "easy/a", 4, None, status=TrialStatus.INFRA_ERROR)
    run = run.__class__(**{**{f: getattr(run, f) for f in run.__slots__},
                           "trials": (*run.trials, broken)})
    c = build_comparison([run, make_run("b", NOISY_B)], models=["big-model", None])
    rows = list(csv.DictReader(io.StringIO(render(c, Format.CSV))))
    assert tuple(rows[0]) == COLUMNS and len(rows) == 25 + 24
    first = rows[0]
    assert (first["agent"], first["model"], first["cli_version"], first["challenge_id"]) == (
        "a", "big-model", "1.2.3", "easy/a")
    assert float(first["score"]) == 70.0 and float(first["cost_usd"]) == 0.25
    assert rows[24]["status"] == "infra_error" and rows[24]["score"] == ""
    assert {r["agent"] for r in rows[25:]} == {"b"} and rows[25]["model"] == ""


def test_text_a_spreadsheet_would_evaluate_is_made_inert():
    evil = '=HYPERLINK("http://x","y")'
    c = build_comparison([make_run(evil, NOISY_A), make_run("+b", NOISY_B)])
    rows = list(csv.reader(io.StringIO(render(c, Format.CSV))))
    assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row)
    assert rows[1][0] == "'" + evil and inert("-1") == "'-1" and inert("a-1") == "a-1"


def test_tokens_source_says_cli_or_meter_and_nothing_without_tokens():
    from dataclasses import replace

    run = make_run("a", NOISY_A, cost=0.25)
    first, second, *rest = run.trials
    metered = replace(first, adapter=replace(first.adapter, tokens_source="meter"))
    run = replace(run, trials=(metered, second, *rest))
    c = build_comparison([run, make_run("b", NOISY_B)])
    rows = list(csv.DictReader(io.StringIO(render(c, Format.CSV))))
    assert rows[0]["tokens_source"] == "meter" and rows[1]["tokens_source"] == "cli"
    assert {r["tokens_source"] for r in rows if r["agent"] == "b"} == {""}  # no tokens reported
