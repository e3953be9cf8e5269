"""The issue's acceptance: easy, medium and hard run one after another, then `compare
reference@latest noop@latest` covers all 13 challenges and `history` has a score per run.

The issue was written when the 13 Python challenges were all there were; `--language python` keeps
the test to the Python ones (the TypeScript and Go ones add minutes and nothing this test checks),
and the counts per tier come from `list` (brownfield challenges added a Python one)."""

from __future__ import annotations

import json

from tests.cli.helpers import invoke
from tests.requirements import jobs


def test_three_tiers_one_after_another_compare_over_all_13_challenges(capsys, tmp_path):
    listed = json.loads(invoke(capsys, "list", "--json", "--language", "python").out)
    per_tier = [sum(row["tier"] == tier for row in listed) for tier in ("easy", "medium", "hard")]
    assert per_tier[0] == 6 and per_tier[1] >= 4 and per_tier[2] == 3
    total = sum(per_tier)
    results = tmp_path / "results"
    for tier in ("easy", "medium", "hard"):
        r = invoke(capsys, "run", "--agent", "reference", "--agent", "noop", "--tier", tier,
                   "--language", "python", "--jobs", jobs(), "--results", str(results))
        assert r.exit_code == 0, r.err
    said = " ".join(r.out.split())  # NOTE: the console wraps long lines (the results paths) at 160
    assert "replaced" in said and f"{total} challenge(s) from runs" in said, r.out
    r = invoke(capsys, "compare", "reference@latest", "noop@latest", "--format", "json",
               "--results", str(results))
    assert r.exit_code == 0, r.err
    data = json.loads(r.out)
    assert len(data["challenges"]) == total
    assert [a["label"] for a in data["agents"]] == ["reference", "noop"]
    r = invoke(capsys, "compare", str(results / "reference.json"), str(results / "noop.json"),
               "--format", "json")
    assert r.exit_code == 0 and len(json.loads(r.out)["challenges"]) == total
    r = invoke(capsys, "history", "reference", "--json", "--results", str(results))
    points = json.loads(r.out)["points"]
    assert len(points) == 3 and [p["n"] for p in points] == per_tier
    runs = [p["run_id"] for p in points]
    r = invoke(capsys, "compare", f"reference@{runs[0]}", f"noop@{runs[2]}", "--results", str(results))
    assert r.exit_code == 2
    assert "share no challenge" in r.err and f"holds {per_tier[0]} challenge(s): easy/" in r.err
    assert f"holds {per_tier[2]} challenge(s): hard/" in r.err
