"""`show`, `export` and `compare` take a unique prefix of a run ID, or `latest` (issue 23)."""

from __future__ import annotations

import json

from tests.cli.helpers import invoke
from tests.store.helpers import index_run, info, open_index, synthetic_trials
from tests.synthetic import AGENTS, CHALLENGES

OLD, NEW = "20260101-090000-alpha-aaaa", "20260102-090000-alpha-bbbb"


def two_runs(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    index = open_index(str(results / "agentbench.db"))
    for run_id, started, seed in ((OLD, "2026-01-01T09:00:00", 1), (NEW, "2026-01-02T09:00:00", 2)):
        index_run(index, info(run_id, (AGENTS[0].agent,), CHALLENGES, started=started),
                  synthetic_trials(seed=seed))
    index.close()
    return results


def test_show_and_export_take_a_unique_prefix_and_latest(capsys, tmp_path):
    results = two_runs(tmp_path)
    r = invoke(capsys, "show", "20260101", "--results", str(results), "--json")
    assert r.exit_code == 0, r.err
    assert json.loads(r.out)["run"]["run_id"] == OLD
    r = invoke(capsys, "show", "latest", "--results", str(results), "--json")
    assert r.exit_code == 0 and json.loads(r.out)["run"]["run_id"] == NEW
    r = invoke(capsys, "export", "20260102", "--format", "csv", "--results", str(results))
    assert r.exit_code == 0, r.err
    assert NEW in r.out and OLD not in r.out


def test_an_ambiguous_or_unknown_prefix_is_bad_input_naming_the_candidates(capsys, tmp_path):
    results = two_runs(tmp_path)
    r = invoke(capsys, "show", "2026010", "--results", str(results))
    assert r.exit_code == 2
    assert "starts 2 run IDs" in r.err and OLD in r.err and NEW in r.err
    r = invoke(capsys, "export", "1999", "--results", str(results))
    assert r.exit_code == 2 and "no run '1999'" in r.err


def test_compare_takes_a_prefix_and_latest(capsys, tmp_path):
    results = two_runs(tmp_path)
    r = invoke(capsys, "compare", f"{AGENTS[0].agent}@20260101", "latest", "--format", "json",
               "--results", str(results))
    assert r.exit_code == 0, r.err
    sources = [a["label"] for a in json.loads(r.out)["agents"]]
    assert len(sources) == 2
