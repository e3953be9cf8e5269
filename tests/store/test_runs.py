"""The database through `agentbench run` end to end: killed runs and `--resume` keep it in step with the
trial folders, `db rebuild` gives back the same index (never a planted record), the refusals come
before any trial, and the commands (`runs`, `show`, `history`, `export`, `compare agent@...`) read it."""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agentbench.store.database import locate
from agentbench.store.folders import RECORD_NAME
from agentbench.store.opening import connect
from tests.cli.helpers import invoke

ROOT = Path(__file__).parents[2]


def run_cli(*args: str, env: dict[str, str] | None = None, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "agentbench", *args], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, **(env or {})}, timeout=600, **kwargs)


def folder_records(run_root: Path) -> dict[tuple[str, str, int], str]:
    """Every trial record.json at its planned path (the plan says which)."""
    plan = json.loads((run_root / "run.json").read_text())
    found = {}
    for agent in plan["agents"]:
        for cid in plan["challenge_ids"]:
            for n in range(1, plan["trials"] + 1):
                path = run_root / "trials" / agent / cid / f"trial-{n}" / RECORD_NAME
                if path.is_file():
                    found[(agent, cid, n)] = path.read_text(encoding="utf-8")
    return found


def database_records(db: str, run_id: str) -> dict[tuple[str, str, int], str]:
    connection = connect(locate(db, Path(".")), create=False)
    try:
        rows = connection.query("SELECT agent, challenge_id, trial, record FROM records WHERE run_id = ?",
                                (run_id,))
        return {(a, c, int(n)): text for a, c, n, text in rows}
    finally:
        connection.close()


def run_status(db: str, run_id: str) -> str:
    connection = connect(locate(db, Path(".")), create=False)
    try:
        return str(connection.query("SELECT status FROM runs WHERE run_id = ?", (run_id,))[0][0])
    finally:
        connection.close()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_a_run_killed_at_a_random_point_and_resumed_keeps_database_and_folders_in_step(
        db_url, sig, tmp_path, tiny_challenges):
    results = tmp_path / "killed"
    args = ["run", "--agent", "noop", "--challenge", "easy/adder", "--trials", "6", "--challenges",
            str(tiny_challenges), "--results", str(results), "--run-id", "k", "--db", db_url]
    proc = subprocess.Popen([sys.executable, "-m", "agentbench", *args], cwd=ROOT, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    rng = random.Random(f"{sig}-{db_url[:10]}")
    deadline = time.monotonic() + 120
    wanted = rng.randint(1, 4)  # kill once this many trials are recorded, at a random moment after
    while time.monotonic() < deadline and proc.poll() is None:
        done = len(folder_records(results / "k")) if (results / "k" / "run.json").is_file() else 0
        if done >= wanted:
            time.sleep(rng.uniform(0.0, 1.5))
            break
        time.sleep(0.05)
    os.kill(proc.pid, sig)
    proc.communicate(timeout=120)
    time.sleep(2)  # NOTE: after SIGKILL the trial's own commands may still be ending
    on_disk, indexed = folder_records(results / "k"), database_records(db_url, "k")
    assert set(indexed) <= set(on_disk)  # never a trial in the database whose record is missing
    assert all(indexed[k] == on_disk[k] for k in indexed)
    assert len(on_disk) < 6 or proc.returncode == 0
    resumed = run_cli("run", "--resume", "k", "--results", str(results), "--db", db_url)
    assert resumed.returncode == 0, resumed.stderr
    on_disk, indexed = folder_records(results / "k"), database_records(db_url, "k")
    assert len(on_disk) == 6 and indexed == on_disk
    assert run_status(db_url, "k") == "finished"


def test_a_newer_database_stops_the_run_before_any_trial(tmp_path, tiny_challenges):
    results = tmp_path / "r"
    connection = connect(locate(None, results), create=True)
    with connection.write() as writer:
        writer.execute("UPDATE agentbench_meta SET value = ? WHERE key = ?", ("7", "schema_version"))
    connection.close()
    before = (results / "agentbench.db").read_bytes()
    proc = run_cli("run", "--agent", "noop", "--challenge", "easy/adder", "--challenges",
                   str(tiny_challenges), "--results", str(results), "--run-id", "n")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and errors[0].startswith("error: results database")
    assert "newer AgentBench" in errors[0] and proc.stderr.strip().splitlines()[-1].startswith("hint: ")
    assert not (results / "n").exists() and (results / "agentbench.db").read_bytes() == before


BWRAP = __import__("shutil").which("bwrap")
needs_bwrap = pytest.mark.needs("bwrap")


@needs_bwrap
def test_a_read_only_database_gives_one_clear_error_and_keeps_the_trial_folders(tmp_path, tiny_challenges):
    results = tmp_path / "r"
    first = run_cli("run", "--agent", "noop", "--challenge", "easy/adder", "--challenges",
                    str(tiny_challenges), "--results", str(results), "--run-id", "one")
    assert first.returncode == 0, first.stderr
    db = results / "agentbench.db"
    proc = subprocess.run([BWRAP or "bwrap", "--bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                           "--ro-bind", str(db), str(db), sys.executable, "-m", "agentbench", "run",
                           "--agent", "noop", "--challenge", "easy/adder", "--challenges",
                           str(tiny_challenges), "--results", str(results), "--run-id", "two"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "cannot write it: read-only" in proc.stderr and "trial folders are intact" in proc.stderr
    assert len(folder_records(results / "one")) == 1 and not (results / "two" / "trials").exists()


def test_rebuild_gives_back_the_same_index_and_never_a_planted_record(capsys, tmp_path, tiny_challenges):
    results = tmp_path / "r"
    r = invoke(capsys, "run", "--agent", "noop", "--challenge", "easy/adder", "--trials", "2",
               "--challenges", str(tiny_challenges), "--results", str(results), "--run-id", "rb")
    assert r.exit_code == 0, r.err
    db = str(results / "agentbench.db")
    before = database_records(db, "rb")
    workspace = results / "rb" / "trials" / "noop" / "easy" / "adder" / "trial-1" / "workspace"
    planted = json.loads(before[("noop", "easy/adder", 1)])
    planted.update(trial=3, logs_dir="trials/noop/easy/adder/trial-3")
    (workspace / "trials" / "noop" / "easy" / "adder" / "trial-3").mkdir(parents=True)
    (workspace / "trials" / "noop" / "easy" / "adder" / "trial-3" / RECORD_NAME).write_text(json.dumps(planted))
    (workspace / RECORD_NAME).write_text(json.dumps(planted))
    (results / "agentbench.db").write_bytes(b"garbage, not a database" * 100)
    r = invoke(capsys, "runs", "--results", str(results))
    assert r.exit_code == 1 and "corrupted or not a database" in r.err
    r = invoke(capsys, "db", "rebuild", "--results", str(results))
    assert r.exit_code == 0, r.err
    assert "moved the unusable database aside" in r.out and "indexed 1 run(s), 2 trial(s)" in r.out
    assert database_records(db, "rb") == before
    assert list(results.glob("agentbench.db.broken-*"))


def test_the_commands_read_the_database(capsys, db_url, tmp_path, tiny_challenges):
    results = tmp_path / "r"
    for run_id in ("c1", "c2"):
        r = invoke(capsys, "run", "--agent", "reference", "--agent", "noop", "--challenge", "easy/adder",
                   "--challenges", str(tiny_challenges), "--results", str(results), "--run-id", run_id,
                   "--db", db_url)
        assert r.exit_code == 0, r.err
    assert "replaced" in r.out and f"{results / 'reference.json'}" in r.out
    assert (results / "c1" / "reference.json").is_file() and (results / "c2" / "noop.json").is_file()
    where = ("--results", str(results), "--db", db_url)
    r = invoke(capsys, "runs", "--json", "--agent", "reference", *where)
    listed = json.loads(r.out)
    assert [x["run_id"] for x in listed] == ["c2", "c1"] and listed[0]["status"] == "finished"
    r = invoke(capsys, "show", "c1", *where)
    assert r.exit_code == 0 and "reference/easy/adder/1" in r.out and "Trial (s)" in r.out
    r = invoke(capsys, "show", "c1", "reference/easy/adder/1", *where)
    assert r.exit_code == 0 and "prompt.md" in r.out and "logs/test-1.log" in r.out and "hidden tests" in r.out
    assert "trajectory.jsonl" in r.out and "behaviour: the transcript could not be read: an in-process agent" in r.out
    r = invoke(capsys, "history", "reference", "--json", *where, "--output", str(tmp_path / "h.html"))
    points = json.loads(r.out)["points"]
    assert [p["run_id"] for p in points] == ["c1", "c2"] and all(p["score"] >= 90 for p in points)
    page = (tmp_path / "h.html").read_text()
    assert page.count("<circle") == 2 and "<script" not in page
    r = invoke(capsys, "compare", "reference@latest", "noop@c1", "--format", "json", *where)
    assert r.exit_code == 0, r.err
    assert [a["label"] for a in json.loads(r.out)["agents"]] == ["reference", "noop"]
    r = invoke(capsys, "compare", "c1", "--format", "json", *where)
    assert r.exit_code == 0 and len(json.loads(r.out)["agents"]) == 2
    r = invoke(capsys, "export", "c2", "--format", "csv", *where)
    lines = r.out.strip().splitlines()
    assert lines[0].startswith("run_id,agent,challenge_id,trial") and len(lines) == 3
    rows = list(csv.DictReader(lines))
    assert [(x["language"], x["cuts"], float(x["duration_s"]) > 0) for x in rows] == [("python", "0", True)] * 2
    r = invoke(capsys, "export", "c2", "--format", "jsonl", *where)
    assert [json.loads(line)["record"]["agent"] for line in r.out.splitlines()] == ["noop", "reference"]
    if importlib.util.find_spec("pyarrow") is not None or os.environ.get("CI"):  # .ci/run installs it
        r = invoke(capsys, "export", "c2", "--format", "parquet", "-o", str(tmp_path / "t.parquet"), *where)
        assert r.exit_code == 0, r.err
        import pyarrow.parquet as pq

        assert pq.read_table(tmp_path / "t.parquet").num_rows == 2
    r = invoke(capsys, "show", "nope", *where)
    assert r.exit_code == 2 and "no run 'nope'" in r.err


def test_parquet_without_pyarrow_is_one_clear_error(tmp_path):
    code = ("import sys; sys.modules['pyarrow'] = None; sys.modules['pyarrow.parquet'] = None\n"
            "from agentbench.cli.export import write_parquet\n"
            "from agentbench.errors import UsageError\n"
            "try:\n    write_parquet(__import__('pathlib').Path(sys.argv[1]), ('a',), [{'a': 1}])\n"
            "except UsageError as e:\n    print('ERROR', e.message, '|', e.hint)\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "x.parquet")], capture_output=True,
                         text=True, cwd=ROOT, check=True).stdout
    assert "ERROR --format parquet needs pyarrow" in out and "agentbench[parquet]" in out
    assert not (tmp_path / "x.parquet").exists()


def run_times(db: str) -> dict[str, tuple[str, str | None]]:
    connection = connect(locate(db, Path(".")), create=False)
    try:
        return {r: (s, f) for r, s, f in connection.query("SELECT run_id, started_at, finished_at FROM runs")}
    finally:
        connection.close()


def test_rebuild_keeps_every_runs_finished_time(capsys, tmp_path, tiny_challenges):
    results = tmp_path / "r"
    for run_id in ("done", "stopped"):
        r = invoke(capsys, "run", "--agent", "noop", "--challenge", "easy/adder", "--challenges",
                   str(tiny_challenges), "--results", str(results), "--run-id", run_id)
        assert r.exit_code == 0, r.err
    (results / "stopped" / "noop.json").unlink()  # as a run stopped before writing its results files
    db = str(results / "agentbench.db")
    before = run_times(db)
    assert all(finished for _, finished in before.values())
    (results / "agentbench.db").unlink()
    r = invoke(capsys, "db", "rebuild", "--results", str(results))
    assert r.exit_code == 0, r.err
    after = run_times(db)
    assert after["done"] == before["done"]
    record = json.loads(folder_records(results / "stopped")[("noop", "easy/adder", 1)])
    assert after["stopped"][1] is not None and record["started_at"] <= after["stopped"][1] <= before["stopped"][1]
