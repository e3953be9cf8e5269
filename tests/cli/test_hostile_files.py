"""Results files built to hurt the parser (nested 100,000 deep, a 5,000-digit number) and a tampered
database record: `compare`, `report` and `show` stop at once with exit 2 and one `error:` line (and its
hint), never a traceback."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from agentbench.records import loads_run
from tests.cli.helpers import invoke

DEEP = "[" * 100_000 + "]" * 100_000


def hostile(good: str, kind: str) -> str:
    if kind == "deep":
        return good.replace('"agent":', f'"deep": {DEEP}, "agent":', 1)
    if kind == "deep-in-range":
        return good.replace('"agent":', f'"deep": {"[" * 500 + "]" * 500}, "agent":', 1)
    return good.replace('"trial": 1,', f'"trial": {"9" * 5000},', 1)


KINDS = ["deep", "deep-in-range", "bigint"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A real run's results folder (the noop agent on the tiny challenge)."""
    from agentbench.cli import main
    from tests.conftest import make_tiny_challenge

    root = tmp_path_factory.mktemp("hostile")
    challenges = make_tiny_challenge(root / "challenges")
    with pytest.raises(SystemExit) as info:
        main(["run", "--agent", "noop", "--challenge", "easy/adder", "--challenges", str(challenges),
              "--results", str(root / "r")])
    assert info.value.code == 0
    return root / "r"


def assert_one_error(result, name: str) -> None:
    assert result.exit_code == 2, result.err
    assert "Traceback" not in result.err and "RecursionError" not in result.err
    lines = result.err.strip().splitlines()
    assert lines[0].startswith("error: ") and name in lines[0], result.err
    assert all(line.startswith(("error: ", "hint: ")) for line in lines), result.err


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["compare", "report"])
def test_a_hostile_results_file_is_refused_in_one_line(capsys, tmp_path, finished, kind, command):
    path = tmp_path / "noop.json"
    path.write_text(hostile((finished / "noop.json").read_text(), kind))
    start = time.monotonic()
    result = invoke(capsys, command, str(path))
    assert time.monotonic() - start < 5
    assert_one_error(result, "noop.json")


@pytest.mark.parametrize("kind", KINDS)
def test_a_tampered_database_record_is_refused_by_show(capsys, finished, kind):
    run_id = loads_run((finished / "noop.json").read_text()).run_id
    with sqlite3.connect(finished / "agentbench.db") as db:
        (good,) = db.execute("SELECT record FROM records WHERE run_id = ?", (run_id,)).fetchone()
        db.execute("UPDATE records SET record = ? WHERE run_id = ?", (hostile(good, kind), run_id))
    try:
        for args in ((run_id,), (run_id, "noop/easy/adder/1")):
            assert_one_error(invoke(capsys, "show", *args, "--results", str(finished)), run_id)
    finally:
        with sqlite3.connect(finished / "agentbench.db") as db:
            db.execute("UPDATE records SET record = ? WHERE run_id = ?", (good, run_id))


def test_lone_surrogate_escapes_in_a_results_file_are_shown_escaped(capsys, tmp_path, finished):
    path = tmp_path / "noop.json"
    text = (finished / "noop.json").read_text()
    path.write_text(text.replace('"challenge_id": "easy/adder"', '"challenge_id": "easy/adder\\udce9\\ud800"', 1))
    run = loads_run(path.read_text())
    assert run.trials[0].challenge_id == "easy/adder\\xe9\\ud800"
    assert invoke(capsys, "compare", str(path)).exit_code == 0
    out = tmp_path / "report.html"
    assert invoke(capsys, "report", str(path), "--output", str(out)).exit_code == 0
    assert "easy/adder\\xe9" in out.read_text(encoding="utf-8")
