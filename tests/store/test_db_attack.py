"""A trial cannot reach the results database: as root each trial runs as its own user, and an agent
that tries to write rows, plant a journal or scribble on the file changes nothing."""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from tests.attacks.agents import AGENTS, REF
from tests.attacks.conftest import agentbench_run, needs_sandbox

FORGER = '''
import json, pathlib, sqlite3
db = pathlib.Path(RESULTS_DIR) / "agentbench.db"
tried = {}
def attempt(name, action):
    try:
        action()
        tried[name] = "done"
    except Exception as exc:
        tried[name] = type(exc).__name__
def insert():
    conn = sqlite3.connect(str(db), timeout=1)
    conn.execute("UPDATE trials SET score = 100, seed_score = 100")
    conn.execute("INSERT INTO runs (run_id, results_dir, machine, started_at, status, agents, challenges, "
                 "planned, trials_per, rubric, options, agentbench_version) VALUES "
                 "('forged', '', '', '', 'finished', '[]', '[]', 0, 1, 'seed', '{}', '')")
    conn.commit()
attempt("sql", insert)
attempt("journal", lambda: (db.parent / "agentbench.db-journal").write_bytes(b"\\xd9\\xd5\\x05\\xf9" * 64))
attempt("append", lambda: db.open("ab").write(b"forged"))
attempt("replace", lambda: (db.parent / "agentbench.db.new").write_bytes(b"x"))
pathlib.Path("forger.json").write_text(json.dumps(tried))
'''


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_an_agent_cannot_write_the_results_database(tmp_path, mode):
    needs_sandbox(mode)
    if os.geteuid() != 0:
        pytest.skip("trial users need root (CI runs as root)")
    results = tmp_path / "results"
    AGENTS["forger"] = {**REF, "__python__": FORGER.replace("RESULTS_DIR", repr(str(results)))}
    try:
        run = agentbench_run(tmp_path, ["forger", "reference"], "easy/calc", mode)
    finally:
        AGENTS.pop("forger")
    tried = json.loads((run.trial_dir("forger") / "workspace" / "forger.json").read_text())
    assert "done" not in tried.values(), tried
    assert not (results / "agentbench.db-journal").exists() and not (results / "agentbench.db.new").exists()
    conn = sqlite3.connect(str(results / "agentbench.db"))
    try:
        assert conn.execute("SELECT count(*) FROM runs WHERE run_id = 'forged'").fetchone() == (0,)
        rows = dict(conn.execute("SELECT agent, record FROM records").fetchall())
        assert rows["forger"] == (run.trial_dir("forger") / "record.json").read_text()
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()
