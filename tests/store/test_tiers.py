"""The issue's acceptance: easy, medium and hard run one after another, then `compare
reference@latest noop@latest` covers all 13 challenges and `history` has a score per run.

The issue was written when the 13 Python challenges were all there were; `--language python` keeps
the test to those (the TypeScript and Go ones add minutes and nothing this test checks)."""

from __future__ import annotations

import json

from tests.cli.helpers import invoke
from tests.requirements import jobs


def test_three_tiers_one_after_another_compare_over_all_13_challenges(capsys, tmp_path):
    results = tmp_path / "results"
    for tier in ("easy", "medium", "hard"):
        r = invoke(capsys, "run", "--agent", "reference", "--agent", "noop", "--tier", tier,
                   "--language", "python", "--jobs", jobs(), "--results", str(results))
        assert r.exit_code == 0, r.err
    assert "replaced" in r.out and "13 challenge(s) from runs" in r.out
    r = invoke(capsys, "compare", "reference@latest", "noop@latest", "--format", "json",
               "--results", str(results))
    assert r.exit_code == 0, r.err
    data = json.loads(r.out)
    assert len(data["challenges"]) == 13
    assert [a["label"] for a in data["agents"]] == ["reference", "noop"]
    r = invoke(capsys, "compare", str(results / "reference.json"), str(results / "noop.json"),
               "--format", "json")
    assert r.exit_code == 0 and len(json.loads(r.out)["challenges"]) == 13
    r = invoke(capsys, "history", "reference", "--json", "--results", str(results))
    points = json.loads(r.out)["points"]
    assert len(points) == 3 and [p["n"] for p in points] == [6, 4, 3]
    runs = [p["run_id"] for p in points]
    r = invoke(capsys, "compare", f"reference@{runs[0]}", f"noop@{runs[2]}", "--results", str(results))
    assert r.exit_code == 2
    assert "share no challenge" in r.err and "holds 6 challenge(s): easy/" in r.err
    assert "holds 3 challenge(s): hard/" in r.err
