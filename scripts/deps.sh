# Sourced by scripts/test.sh: makes the test dependencies available.
# As root on Debian (CI, a fresh machine) it installs and starts what is
# missing: Chromium for the report's browser tests, PostgreSQL and Optuna
# for the store tests. Otherwise it says what is missing; those tests then
# skip locally and fail in CI (CI=true), never silently.
can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

if ! command -v chromium >/dev/null 2>&1; then
	if can_install; then
		echo "== apt-get install chromium (browser tests of report/)"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
	else
		echo "note: chromium is not installed: the browser tests will be skipped (they fail under CI=true)"
	fi
fi

if [ -z "${PARETO_TEST_POSTGRES_URL:-}" ]; then
	if can_install; then
		echo "== postgresql and optuna for the store tests"
		PARETO_TEST_POSTGRES_URL="$(bash store/testdata/ci-postgres.sh)"
		export PARETO_TEST_POSTGRES_URL
	else
		echo "note: PARETO_TEST_POSTGRES_URL is not set: the PostgreSQL tests will be skipped (they fail under CI=true)"
	fi
fi

# The benchmark smoke run ingests this many trials per store benchmark
# (recorded figures use the default, 10^6).
export PARETO_BENCH_TRIALS="${PARETO_BENCH_TRIALS:-20000}"
