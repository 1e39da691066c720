#!/usr/bin/env bash
# Installs and starts PostgreSQL (and Debian's python3-optuna for the Optuna
# reader tests), creates the test role and database, and prints the URL to
# export as PARETO_TEST_POSTGRES_URL. Idempotent; run as root on Debian.
set -euo pipefail
need=()
command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
/usr/bin/python3 -c 'import optuna' >/dev/null 2>&1 || need+=(python3-optuna)
/usr/bin/python3 -c 'import psycopg2' >/dev/null 2>&1 || need+=(python3-psycopg2)
if [ ${#need[@]} -gt 0 ]; then
	echo "== apt-get install ${need[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	for i in 1 2 3 4 5 6; do
		apt-get update -qq >&2 && apt-get install -y -qq "${need[@]}" >&2 && break
		echo "apt-get failed (attempt $i), retrying" >&2
		sleep 10
	done
fi
ver=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$ver main"; then
	pg_createcluster "$ver" main >&2
fi
if ! pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main"' | grep -q online; then
	pg_ctlcluster "$ver" main start >&2
fi
for i in $(seq 30); do
	su postgres -c "psql -qtAc 'select 1'" >/dev/null 2>&1 && break
	sleep 1
done
port=$(pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $3}')
su postgres -c "psql -qtA -p $port" >&2 <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pareto') THEN
    CREATE ROLE pareto LOGIN CREATEDB PASSWORD 'pareto';
  END IF;
END $$;
SELECT 'CREATE DATABASE pareto OWNER pareto' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'pareto')\gexec
SQL
echo "postgres://pareto:pareto@127.0.0.1:$port/pareto?sslmode=disable"
