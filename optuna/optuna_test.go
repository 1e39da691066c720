package optuna

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/trial"
)

// makeStudy runs testdata/make_study.py against storage and returns the
// number of complete trials and the feasible strict front it computed.
func makeStudy(t *testing.T, storage string) (complete int, front []int) {
	t.Helper()
	python := testenv.Optuna(t)
	// Isolated (-I): the script's folder, not the working directory (this
	// package, named optuna), is on sys.path.
	cmd := exec.Command(python, "-I", "-W", "ignore", filepath.Join("testdata", "make_study.py"), storage, "serving")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("make_study.py: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		t.Fatalf("make_study.py printed %q", out)
	}
	complete, _ = strconv.Atoi(strings.Fields(lines[0])[0])
	for _, f := range strings.Fields(lines[1]) {
		n, _ := strconv.Atoi(f)
		front = append(front, n)
	}
	return complete, front
}

// problem builds the frontier problem of the study's objectives and SLOs.
func problem(st *Study, noise float64) *frontier.Problem {
	p := &frontier.Problem{Objectives: st.Objectives(), SLOs: st.SLOs()}
	for i := range p.Objectives {
		p.Objectives[i].Noise = noise
	}
	column := func(name string) []float64 {
		sel, _ := trial.ParseSelector(name)
		col := make([]float64, len(st.Trials))
		for r := range st.Trials {
			m, err := sel.Resolve(&st.Trials[r])
			col[r] = m.Value
			if err != nil {
				col[r] = frontier.Missing
			}
		}
		return col
	}
	for _, o := range p.Objectives {
		p.Values = append(p.Values, column(o.Name))
	}
	for _, s := range p.SLOs {
		p.SLOValues = append(p.SLOValues, column(s.Name))
	}
	return p
}

func frontNumbers(st *Study, res frontier.Result) []int {
	var out []int
	for _, m := range res.Frontier {
		n, _ := strconv.Atoi(st.Trials[m.Row].Labels["optuna_trial"])
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func TestReadSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "optuna.db")
	complete, want := makeStudy(t, "sqlite:///"+path)
	st, err := Read(context.Background(), path, "serving")
	if err != nil {
		t.Fatal(err)
	}
	checkStudy(t, st, complete, want)
	if names, err := Studies(context.Background(), "sqlite:///"+path); err != nil || !slices.Equal(names, []string{"serving"}) {
		t.Errorf("Studies = %v, %v; want [serving]", names, err)
	}
	if _, err := Read(context.Background(), path, "nope"); err == nil || !strings.Contains(err.Error(), "no such Optuna study") {
		t.Errorf("Read(missing study) = %v", err)
	}
}

func checkStudy(t *testing.T, st *Study, complete int, want []int) {
	t.Helper()
	if len(st.Trials) != complete {
		t.Errorf("%d trials; want the %d complete ones", len(st.Trials), complete)
	}
	if !slices.Equal(st.Metrics, []string{"ttft_p99_ms", "output_tokens_per_s"}) ||
		!slices.Equal(st.Directions, []frontier.Direction{frontier.Minimize, frontier.Maximize}) || st.Constraints != 1 {
		t.Errorf("metrics %v, directions %v, %d constraints", st.Metrics, st.Directions, st.Constraints)
	}
	t0 := st.Trials[0]
	for _, k := range []string{"tensor_parallel_size", "concurrency", "gpu_memory_utilization", "engine"} {
		if t0.Params[k] == "" {
			t.Errorf("trial 0 lacks param %s: %v", k, t0.Params)
		}
	}
	if t0.Labels["engine_version"] == "" || t0.Labels[trial.LabelTool] != "optuna" {
		t.Errorf("trial 0 labels %v", t0.Labels)
	}
	strict, err := frontier.Analyze(problem(st, 0))
	if err != nil {
		t.Fatal(err)
	}
	if got := frontNumbers(st, strict); !slices.Equal(got, want) {
		t.Errorf("strict feasible front = %v; Optuna study's own = %v", got, want)
	}
	noisy, err := frontier.Analyze(problem(st, 0.05))
	if err != nil {
		t.Fatal(err)
	}
	if len(noisy.Frontier) == 0 || len(noisy.Frontier)+len(noisy.Dominated)+len(noisy.Infeasible)+len(noisy.Invalid) != len(st.Trials) {
		t.Errorf("noise-aware analysis lost rows: %+v", noisy)
	}
	t.Logf("%d trials: strict front %v, noise-aware front %v, %d infeasible",
		len(st.Trials), want, frontNumbers(st, noisy), len(noisy.Infeasible))
}

func TestReadPostgres(t *testing.T) {
	base := testenv.PostgresURL(t)
	testenv.Psycopg2(t)
	url := freshDB(t, base)
	complete, want := makeStudy(t, strings.Replace(url, "postgres://", "postgresql+psycopg2://", 1))
	st, err := Read(context.Background(), url, "serving")
	if err != nil {
		t.Fatal(err)
	}
	checkStudy(t, st, complete, want)
	// The same seeded study read from SQLite has the same trial IDs.
	path := filepath.Join(t.TempDir(), "optuna.db")
	makeStudy(t, "sqlite:///"+path)
	lite, err := Read(context.Background(), path, "serving")
	if err != nil {
		t.Fatal(err)
	}
	for i := range min(len(lite.Trials), len(st.Trials)) {
		if lite.Trials[i].ID != st.Trials[i].ID {
			t.Errorf("trial %d: ID %s from SQLite, %s from PostgreSQL", i, lite.Trials[i].ID, st.Trials[i].ID)
		}
	}
}

// freshDB creates an empty database for the test and drops it after.
func freshDB(t *testing.T, base string) string {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("pareto_optuna_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, err := pgx.Connect(ctx, base); err == nil {
			c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	cfg := conn.Config()
	return fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Password, cfg.Host, cfg.Port, name)
}
