# Sourced by scripts/test.sh: makes the test dependencies available.
# As root on Debian (CI, a fresh machine) it installs with apt-get, in one
# go, what is missing: Chromium for the report's browser tests, a
# PostgreSQL server for the store tests, python3-optuna and
# python3-psycopg2 for the Optuna reader tests, slurm-wlm and munge for the
# Slurm executor's tests; then it starts PostgreSQL and exports
# PARETO_TEST_POSTGRES_URL, and starts a one-node Slurm cluster on
# localhost (executor/testdata/ci-slurm.sh) and exports
# PARETO_TEST_SLURM=1. Otherwise it says what is missing;
# those tests then skip with the reason, and fail under CI=true
# (internal/testenv), never silently.
#
# Every check looks for the real thing, outside the repository tree: from
# the repository root Python would import the Go package folder optuna/ as
# a namespace package, so Python is asked from / in isolated mode (-I) for
# the module's __version__.
can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }
have_python_module() { (cd / && /usr/bin/python3 -I -c "import $1 as m; assert m.__version__") >/dev/null 2>&1; }
have_chromium() { command -v chromium >/dev/null 2>&1 && (cd / && chromium --version) >/dev/null 2>&1; }
have_slurm() { command -v slurmctld && command -v slurmd && command -v munged && command -v sbatch; } >/dev/null 2>&1
have_postgres_server() { compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null && command -v pg_ctlcluster >/dev/null 2>&1; }

deps_missing=() # Debian packages
have_chromium || deps_missing+=(chromium fonts-liberation)
if [ -z "${PARETO_TEST_POSTGRES_URL:-}" ]; then
	have_postgres_server || deps_missing+=(postgresql)
fi
if [ "${PARETO_TEST_SLURM:-}" != 1 ]; then
	have_slurm || deps_missing+=(slurm-wlm munge)
fi
have_python_module optuna || deps_missing+=(python3-optuna)
have_python_module psycopg2 || deps_missing+=(python3-psycopg2)
# axe-core (third-party, for the report's accessibility test) is never in
# the tree: npm fetches it into the user's cache, where internal/testenv
# (Axe) looks for it too.
axe_cache="${XDG_CACHE_HOME:-$HOME/.cache}/pareto-test/axe-core@4/axe.min.js"
[ -s "$axe_cache" ] || command -v npm >/dev/null 2>&1 || deps_missing+=(npm)

if [ ${#deps_missing[@]} -gt 0 ]; then
	if can_install; then
		echo "== apt-get install ${deps_missing[*]}"
		for i in 1 2 3 4 5; do
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				"${deps_missing[@]}" >/dev/null && break
			[ "$i" = 5 ] && { echo "apt-get install failed 5 times"; exit 1; }
			echo "apt-get failed (attempt $i), retrying"
			sleep 10
		done
	else
		echo "note: missing ${deps_missing[*]} (install them as root with apt-get, or run this as root):" \
			"the tests that need them are skipped (they fail under CI=true)"
	fi
fi
if [ ! -s "$axe_cache" ] && command -v npm >/dev/null 2>&1; then
	axe_tmp="$(mktemp -d)"
	if (cd "$axe_tmp" && npm pack --silent axe-core@4 >/dev/null 2>&1) &&
		tar -xzf "$axe_tmp"/axe-core-*.tgz -C "$axe_tmp" package/axe.min.js; then
		mkdir -p "$(dirname "$axe_cache")" && cp "$axe_tmp/package/axe.min.js" "$axe_cache"
	fi
	rm -rf "$axe_tmp"
fi
if [ -s "$axe_cache" ]; then
	export PARETO_TEST_AXE="$axe_cache"
else
	echo "note: no axe-core ($axe_cache): the accessibility test of report/ will be skipped (it fails under CI=true)"
fi
have_chromium || echo "note: no working chromium: the browser tests of report/ will be skipped (they fail under CI=true)"
have_python_module optuna || echo "note: /usr/bin/python3 has no optuna: the Optuna tests will be skipped (they fail under CI=true)"

if [ -z "${PARETO_TEST_POSTGRES_URL:-}" ]; then
	if can_install && have_postgres_server; then
		echo "== starting PostgreSQL for the store tests"
		PARETO_TEST_POSTGRES_URL="$(bash store/testdata/ci-postgres.sh)"
		export PARETO_TEST_POSTGRES_URL
	else
		echo "note: PARETO_TEST_POSTGRES_URL is not set: the PostgreSQL tests will be skipped (they fail under CI=true)"
	fi
fi
if [ "${PARETO_TEST_SLURM:-}" != 1 ]; then
	if can_install && have_slurm; then
		echo "== starting a one-node Slurm cluster for the executor tests"
		if bash executor/testdata/ci-slurm.sh; then
			export PARETO_TEST_SLURM=1
		else
			echo "note: executor/testdata/ci-slurm.sh failed: the Slurm tests will be skipped (they fail under CI=true)"
		fi
	else
		echo "note: PARETO_TEST_SLURM is not 1: the Slurm tests will be skipped (they fail under CI=true)"
	fi
fi
unset deps_missing

# The benchmark smoke run ingests this many trials per store benchmark
# (recorded figures use the default, 10^6).
export PARETO_BENCH_TRIALS="${PARETO_BENCH_TRIALS:-20000}"
