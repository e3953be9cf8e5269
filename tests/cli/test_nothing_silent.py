"""Nothing changes silently (issue 23, item 7): validate keeps to a scratch results folder of its own,
regrade says what it rewrote and finds the run's own --challenges folder from anywhere, and a results
folder remembers the database it was indexed in."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from tests.cli.helpers import invoke


def test_validate_without_results_leaves_the_results_folder_alone(capsys, tmp_path, tiny_challenges,
                                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = invoke(capsys, "validate", "easy/adder", "--challenges", str(tiny_challenges), "--repeats", "0")
    found = re.search(r"validation run \(logs, workspaces\): (\S+)", " ".join(r.out.split()))
    assert found, r.out + r.err
    scratch = Path(found.group(1)).parent
    try:
        assert not (tmp_path / "results").exists()
        assert scratch.name.startswith("agentbench-validate-") and (scratch / "agentbench.db").is_file()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def test_a_run_indexed_elsewhere_is_found_and_regraded_from_anywhere(capsys, tmp_path, tiny_challenges,
                                                                     monkeypatch):
    results, other_db = tmp_path / "results", tmp_path / "elsewhere.db"
    shutil.copytree(tiny_challenges, tmp_path / "mine")
    monkeypatch.chdir(tmp_path)
    r = invoke(capsys, "run", "--agent", "noop", "--challenge", "easy/adder", "--challenges", "mine",
               "--results", str(results), "--db", str(other_db), "--run-id", "20260101-000000-noop-abcd")
    assert r.exit_code == 0, r.err
    assert (results / "database.txt").read_text().strip() == str(other_db)
    assert not (results / "agentbench.db").exists()
    listed = invoke(capsys, "runs", "--results", str(results), "--json")  # no --db: remembered
    assert listed.exit_code == 0, listed.err
    assert [run["run_id"] for run in json.loads(listed.out)] == ["20260101-000000-noop-abcd"]
    monkeypatch.chdir(tmp_path / "mine")  # the relative --challenges was recorded absolute
    again = invoke(capsys, "regrade", "20260101", "--results", str(results))
    assert again.exit_code == 0, again.err
    out = " ".join(again.out.split())
    assert f"rewrote {results / '20260101-000000-noop-abcd' / 'noop.json'}" in out
    assert f"replaced {results / 'noop.json'}: it held 1 challenge(s) from run 2026" in out
    assert "re-scored 1 trial(s) of run 20260101-000000-noop-abcd in place" in out
