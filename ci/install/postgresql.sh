#!/usr/bin/env bash
# PostgreSQL for the results-database tests: Debian's server, one cluster started, a role and a
# database the tests connect to (they create a fresh database per test; the role may create them).
# The URL the tests read is exported by .ci/run as AGENTBENCH_TEST_POSTGRES.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! command -v pg_ctlcluster >/dev/null || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
version="$(ls /etc/postgresql | sort -V | tail -1)"
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" && $4 == "online"' | grep -q .; then
  pg_ctlcluster "$version" main start
fi
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 1
done
pg_isready -h 127.0.0.1 -p 5432
su postgres -c "psql -v ON_ERROR_STOP=1 -q" <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'agentbench') THEN
    CREATE ROLE agentbench LOGIN CREATEDB PASSWORD 'agentbench';
  END IF;
END $$;
SQL
if ! su postgres -c "psql -tAc \"SELECT 1 FROM pg_database WHERE datname = 'agentbench'\"" | grep -q 1; then
  su postgres -c "createdb -O agentbench agentbench"
fi
echo "postgresql $version: postgresql://agentbench:agentbench@127.0.0.1:5432/agentbench"
