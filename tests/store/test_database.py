"""The results database on SQLite and a real PostgreSQL: schema and migrations, round trips, the
latest view, history, run listing, refusals (newer schema, locked, read-only, corrupted), values
that look like SQL, and two writers at once."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from agentbench.errors import UsageError
from agentbench.records import dumps_trial, loads_trial
from agentbench.store import database
from agentbench.store.database import DatabaseError, locate
from agentbench.store.history import history
from agentbench.store.opening import connect, migrate, schema_version
from agentbench.store.schema import MIGRATIONS, SCHEMA_VERSION
from agentbench.store.views import RunFilter, latest, list_runs, run_record, run_row
from tests.store.helpers import index_run, info, open_index, synthetic_trials
from tests.synthetic import CHALLENGES

EASY = tuple(c for c in CHALLENGES if c.startswith("easy/"))
HARD = tuple(c for c in CHALLENGES if c.startswith("hard/"))


def test_a_new_database_gets_the_current_schema_and_a_migration_step_runs_once(db_url):
    index = open_index(db_url)
    try:
        assert schema_version(index.connection) == SCHEMA_VERSION
        extra = ("CREATE TABLE notes (run_id TEXT PRIMARY KEY, note TEXT)",)
        assert migrate(index.connection, (*MIGRATIONS, extra)) == SCHEMA_VERSION + 1
        assert migrate(index.connection, (*MIGRATIONS, extra)) == SCHEMA_VERSION + 1  # no second run
        assert schema_version(index.connection) == SCHEMA_VERSION + 1
        assert index.connection.query("SELECT count(*) FROM notes") == [(0,)]
    finally:
        index.close()


def test_a_failing_migration_leaves_the_database_as_it_was(db_url):
    index = open_index(db_url)
    try:
        broken = ("CREATE TABLE half (x TEXT)", "THIS IS NOT SQL")
        with pytest.raises(DatabaseError):
            migrate(index.connection, (*MIGRATIONS, broken))
        assert schema_version(index.connection) == SCHEMA_VERSION
        with pytest.raises(DatabaseError):
            index.connection.query("SELECT count(*) FROM half")
    finally:
        index.close()


def test_a_database_from_a_newer_agentbench_is_refused_unchanged(db_url):
    index = open_index(db_url)
    with index.connection.write() as writer:
        writer.execute("UPDATE agentbench_meta SET value = ? WHERE key = ?", ("99", "schema_version"))
    index.close()
    with pytest.raises(DatabaseError) as info_:
        connect(locate(db_url, Path("unused")), create=True)
    assert "schema version is 99, written by a newer AgentBench" in info_.value.message
    assert "nothing was changed" in (info_.value.hint or "")
    again = open_index_unchecked(db_url)
    assert again.query("SELECT value FROM agentbench_meta WHERE key = ?", ("schema_version",)) == [("99",)]
    again.close()


def open_index_unchecked(url):
    location = locate(url, Path("unused"))
    if location.kind == "sqlite":
        from agentbench.store.sqlite import open_sqlite

        raw, dialect = open_sqlite(location, 5, create=False)
    else:
        from agentbench.store.postgres import open_postgres

        raw, dialect = open_postgres(location, 5)
    return database.Connection(location, raw, dialect)


def test_a_version_1_database_is_migrated_keeping_its_rows_and_new_rows_fill_the_new_columns(db_url):
    from agentbench.store.index import TRIAL_COLUMNS, UPSERT_RUN, trial_row

    if "://" not in db_url:  # an empty SQLite file, as AgentBench of version 1 would have started
        Path(db_url).parent.mkdir(parents=True)
        sqlite3.connect(db_url).close()
    old = open_index_unchecked(db_url)
    try:
        assert migrate(old, MIGRATIONS[:1]) == 1
        trial = synthetic_trials(challenges=EASY)[0]
        run = info("r1", ("alpha-coder",), EASY, started="2026-01-01T00:00:00+00:00")
        v1_columns = TRIAL_COLUMNS[:-2]  # language and cuts came with version 2
        row = trial_row("r1", trial, Path("/nowhere"), None)[:len(v1_columns)]
        with old.write() as writer:
            writer.execute(UPSERT_RUN, run.row())
            writer.execute(f"INSERT INTO trials ({', '.join(v1_columns)}) "
                           f"VALUES ({', '.join('?' * len(v1_columns))})", row)
    finally:
        old.close()
    index = open_index(db_url)  # connect() migrates to the current version
    try:
        assert schema_version(index.connection) == SCHEMA_VERSION == 2
        assert index.connection.query("SELECT run_id, challenge_id, language, cuts FROM trials") == [
            ("r1", trial.challenge_id, None, None)]
        typed = replace(trial, language="typescript", cut=("stdout: 2 MB dropped", "file: x.bin"))
        index_run(index, run, [typed])
        assert index.connection.query("SELECT language, cuts FROM trials WHERE run_id = ?", ("r1",)) == [
            ("typescript", 2)]
        assert index.connection.query("SELECT count(*) FROM trials WHERE language = ?",
                                      ("typescript",)) == [(1,)]
    finally:
        index.close()


def test_records_come_back_exactly_as_they_were_written(db_url):
    index = open_index(db_url)
    try:
        trials = index_run(index, info("r1", ("alpha-coder",), CHALLENGES, started="2026-01-01T00:00:00+00:00",
                                       model="m1", version="1.0"), synthetic_trials())
        record = run_record(index.connection, run_row(index.connection, "r1"), "alpha-coder")
        written = [loads_trial(dumps_trial(t)) for t in trials]  # what record.json would hold
        assert sorted(map(dumps_trial, record.trials)) == sorted(map(dumps_trial, written))
        assert record.run_id == "r1" and record.rubric == "seed"
        row = index.connection.query("SELECT tier, scored, model, agent_version, hidden_total FROM trials "
                                     "WHERE run_id = ? AND challenge_id = ? AND trial = ?",
                                     ("r1", "hard/kv-store", 1))
        assert row == [("hard", 1, "m1", "1.4.2", 10)]
    finally:
        index.close()


def test_latest_takes_each_challenge_from_its_newest_run(db_url):
    index = open_index(db_url)
    try:
        old = synthetic_trials(challenges=CHALLENGES, seed=1)
        index_run(index, info("r1", ("alpha-coder",), CHALLENGES, started="2026-01-01T00:00:00+00:00"), old)
        new_easy = synthetic_trials(challenges=EASY, seed=2)
        index_run(index, info("r2", ("alpha-coder",), EASY, started="2026-02-01T00:00:00+00:00"), new_easy)
        view = latest(index.connection, "alpha-coder")
        assert view.record.run_id == "r2"
        assert {t.challenge_id for t in view.record.trials} == set(CHALLENGES)
        by_cid = {(t.challenge_id, t.trial): t for t in view.record.trials}
        assert by_cid[("easy/semver", 1)].logs_dir == "trials/alpha-coder/easy/semver/trial-1"
        original = next(t for t in new_easy if (t.challenge_id, t.trial) == ("easy/semver", 1))
        assert by_cid[("easy/semver", 1)] == loads_trial(dumps_trial(original))
        assert by_cid[("hard/kv-store", 2)].logs_dir == "../r1/trials/alpha-coder/hard/kv-store/trial-2"
        assert dict(view.runs) == {"r2": EASY, "r1": tuple(sorted(set(CHALLENGES) - set(EASY)))}
        with pytest.raises(UsageError, match="no trial of agent 'nobody'"):
            latest(index.connection, "nobody")
    finally:
        index.close()


def test_history_gives_a_point_per_run_and_groups_by_version_and_model(db_url):
    index = open_index(db_url)
    try:
        for n, (model, version) in enumerate((("m1", "1.0"), ("m1", "1.0"), ("m2", "2.0")), start=1):
            trials = [replace(t, adapter=replace(t.adapter, version=version))
                      for t in synthetic_trials(seed=n)]
            index_run(index, info(f"r{n}", ("alpha-coder",), CHALLENGES, model=model, version=version,
                                  started=f"2026-0{n}-01T00:00:00+00:00"), trials)
        h = history(index.connection, "alpha-coder")
        assert [p.run_id for p in h.points] == ["r1", "r2", "r3"]
        assert all(p.n == 13 and p.low < p.score < p.high for p in h.points)
        assert [(g.version, g.model, g.runs) for g in h.groups] == [("1.0", "m1", 2), ("2.0", "m2", 1)]
        one = history(index.connection, "alpha-coder", challenge="easy/semver")
        assert one.unit == "trials" and all(p.n <= 3 for p in one.points)
        with pytest.raises(UsageError):
            history(index.connection, "alpha-coder", challenge="easy/nope")
    finally:
        index.close()


def test_runs_are_listed_newest_first_and_filtered(db_url):
    index = open_index(db_url)
    try:
        index_run(index, info("r1", ("alpha-coder",), EASY, started="2026-01-01T00:00:00+00:00"),
                  synthetic_trials(challenges=EASY))
        index_run(index, info("r2", ("bravo-cli",), HARD, started="2026-03-01T00:00:00+00:00"),
                  synthetic_trials(1, challenges=HARD), agent=None)
        index.set_status("r2", "interrupted", None)
        runs = list_runs(index.connection)
        assert [r.run_id for r in runs] == ["r2", "r1"]
        assert runs[1].recorded == 18 and runs[1].planned == 18 and runs[1].scores[0][1] is not None
        assert [r.run_id for r in list_runs(index.connection, RunFilter(agent="alpha-coder"))] == ["r1"]
        assert [r.run_id for r in list_runs(index.connection, RunFilter(since="2026-02-01"))] == ["r2"]
        assert [r.run_id for r in list_runs(index.connection, RunFilter(until="2026-02-01"))] == ["r1"]
        assert [r.run_id for r in list_runs(index.connection, RunFilter(status="interrupted"))] == ["r2"]
        assert len(list_runs(index.connection, RunFilter(limit=1))) == 1
    finally:
        index.close()


def test_values_that_look_like_sql_are_stored_as_values(db_url):
    index = open_index(db_url)
    evil = "x'); DROP TABLE trials; --"
    try:
        trials = synthetic_trials(challenges=EASY[:1])
        index_run(index, info("r'1; DELETE FROM runs", (evil,), EASY[:1],
                              started="2026-01-01T00:00:00+00:00", model="?; %s %(x)s"), trials, agent=evil)
        assert latest(index.connection, evil).record.agent == evil
        assert [r.run_id for r in list_runs(index.connection, RunFilter(agent=evil))] == ["r'1; DELETE FROM runs"]
        assert index.connection.query("SELECT count(*) FROM trials") == [(3,)]
        assert index.connection.query("SELECT DISTINCT model FROM trials") == [("?; %s %(x)s",)]
    finally:
        index.close()


def test_a_locked_database_gives_one_clear_error(db_url, monkeypatch):
    monkeypatch.setenv(database.TIMEOUT_ENV, "0.5")
    index = open_index(db_url)
    holder = open_index_unchecked(db_url)
    try:
        with holder.write() as writer:
            if holder.kind == "sqlite":
                writer.execute("UPDATE agentbench_meta SET value = value")  # holds the write lock
            else:
                writer.execute("LOCK TABLE trials IN ACCESS EXCLUSIVE MODE")
            with pytest.raises(DatabaseError) as info_:
                index_run(index, info("r1", ("alpha-coder",), EASY[:1], started="2026-01-01"),
                          synthetic_trials(challenges=EASY[:1]))
        assert "locked by another process (waited 0.5 s)" in info_.value.message
        assert "the trial folders are intact" in (info_.value.hint or "")
    finally:
        holder.close()
        index.close()


def test_a_read_only_postgresql_session_gives_one_clear_error(fresh_postgres):
    open_index(fresh_postgres).close()
    url = fresh_postgres + "?options=-c%20default_transaction_read_only%3Don"
    index = open_index(url)
    try:
        with pytest.raises(DatabaseError, match="cannot write it: read-only"):
            index_run(index, info("r1", ("alpha-coder",), EASY[:1], started="2026-01-01"),
                      synthetic_trials(challenges=EASY[:1]))
    finally:
        index.close()


def test_a_corrupted_sqlite_file_gives_one_clear_error(tmp_path):
    path = tmp_path / "agentbench.db"
    path.write_bytes(b"this is not a database, it is a text file\n" * 200)
    with pytest.raises(DatabaseError) as info_:
        connect(locate(str(path), tmp_path), create=True)
    assert "corrupted or not a database" in info_.value.message
    assert "agentbench db rebuild" in (info_.value.hint or "")


@pytest.mark.needs("psycopg")
def test_an_unreachable_postgresql_server_gives_one_clear_error(monkeypatch):
    monkeypatch.setenv(database.TIMEOUT_ENV, "2")
    with pytest.raises(DatabaseError) as info_:
        connect(locate("postgresql://someone:s3cret-pw@127.0.0.1:1/nothing", Path(".")), create=True)
    assert "cannot connect" in info_.value.message and "s3cret-pw" not in str(info_.value.message)
    assert "***" in info_.value.message


WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from tests.store.helpers import index_run, info, open_index, synthetic_trials
    from tests.synthetic import CHALLENGES
    url, run_id, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    index = open_index(url)
    for n, cid in enumerate(CHALLENGES):
        trials = synthetic_trials(challenges=(cid,), seed=seed + n)
        index_run(index, info(run_id, ("alpha-coder",), CHALLENGES, started="2026-01-01"), trials)
    index.close()
""")


def test_two_writers_at_once_lose_nothing(db_url):
    open_index(db_url).close()
    root = Path(__file__).parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, db_url, f"run-{n}", str(n * 100)],
                              cwd=root, env=env, stderr=subprocess.PIPE, text=True) for n in range(2)]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    index = open_index(db_url)
    try:
        rows = index.connection.query("SELECT run_id, count(*) FROM trials GROUP BY run_id ORDER BY run_id")
        assert rows == [("run-0", 39), ("run-1", 39)]
    finally:
        index.close()


def test_read_commands_do_not_create_a_database(tmp_path):
    with pytest.raises(DatabaseError, match="no such database"):
        connect(locate(None, tmp_path / "results"), create=False)
    assert not (tmp_path / "results").exists()


def test_sqlite_is_the_default_and_urls_are_masked(tmp_path, monkeypatch):
    monkeypatch.delenv(database.DB_ENV, raising=False)
    assert locate(None, tmp_path).target == str(tmp_path / "agentbench.db")
    monkeypatch.setenv(database.DB_ENV, "postgresql://u:pw@h/db")
    assert locate(None, tmp_path).kind == "postgresql"
    assert locate(None, tmp_path).shown == "postgresql://u:***@h/db"
    assert locate("sqlite:///x/y.db", tmp_path).target == "x/y.db"
    with pytest.raises(UsageError):
        locate("mysql://x", tmp_path)
    sqlite3.connect(str(tmp_path / "plain.db")).close()
