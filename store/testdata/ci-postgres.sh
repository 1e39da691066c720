#!/usr/bin/env bash
# Creates and starts a PostgreSQL cluster (the newest installed server),
# creates the test role (allowed to create databases and roles: the tests
# make a database each and a SELECT-only role) and a fresh test database
# pareto_ci (dropped and created again on every run, so that a machine
# that ran an older pareto's tests starts from an empty database; no other
# database is touched), and prints the URL to export as
# PARETO_TEST_POSTGRES_URL. Run as root on Debian after installing the
# postgresql package (scripts/deps.sh does both).
set -euo pipefail
server=$(compgen -G '/usr/lib/postgresql/*/bin/postgres' | sort -V | tail -1 || true)
if [ -z "$server" ] || ! command -v pg_ctlcluster >/dev/null 2>&1; then
	echo "ci-postgres.sh: no PostgreSQL server installed (apt-get install postgresql)" >&2
	exit 1
fi
ver=$(basename "$(dirname "$(dirname "$server")")")
if ! pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main"' | grep -q .; then
	pg_createcluster "$ver" main >&2
fi
if ! pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main"' | grep -q online; then
	pg_ctlcluster "$ver" main start >&2
fi
port=$(pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $3}')
ready=
for i in $(seq 30); do
	if su postgres -c "psql -p $port -qtAc 'select 1'" >/dev/null 2>&1; then
		ready=1
		break
	fi
	sleep 1
done
if [ -z "$ready" ]; then
	echo "ci-postgres.sh: PostgreSQL $ver on port $port did not answer in 30 s" >&2
	exit 1
fi
su postgres -c "psql -qtA -p $port" >&2 <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pareto') THEN
    CREATE ROLE pareto LOGIN CREATEDB PASSWORD 'pareto';
  END IF;
END $$;
-- The read-only tests create a role that may only SELECT.
ALTER ROLE pareto CREATEROLE;
DROP DATABASE IF EXISTS pareto_ci WITH (FORCE);
CREATE DATABASE pareto_ci OWNER pareto;
SQL
echo "postgres://pareto:pareto@127.0.0.1:$port/pareto_ci?sslmode=disable"
