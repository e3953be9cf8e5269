"""`agentbench report`: Markdown, HTML and JSON files from a results folder, with log links."""

import csv
import io
import json
import os
from pathlib import Path

from agentbench.records import dumps_run
from tests.cli.helpers import invoke
from tests.test_comparison import NOISY_A, NOISY_B, make_run


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def results_folder(root: Path, with_run_folder: bool = True) -> Path:
    results = root / "results"
    results.mkdir()
    for run in (make_run("a", NOISY_A, run_id="run-1"), make_run("b", NOISY_B, run_id="run-1")):
        (results / f"{run.agent}.json").write_text(dumps_run(run), encoding="utf-8")
    if with_run_folder:
        (results / "run-1" / "trials").mkdir(parents=True)
    return results


def test_markdown_report_from_a_folder(capsys, tmp_path: Path):
    results = results_folder(tmp_path)
    out = tmp_path / "comparison.md"
    r = invoke(capsys, "report", str(results), "--output", str(out))
    assert r.exit_code == 0, r.err
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# AgentBench comparison")
    assert "| Agent | Aggregate Score | Challenges |" in text
    assert "[run\\-1](<results/run-1/>)" in text or "[run-1](<results/run-1/>)" in text
    assert "wrote" in r.out


def test_report_file_gets_the_users_umask_permissions(capsys, tmp_path: Path):
    # NOTE: the user's umask decides, like any other tool (0644 under the default 022). This holds
    # once store.write_atomic stops keeping mkstemp's 0600 (that change is the store's).
    results = results_folder(tmp_path)
    out = tmp_path / "report.html"
    assert invoke(capsys, "report", str(results), "-o", str(out)).exit_code == 0
    assert out.stat().st_mode & 0o777 == 0o666 & ~current_umask()


def test_html_report_links_trials_relative_to_the_report(capsys, tmp_path: Path):
    results = results_folder(tmp_path)
    out = tmp_path / "site" / "report.html"
    r = invoke(capsys, "report", str(results), "-o", str(out), "--power", "5")
    assert r.exit_code == 0, r.err
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    assert 'href="../results/run-1/trials/a/easy/a/trial-1/"' in html
    assert "Power: to detect a 5-point gap" in html
    assert 'id="table-verdicts-score"' in html


def test_csv_report_of_every_trial(capsys, tmp_path: Path):
    results = results_folder(tmp_path)
    out = tmp_path / "trials.csv"
    r = invoke(capsys, "report", str(results), "-o", str(out), "--condition-on-challenges")
    assert r.exit_code == 0, r.err
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len(rows) == 48 and {row["agent"] for row in rows} == {"a", "b"}


def test_no_links_when_the_run_folder_is_gone(capsys, tmp_path: Path):
    results = results_folder(tmp_path, with_run_folder=False)
    out = tmp_path / "report.html"
    assert invoke(capsys, "report", str(results), "-o", str(out)).exit_code == 0
    assert ">logs</a>" not in out.read_text(encoding="utf-8")


def test_json_and_stdout_and_explicit_format(capsys, tmp_path: Path):
    results = results_folder(tmp_path)
    out = tmp_path / "c.json"
    assert invoke(capsys, "report", str(results), "-o", str(out)).exit_code == 0
    assert json.loads(out.read_text())["agents"][0]["label"] == "a"
    r = invoke(capsys, "report", str(results / "a.json"), str(results / "b.json"))
    assert r.exit_code == 0 and r.out.startswith("# AgentBench comparison")
    r = invoke(capsys, "report", str(results), "--format", "html")
    assert r.exit_code == 0 and r.out.startswith("<!DOCTYPE html>")


def test_usage_errors(capsys, tmp_path: Path):
    results = results_folder(tmp_path)
    r = invoke(capsys, "report", str(results), "-o", str(tmp_path / "report.pdf"))
    assert r.exit_code == 2 and "cannot tell the report format" in r.err
    assert "name the file .md, .html, .json or .csv" in r.err
    empty = tmp_path / "empty"
    empty.mkdir()
    r = invoke(capsys, "report", str(empty))
    assert r.exit_code == 2 and "no results files" in r.err
    (results / "junk.json").write_text("[1, 2]", encoding="utf-8")
    r = invoke(capsys, "report", str(results))
    assert r.exit_code == 2 and "junk.json: not an AgentBench results file" in r.err
    assert "Traceback" not in r.err


def test_two_folders_whose_runs_share_an_id_are_reported_side_by_side(capsys, tmp_path: Path):
    for name, scores in (("first", NOISY_A), ("second", NOISY_B)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "codex.json").write_text(
            dumps_run(make_run("codex", scores, run_id="run-1")), encoding="utf-8")
    r = invoke(capsys, "report", str(tmp_path / "first"), str(tmp_path / "second"),
               "--format", "markdown")
    assert r.exit_code == 0, r.err
    assert "codex · run-1 · first" in r.out and "codex · run-1 · second" in r.out
    same = invoke(capsys, "report", str(tmp_path / "first"), str(tmp_path / "first" / "codex.json"),
                  "--format", "markdown")
    assert same.exit_code == 2 and "are given twice" in same.err
