"""Fixtures of the results-database tests: the same tests against SQLite and a real PostgreSQL.

PostgreSQL comes from `$AGENTBENCH_TEST_POSTGRES` (an admin URL whose role may create databases;
`.ci/run` installs and starts the server and sets it). Each test gets a fresh database, dropped
afterwards. Without the variable the PostgreSQL cases are skipped, except under CI, where they fail.
"""

from __future__ import annotations

import os
import urllib.parse
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.requirements import require

PG_ENV = "AGENTBENCH_TEST_POSTGRES"
BACKENDS = ("sqlite", "postgresql")


def _with_database(url: str, name: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture
def postgres_admin() -> str:
    url = os.environ.get(PG_ENV)
    if not url:
        require("postgres")
    require("psycopg")
    return url


@pytest.fixture
def fresh_postgres(postgres_admin: str) -> Iterator[str]:
    """A new, empty PostgreSQL database's URL."""
    import psycopg
    from psycopg import sql

    name = f"agentbench_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield _with_database(postgres_admin, name)
    finally:
        with psycopg.connect(postgres_admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The results database of the test: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "results" / "agentbench.db")
    return str(request.getfixturevalue("fresh_postgres"))
