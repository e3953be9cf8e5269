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
    after = r.out[len(SEED_OUTPUT):]
    parts = ["Ranking, over challenges like these", "95% CI", "Pairwise verdicts: score",
             "Score breakdown", "Build (25)", "Time, cost and tokens per trial",
             "Trials by status", "Agents", "By tier", "Paired verdicts, over challenges like these",
             "no verdict between claude-code and codex: too few informative challenges: the "
             "scores differ on 3 of 3 shared challenges"]
    positions = [after.index(part) for part in parts]
    assert positions == sorted(positions)


def test_compare_names_a_winner_and_estimates_power(capsys, tmp_path: Path):
    files = write_runs(tmp_path, make_run("a", NOISY_A), make_run("b", NOISY_B))
    r = invoke(capsys, "compare", *files, "--power", "5")
    assert r.exit_code == 0, r.err
    assert "a is ahead of b by 6.2 points over challenges like these (95% CI" in r.out
    assert "to detect a 5-point gap between a and b with 80% power" in r.out
    assert "+6.2 ▲ (8-0)" in r.out


def test_condition_on_challenges_is_the_labelled_second_view(capsys, tmp_path: Path):
    files = write_runs(tmp_path, make_run("a", NOISY_A), make_run("b", NOISY_B))
    r = invoke(capsys, "compare", *files, "--condition-on-challenges")
    assert r.exit_code == 0, r.err
    assert "Ranking, on these 8 challenges only" in r.out
    assert "a is ahead of b by 6.2 points on these 8 shared challenges only" in r.out
    assert "over challenges like these" not in r.out


def test_model_comes_from_the_run_plan_beside_the_results(capsys, tmp_path: Path):
    from agentbench.store import RunDir, RunPlan

    files = write_runs(tmp_path, make_run("a", NOISY_A, run_id="r1"),
                       make_run("b", NOISY_B, run_id="r2"))
    RunDir(tmp_path / "r1").write_plan(RunPlan(
        run_id="r1", agents=("a",), challenge_ids=tuple(NOISY_A), challenge_dirs=(), trials=3,
        rubric="seed", model="big-model-7", agents_config=None, sandbox="none",
        agent_timeout_s=None, created_at="2026-01-01T00:00:00+00:00"))
    (tmp_path / "r2").mkdir()
    (tmp_path / "r2" / "run.json").write_text("{not json", encoding="utf-8")
    r = invoke(capsys, "compare", *files, "--format", "json")
    assert r.exit_code == 0, r.err
    assert [a["model"] for a in json.loads(r.out)["agents"]] == ["big-model-7", None]


def test_compare_json_and_markdown(capsys, tmp_path: Path):
    files = write_runs(tmp_path, make_run("a", NOISY_A), make_run("b", NOISY_B))
    r = invoke(capsys, "compare", *files, "--format", "json")
    assert r.exit_code == 0, r.err
    data = json.loads(r.out)
    assert data["comparison_version"] == 2 and data["view"] == "challenges"
    assert [a["label"] for a in data["agents"]] == ["a", "b"]
    score = data["verdicts"][0]["score"]
    assert score["winner"] == "a" and score["family"] == 1 and score["wins"] == 8
    assert score["interval"]["df"] == 7
    r = invoke(capsys, "compare", *files, "--format", "markdown")
    assert r.out.startswith("# AgentBench comparison") and "| a | " in r.out
    r = invoke(capsys, "compare", *files, "--format", "csv")
    assert r.out.startswith("agent,adapter,model,cli_version,rank,rank_score,run_id,challenge_id,"
                            "trial,status")
    assert len(r.out.splitlines()) == 1 + 48


def test_compare_the_committed_example_run(capsys):
    r = invoke(capsys, "compare", str(EXAMPLES / "reference.json"), str(EXAMPLES / "noop.json"))
    assert r.exit_code == 0, r.err
    assert "reference is ahead of noop by 90.0 points over challenges like these" in r.out
    assert "│ reference           │           100.0 │         13 │" in r.out
    assert "10.0 to 10.0 (zero width)" in r.out  # noop scored exactly 10 everywhere


def test_compare_six_agents_is_fast(capsys, tmp_path: Path):
    # SYNTHETIC results (tests/synthetic.py): 6 agents x 13 challenges x 3 trials, hidden tests.
    import time

    from tests.synthetic import example_runs

    folder = tmp_path / "six"
    folder.mkdir()
    files = []
    for n, (run, _) in enumerate(example_runs()):
        path = folder / f"{n}.json"
        path.write_text(dumps_run(run), encoding="utf-8")
        files.append(str(path))
    started = time.perf_counter()
    r = invoke(capsys, "compare", *files, "--power", "5")
    elapsed = time.perf_counter() - started
    assert r.exit_code == 0, r.err
    assert "Holm-adjusted over 15 pairs" in r.out
    assert elapsed < 2.0  # 15 pairs, two families, power: about 0.3 s on a 2-core machine


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
