"""The results database's schema: its tables, its version, and the migrations between versions.

One schema for SQLite and PostgreSQL: the statements use only types and syntax both accept (TEXT,
INTEGER, BIGINT, DOUBLE PRECISION, composite primary keys, `ON CONFLICT ... DO UPDATE`). Every
statement here is a constant: values only ever travel as parameters (`?`, turned into `%s` for
PostgreSQL by the connection layer).

`MIGRATIONS[n]` takes a database at version n to n + 1; a new database runs them all. The version
sits in `agentbench_meta` (`schema_version`); a database whose version is higher than `SCHEMA_VERSION`
was written by a newer AgentBench and is refused, never altered.
"""

from __future__ import annotations

from collections.abc import Sequence

SCHEMA_VERSION = 2
"""Version of the schema this AgentBench writes."""

_V1: tuple[str, ...] = (
    """CREATE TABLE agentbench_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL)""",
    """CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        results_dir TEXT NOT NULL,
        machine TEXT NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        status TEXT NOT NULL,
        agents TEXT NOT NULL,
        challenges TEXT NOT NULL,
        planned INTEGER NOT NULL,
        trials_per INTEGER NOT NULL,
        rubric TEXT NOT NULL,
        model TEXT,
        options TEXT NOT NULL,
        agentbench_version TEXT NOT NULL,
        isolation TEXT)""",
    """CREATE TABLE run_agents (
        run_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        model TEXT,
        agent_version TEXT,
        PRIMARY KEY (run_id, agent))""",
    """CREATE TABLE trials (
        run_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        challenge_id TEXT NOT NULL,
        trial INTEGER NOT NULL,
        tier TEXT NOT NULL,
        status TEXT NOT NULL,
        scored INTEGER NOT NULL,
        rubric TEXT,
        score DOUBLE PRECISION,
        seed_score DOUBLE PRECISION,
        verified_score DOUBLE PRECISION,
        build_points DOUBLE PRECISION,
        tests_points DOUBLE PRECISION,
        coverage_points DOUBLE PRECISION,
        quality_points DOUBLE PRECISION,
        completeness_points DOUBLE PRECISION,
        efficiency_points DOUBLE PRECISION,
        acceptance_points DOUBLE PRECISION,
        score_scale DOUBLE PRECISION,
        build_ok INTEGER,
        tests_passed INTEGER,
        tests_failed INTEGER,
        tests_skipped INTEGER,
        tests_collected INTEGER,
        covered_lines INTEGER,
        total_lines INTEGER,
        average_complexity DOUBLE PRECISION,
        functions INTEGER,
        items_found INTEGER,
        items_missing INTEGER,
        hidden_passed INTEGER,
        hidden_total INTEGER,
        agent_version TEXT,
        model TEXT,
        input_tokens BIGINT,
        output_tokens BIGINT,
        cost_usd DOUBLE PRECISION,
        turns INTEGER,
        agent_seconds DOUBLE PRECISION,
        duration_s DOUBLE PRECISION,
        started_at TEXT NOT NULL,
        isolation TEXT,
        error TEXT,
        trial_dir TEXT NOT NULL,
        logs_dir TEXT NOT NULL,
        PRIMARY KEY (run_id, agent, challenge_id, trial))""",
    # NOTE: the full records (kilobytes each) live apart, so scans of `trials` stay small
    """CREATE TABLE records (
        run_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        challenge_id TEXT NOT NULL,
        trial INTEGER NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (run_id, agent, challenge_id, trial))""",
    "CREATE INDEX trials_by_agent ON trials (agent, challenge_id, run_id)",
    "CREATE INDEX run_agents_by_agent ON run_agents (agent)",
    "CREATE INDEX runs_by_start ON runs (started_at)",
)

_V2: tuple[str, ...] = (
    # Trial records of schema 2 carry the challenge's language and what the harness cut; rows
    # indexed before this step keep NULL there until `agentbench db rebuild` re-reads their records.
    "ALTER TABLE trials ADD COLUMN language TEXT",
    "ALTER TABLE trials ADD COLUMN cuts INTEGER",
    "CREATE INDEX trials_by_language ON trials (language, agent)",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2)
"""`MIGRATIONS[n]`: the statements that take the schema from version n to n + 1."""

if len(MIGRATIONS) != SCHEMA_VERSION:  # pragma: no cover - a developer's mistake, caught on import
    raise RuntimeError("store.schema: SCHEMA_VERSION must equal the number of migrations")

READ_VERSION = "SELECT value FROM agentbench_meta WHERE key = 'schema_version'"
HAS_META = {
    "sqlite": "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'agentbench_meta'",
    "postgresql": "SELECT count(*) FROM information_schema.tables WHERE table_name = 'agentbench_meta' "
                  "AND table_schema = current_schema()",
}
SET_META = ("INSERT INTO agentbench_meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value")


def pending(version: int, steps: Sequence[tuple[str, ...]] = MIGRATIONS) -> list[tuple[int, tuple[str, ...]]]:
    """(version reached, statements) of each migration a database at `version` still needs."""
    return [(n + 1, statements) for n, statements in enumerate(steps) if n >= version]
