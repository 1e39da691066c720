// Package testenv is the one rule for tests that need something outside Go:
// a PostgreSQL server, Chromium, Debian's python3-optuna. When it is
// missing, a test fails loudly under CI (CI=true, what .ci/run sets) and
// otherwise skips with the reason, so that nothing is dropped silently.
// scripts/deps.sh installs all of them as root on Debian.
package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pareto-llm/pareto/trial"
)

// PostgresEnv names the variable holding the test server's URL.
const PostgresEnv = "PARETO_TEST_POSTGRES_URL"

// Python is Debian's interpreter, the one python3-optuna and
// python3-psycopg2 install into (the python3 first on PATH may be another).
const Python = "/usr/bin/python3"

// CI reports whether the tests run under CI: CI holds a true value
// (true, 1, ...). A missing dependency is then a failure, not a skip.
func CI() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}

// Missing reports that a dependency of the test is missing: under CI it
// fails the test, otherwise it skips it, with the same message.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if CI() {
		t.Fatalf("CI=true but %s (scripts/deps.sh installs it as root on Debian)", msg)
		return
	}
	t.Skip(msg)
}

// PostgresURL returns the URL of the PostgreSQL test server, or reports
// it missing when PARETO_TEST_POSTGRES_URL is unset.
func PostgresURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(PostgresEnv)
	if u == "" {
		Missing(t, "%s is not set: no PostgreSQL server to test against", PostgresEnv)
	}
	return u
}

// PostgresDatabase creates an empty database on the PostgreSQL test server
// for the test, drops it when the test ends, and returns its URL; it
// reports the server missing as PostgresURL does. Tests that migrate a
// store, or must not see the schema other tests' binaries left in the
// shared database, use it.
func PostgresDatabase(t testing.TB) string {
	t.Helper()
	base := PostgresURL(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connecting to the PostgreSQL test server: %v", trial.RedactError(err, base))
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("pareto_test_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating database: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, base)
		if err == nil {
			c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	cfg, err := pgx.ParseConfig(base)
	if err != nil {
		t.Fatalf("parsing %s: %v", PostgresEnv, trial.RedactError(err, base))
	}
	return fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Password, cfg.Host, cfg.Port, name)
}

// chromiumNames are the names Debian and other distributions give Chromium.
var chromiumNames = []string{"chromium", "chromium-headless-shell", "chromium-browser"}

// Chromium returns the path of a Chromium executable, or reports it
// missing.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Missing(t, "no Chromium on PATH (%s): the browser tests need Debian's chromium", strings.Join(chromiumNames, ", "))
	return ""
}

// pyModules caches PythonModule's answers per module.
var pyModules sync.Map // module name -> pyResult

type pyResult struct {
	version string
	err     error
}

// PythonModule returns the version of a module Python imports, asked in
// isolated mode (-I) from the root directory so that no folder of a source
// tree (this repository has a Go package named optuna) passes for it.
func PythonModule(module string) (version string, err error) {
	if r, ok := pyModules.Load(module); ok {
		return r.(pyResult).version, r.(pyResult).err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, Python, "-I", "-c", "import "+module+" as m; print(m.__version__)")
	cmd.Dir = "/"
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	v := strings.TrimSpace(string(out))
	switch {
	case err != nil:
		err = fmt.Errorf("%s cannot import %s: %v: %s", Python, module, err, lastLine(stderr.String()))
	case v == "":
		err = fmt.Errorf("%s imports a %s without a version (not the real package)", Python, module)
	}
	pyModules.Store(module, pyResult{v, err})
	return v, err
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// Optuna returns Debian's interpreter after checking that it imports the
// real Optuna, or reports python3-optuna missing.
func Optuna(t testing.TB) string {
	t.Helper()
	if _, err := PythonModule("optuna"); err != nil {
		Missing(t, "python3-optuna is not installed: %v", err)
	}
	return Python
}

// Psycopg2 checks that Debian's interpreter imports psycopg2 (Optuna's
// PostgreSQL driver), or reports python3-psycopg2 missing.
func Psycopg2(t testing.TB) {
	t.Helper()
	if _, err := PythonModule("psycopg2"); err != nil {
		Missing(t, "python3-psycopg2 is not installed: %v", err)
	}
}

// SlurmEnv names the variable scripts/deps.sh sets to 1 once the one-node
// test cluster (executor/testdata/ci-slurm.sh) answers.
const SlurmEnv = "PARETO_TEST_SLURM"

// Slurm reports the test cluster missing unless PARETO_TEST_SLURM=1 and
// sbatch is on PATH.
func Slurm(t testing.TB) {
	t.Helper()
	if os.Getenv(SlurmEnv) != "1" {
		Missing(t, "%s is not 1: no Slurm cluster to test against (executor/testdata/ci-slurm.sh starts one)", SlurmEnv)
		return
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		Missing(t, "%s=1 but sbatch is not on PATH: %v", SlurmEnv, err)
	}
}
