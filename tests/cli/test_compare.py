"""`agentbench compare`: the seed's table layout, the extra sections, formats, and clear errors."""

import io
import json
from pathlib import Path

from rich.console import Console

from agentbench.cli.compare import seed_tables
from agentbench.comparison import build_comparison
from agentbench.records import dumps_run
from tests.cli.helpers import invoke
from tests.test_comparison import NOISY_A, NOISY_B, SEED_A, SEED_B, make_run, seed_runs

EXAMPLES = Path(__file__).parents[2] / "examples" / "results"

SEED_OUTPUT = """\
┌─────────────────────┬─────────────────┬────────────┐
│ Agent               │ Aggregate Score │ Challenges │
├─────────────────────┼─────────────────┼────────────┤
│ claude-code         │            82.8 │          3 │
│ codex               │            74.2 │          3 │
└─────────────────────┴─────────────────┴────────────┘

┌──────────────────────┬─────────────┬───────┐
│ Challenge            │ claude-code │ codex │
├──────────────────────┼─────────────┼───────┤
│ easy/password-gen    │        91.4 │  78.1 │
│ easy/todo-api        │        84.9 │  70.0 │
│ easy/markdown-parser │        72.0 │  74.5 │
└──────────────────────┴─────────────┴───────┘
"""


def write_runs(folder: Path, *runs) -> list[str]:
    paths = []
    for run in runs:
        path = folder / f"{run.agent}.json"
        path.write_text(dumps_run(run), encoding="utf-8")
        paths.append(str(path))
    return paths


def test_seed_tables_match_the_seed_layout_exactly():
    console = Console(width=100, record=True, file=io.StringIO())
    aggregate, per_challenge = seed_tables(build_comparison(seed_runs()))
    console.print(aggregate)
    console.print()
    console.print(per_challenge)
    assert console.export_text(styles=False) == SEED_OUTPUT


def test_compare_prints_the_seed_tables_first_then_the_rest(capsys, tmp_path: Path):
    files = write_runs(tmp_path, make_run("claude-code", SEED_A), make_run("codex", SEED_B))
    r = invoke(capsys, "compare", *files)
    assert r.exit_code == 0, r.err
    assert r.out.startswith(SEED_OUTPUT)
    for part in ("95% CI", "Score breakdown", "Build (25)", "Time, tokens and cost",
                 "Paired verdicts", "no significant difference between claude-code and codex "
                 "at 1 trial per challenge"):
        assert part in r.out


def test_compare_names_a_winner_and_estimates_power(capsys, tmp_path: Path):
    files = write_runs(tmp_path, make_run("a", NOISY_A), make_run("b", NOISY_B))
    r = invoke(capsys, "compare", *files, "--power", "5")
    assert r.exit_code == 0, r.err
    assert "a is ahead of b by" in r.out and "95% CI" in r.out
    assert "to detect a 5-point gap between a and b with 80% power" in r.out


def test_compare_json_and_markdown(capsys, tmp_path: Path):
    files = write_runs(tmp_path, make_run("a", NOISY_A), make_run("b", NOISY_B))
    r = invoke(capsys, "compare", *files, "--format", "json")
    assert r.exit_code == 0, r.err
    data = json.loads(r.out)
    assert data["comparison_version"] == 1
    assert [a["label"] for a in data["agents"]] == ["a", "b"]
    assert data["verdicts"][0]["winner"] == "a"
    r = invoke(capsys, "compare", *files, "--format", "markdown")
    assert r.out.startswith("# AgentBench comparison") and "| a | " in r.out


def test_compare_the_committed_example_run(capsys):
    r = invoke(capsys, "compare", str(EXAMPLES / "reference.json"), str(EXAMPLES / "noop.json"))
    assert r.exit_code == 0, r.err
    assert "reference is ahead of noop by 90.0 points" in r.out
    assert "│ reference           │           100.0 │         13 │" in r.out


def test_corrupt_file_is_a_clear_error(capsys, tmp_path: Path):
    good = write_runs(tmp_path, make_run("a", NOISY_A))[0]
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 1, "agent": "x", "trials": [', encoding="utf-8")
    r = invoke(capsys, "compare", good, str(bad))
    assert r.exit_code == 2
    assert "error:" in r.err and "bad.json: not valid JSON" in r.err
    assert "Traceback" not in r.err + r.out


def test_other_schema_version_is_a_clear_error(capsys, tmp_path: Path):
    path = tmp_path / "old.json"
    data = json.loads(dumps_run(make_run("a", NOISY_A)))
    data["schema_version"] = 99
    path.write_text(json.dumps(data), encoding="utf-8")
    r = invoke(capsys, "compare", str(path))
    assert r.exit_code == 2 and "schema version 99 is not supported" in r.err
    assert "hint:" in r.err and "Traceback" not in r.err


def test_invalid_record_and_missing_file(capsys, tmp_path: Path):
    path = tmp_path / "odd.json"
    path.write_text('{"schema_version": 1, "agent": 3}', encoding="utf-8")
    r = invoke(capsys, "compare", str(path))
    assert r.exit_code == 2 and "invalid record" in r.err
    r = invoke(capsys, "compare", str(tmp_path / "missing.json"))
    assert r.exit_code == 2 and "no such file" in r.err


def test_different_challenges_note_and_disjoint_error(capsys, tmp_path: Path):
    fewer = {k: v for k, v in NOISY_B.items() if k != "hard/d"}
    files = write_runs(tmp_path, make_run("a", NOISY_A), make_run("b", fewer))
    r = invoke(capsys, "compare", *files)
    assert r.exit_code == 0 and "note:" in r.out and "hard/d" in r.out
    other = tmp_path / "other"
    other.mkdir()
    files = write_runs(other, make_run("a", {"easy/x": [1.0]}), make_run("b", {"easy/y": [1.0]}))
    r = invoke(capsys, "compare", *files)
    assert r.exit_code == 2 and "share no challenge" in r.err and "Traceback" not in r.err


def test_agent_names_are_not_markup(capsys, tmp_path: Path):
    path = tmp_path / "evil.json"
    path.write_text(dumps_run(make_run("[bold red]x[/]\x1b[2J", NOISY_A)), encoding="utf-8")
    r = invoke(capsys, "compare", str(path))
    assert r.exit_code == 0, r.err
    assert "[bold red]x[/]\\x1b[2J" in r.out and "\x1b" not in r.out
