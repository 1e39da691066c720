package tune_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/executor"
	"github.com/pareto-llm/pareto/internal/realbench"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
	"github.com/pareto-llm/pareto/tune"
)

// TestMain makes the test binary the --command of the runs of the tests
// on real outputs: with REALBENCH_FORMAT set it writes what that
// benchmark client leaves in the run's folder (realbench.Main) and exits.
func TestMain(m *testing.M) {
	if os.Getenv("REALBENCH_FORMAT") != "" {
		os.Exit(realbench.Main(os.Getenv, os.Stderr))
	}
	os.Exit(m.Run())
}

// realCommand is the --command of a run that writes format's real result
// with the model's numbers (and the logs, telemetry and per-request files
// beside it); sweep, when set, is REALBENCH_SWEEP.
func realCommand(t *testing.T, format, sweep string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := "REALBENCH_FORMAT=" + format
	if sweep != "" {
		cmd += " REALBENCH_SWEEP=" + sweep
	}
	return cmd + " " + executor.ShellQuote(self)
}

// simulateCommand is the --command of a run on pareto simulate's output,
// seeded by the run's PARETO_SEED as realbench is: one result, or one per
// concurrency of sweep (in folders cN, as realbench writes them).
func simulateCommand(bin, sweep string) string {
	one := func(extra, out string) string {
		return executor.ShellQuote(filepath.Join(bin, "pareto")) + " simulate --param max_num_seqs=\"$PARETO_PARAM_MAX_NUM_SEQS\"" +
			" --param enable_chunked_prefill=\"$PARETO_PARAM_ENABLE_CHUNKED_PREFILL\" --param max_num_batched_tokens=\"$PARETO_PARAM_MAX_NUM_BATCHED_TOKENS\"" +
			extra + " --seed \"$PARETO_SEED\" --out " + out
	}
	if sweep == "" {
		return one("", "result.json")
	}
	var parts []string
	for _, c := range strings.Split(sweep, ",") {
		parts = append(parts, one(" --param concurrency="+c, "c"+c+"/result.json"))
	}
	return strings.Join(parts, " && ")
}

// realSpace is the space of the tests on real outputs: the baseline
// (chunked prefill, a 2048-token budget) is beaten on both objectives by
// an 8192-token budget (the median TTFT) or a 512-token one (the median
// end-to-end latency) in the simulator's model; without chunked prefill
// a 512-token budget does not start (the run fails).
const realSpace = `
[params.max_num_seqs]
values = [32, 64, 256]
default = 256

[params.enable_chunked_prefill]
values = [true, false]
default = true

[params.max_num_batched_tokens]
values = [512, 2048, 8192]
default = 2048
`

// tuneSummary is pareto tune --format json's output.
type tuneSummary struct {
	Complete int   `json:"complete"`
	Failed   int   `json:"failed"`
	Frontier []int `json:"frontier"`
	Trials   []struct {
		Number   int            `json:"trial"`
		Role     string         `json:"role"`
		Params   map[string]any `json:"params"`
		State    string         `json:"state"`
		Values   []float64      `json:"values"`
		Decision string         `json:"decision"`
		Reasons  []string       `json:"reasons"`
	} `json:"trials"`
}

// tuneStudy runs pareto tune on a fresh SQLite store with command and
// returns its summary, its standard error and the store's location.
func tuneStudy(t *testing.T, bin, command, latency string) (tuneSummary, string, string) {
	t.Helper()
	loc := filepath.Join(t.TempDir(), "t.db")
	s, stderr := tuneOn(t, bin, loc, command, latency)
	return s, stderr, loc
}

// tuneOn runs pareto tune of study s at loc with command (and extra
// flags) and returns its summary and its standard error.
func tuneOn(t *testing.T, bin, loc, command, latency string, extra ...string) (tuneSummary, string) {
	t.Helper()
	dir := t.TempDir()
	space := filepath.Join(dir, "space.toml")
	if err := os.WriteFile(space, []byte(realSpace), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"tune", "--store", loc, "--study", "s", "--space", space, "--command", command,
		"--budget", "18", "--repeats", "2", "--max-runs", "4", "-o", "output_token_throughput:max", "-o", latency + ":min",
		"--sampler", "sobol", "--seed", "3", "--work-dir", filepath.Join(dir, "runs"), "--format", "json"}
	cmd := exec.Command(filepath.Join(bin, "pareto"), append(args, extra...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pareto tune: %v\n%s", err, stderr.String())
	}
	var s tuneSummary
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("pareto tune's output: %v\n%s", err, out)
	}
	return s, stderr.String()
}

// TestTuneRealOutputs: pareto tune on commands that write the real result
// files of vllm bench serve, SGLang's bench_serving, AIPerf and guidellm
// (no server settings in them, a server log, an nvidia-smi CSV and, for
// AIPerf, its per-request records and inputs beside them), their numbers
// the simulator's model of the run's configuration, reaches the verdicts
// and the frontier of pareto tune on pareto simulate's output with the
// same seed: the same configurations, the same decision for each, the
// same frontier; with the objectives' values the simulator's (guidellm's
// first benchmark has them, its second keeps its ratio to the first, so
// its values differ and its decisions may not). A vLLM sweep over two
// concurrencies is one configuration on two workloads, judged per
// workload as the simulator's sweep is.
func TestTuneRealOutputs(t *testing.T) {
	bin := buildPareto(t)
	refs := map[string]tuneSummary{}
	reference := func(t *testing.T, latency, sweep string) tuneSummary {
		key := latency + "/" + sweep
		if s, ok := refs[key]; ok {
			return s
		}
		s := simulatorStudy(t, bin, latency, sweep)
		refs[key] = s
		return s
	}
	for _, tt := range []struct {
		name, format, latency, sweep string
		exact                        bool // the objectives are the simulator's numbers
		workloads                    int  // the trials of a run
	}{
		{"vllm", "vllm", "ttft.p50", "", true, 1},
		{"sglang", "sglang", "ttft.p50", "", true, 1},
		{"aiperf", "aiperf", "e2el.p50", "", true, 1},
		{"guidellm", "guidellm", "ttft.p50", "", false, 2}, // two request rates
		{"vllm-sweep", "vllm", "ttft.p50", "16,64", true, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ref := reference(t, tt.latency, tt.sweep)
			got, stderr, loc := tuneStudy(t, bin, realCommand(t, tt.format, tt.sweep), tt.latency)
			if got.Complete != ref.Complete || got.Failed != ref.Failed {
				t.Errorf("%d runs complete, %d failed; the simulator's study %d and %d\n%s", got.Complete, got.Failed, ref.Complete, ref.Failed, stderr)
			}
			compareStudies(t, got, ref, tt.exact)
			if strings.Contains(stderr, "records") {
				t.Errorf("warnings of recorded parameters, though the files record no server settings:\n%s", stderr)
			}
			var reasons []string
			for _, g := range got.Trials {
				reasons = append(reasons, g.Reasons...)
			}
			if text := strings.Join(reasons, "\n"); strings.Contains(text, "holds") || strings.Contains(text, "baseline configuration") {
				t.Errorf("the gate could not tell the configurations apart:\n%s", text)
			}
			checkRuns(t, loc, tt.workloads, got.Complete)
			if tt.sweep != "" {
				// Both workloads are judged: verdicts name each.
				for _, c := range strings.Split(tt.sweep, ",") {
					if !strings.Contains(strings.Join(reasons, "\n"), "concurrency="+c+" ") {
						t.Errorf("no verdict names the workload concurrency=%s:\n%s", c, strings.Join(reasons, "\n"))
					}
				}
			}
		})
	}
}

// simulatorStudy is the reference: pareto tune on pareto simulate's
// output, which must admit and reject some configurations.
func simulatorStudy(t *testing.T, bin, latency, sweep string) tuneSummary {
	t.Helper()
	s, stderr, _ := tuneStudy(t, bin, simulateCommand(bin, sweep), latency)
	if strings.Contains(stderr, "records") {
		t.Errorf("the simulator's study warned of parameters its files record:\n%s", stderr)
	}
	decided := map[string]int{}
	for _, tr := range s.Trials {
		decided[tr.Decision]++
	}
	if decided["admit"] == 0 || decided["reject"] == 0 || len(s.Frontier) == 0 {
		t.Fatalf("the simulator's study (%s, sweep %q) admitted %d and rejected %d, frontier %v: a weak reference",
			latency, sweep, decided["admit"], decided["reject"], s.Frontier)
	}
	t.Logf("simulator (%s, sweep %q): %d runs complete, %d failed; decisions %v; frontier %v", latency, sweep, s.Complete, s.Failed, decided, s.Frontier)
	return s
}

// compareStudies checks that got has ref's configurations, decisions and
// frontier (and, when exact, its values).
func compareStudies(t *testing.T, got, ref tuneSummary, exact bool) {
	t.Helper()
	if len(got.Trials) != len(ref.Trials) {
		t.Fatalf("%d configurations, the simulator's study %d", len(got.Trials), len(ref.Trials))
	}
	for i, g := range got.Trials {
		w := ref.Trials[i]
		if g.Number != w.Number || !sameParams(g.Params, w.Params) {
			t.Errorf("configuration %d: %v, the simulator's %d: %v", g.Number, g.Params, w.Number, w.Params)
			continue
		}
		if g.Decision != w.Decision {
			t.Errorf("configuration %d %v: decision %q (%v), the simulator's %q (%v)", g.Number, g.Params, g.Decision, g.Reasons, w.Decision, w.Reasons)
		}
		if exact && !sameValues(g.Values, w.Values) {
			t.Errorf("configuration %d: values %v, the simulator's %v", g.Number, g.Values, w.Values)
		}
	}
	if !slices.Equal(got.Frontier, ref.Frontier) {
		t.Errorf("frontier %v, the simulator's %v", got.Frontier, ref.Frontier)
	}
}

// TestAskTellRealOutputs: an external driver that asks for runs, runs
// the real-output command itself in a folder of its own and tells pareto
// the folder (read as pareto ingest reads it) reaches the verdicts and
// the frontier of pareto tune on pareto simulate's output.
func TestAskTellRealOutputs(t *testing.T) {
	bin := buildPareto(t)
	ref := simulatorStudy(t, bin, "ttft.p50", "")
	dir := t.TempDir()
	space := filepath.Join(dir, "space.toml")
	if err := os.WriteFile(space, []byte(realSpace), 0o644); err != nil {
		t.Fatal(err)
	}
	loc := filepath.Join(dir, "t.db")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pareto := func(args ...string) ([]byte, string, error) {
		cmd := exec.Command(filepath.Join(bin, "pareto"), args...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		return out, stderr.String(), err
	}
	for n := 0; ; n++ {
		if n > 40 {
			t.Fatal("ask gave more than 40 runs for a budget of 18")
		}
		out, stderr, err := pareto("ask", "--store", loc, "--study", "s", "--space", space, "-o", "output_token_throughput:max",
			"-o", "ttft.p50:min", "--budget", "18", "--repeats", "2", "--max-runs", "4", "--sampler", "sobol", "--seed", "3")
		if err != nil {
			if strings.Contains(stderr, "budget") {
				break
			}
			t.Fatalf("pareto ask: %v\n%s", err, stderr)
		}
		var a tune.AskResult
		if err := json.Unmarshal(out, &a); err != nil {
			t.Fatalf("pareto ask's output: %v\n%s", err, out)
		}
		id := strconv.FormatInt(a.Run, 10)
		runDir := filepath.Join(dir, "runs", "run-"+id)
		if err := os.MkdirAll(runDir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(self)
		cmd.Dir = runDir
		cmd.Env = append(os.Environ(), "REALBENCH_FORMAT=vllm")
		for k, v := range a.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		tell := []string{"tell", "--store", loc, "--study", "s", id, runDir, "--format", "json"}
		if msg, err := cmd.CombinedOutput(); err != nil {
			tell = []string{"tell", "--store", loc, "--study", "s", id, "--failed", strings.TrimSpace(string(msg))}
		}
		out, stderr, err = pareto(tell...)
		if err != nil {
			t.Fatalf("pareto tell: %v\n%s", err, stderr)
		}
		if strings.Contains(stderr, "warning") || strings.Contains(string(out), "mismatches") {
			t.Errorf("pareto tell warned of parameters the file records:\n%s%s", out, stderr)
		}
	}
	ctx := context.Background()
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tu, err := tune.OpenExisting(ctx, st, "s")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := tu.Summarize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]any{"complete": sum.Status.Complete, "failed": sum.Status.Failed, "frontier": sum.Frontier, "trials": sum.Trials})
	if err != nil {
		t.Fatal(err)
	}
	var got tuneSummary
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Complete != ref.Complete || got.Failed != ref.Failed {
		t.Errorf("%d runs complete, %d failed; the simulator's study %d and %d", got.Complete, got.Failed, ref.Complete, ref.Failed)
	}
	compareStudies(t, got, ref, true)
	checkRuns(t, loc, 1, got.Complete)
}

func sameParams(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v != w {
			return false
		}
	}
	return true
}

func sameValues(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9*math.Abs(b[i]) {
			return false
		}
	}
	return true
}

// checkRuns checks the trials each complete run recorded: one per
// workload (want of them), all of the run's configuration, none from the
// logs, telemetry or per-request files beside the results.
func checkRuns(t *testing.T, loc string, want, complete int) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ts, err := st.Trials(ctx, "s", store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	byRun := map[string][]trial.Trial{}
	for _, tr := range ts {
		byRun[tr.Labels[tune.LabelRun]] = append(byRun[tr.Labels[tune.LabelRun]], tr)
	}
	if len(byRun) != complete {
		t.Errorf("%d runs recorded trials, %d are complete", len(byRun), complete)
	}
	for run, trs := range byRun {
		if len(trs) != want {
			t.Errorf("run %s recorded %d trials, want %d (one per workload)", run, len(trs), want)
			continue
		}
		workloads := map[string]bool{}
		for _, tr := range trs {
			workloads[repeat.WorkloadOf(&tr).String()] = true
			if repeat.Config(&tr, nil) != repeat.Config(&trs[0], nil) || tr.Params["max_num_seqs"] == "" {
				t.Errorf("run %s: configurations %v and %v", run, tr.Params, trs[0].Params)
			}
			if strings.Contains(tr.Source.Path, "nvidia-smi") || strings.Contains(tr.Source.Path, "server.log") ||
				strings.Contains(tr.Source.Path, "profile_export.jsonl") || strings.Contains(tr.Source.Path, "inputs.json") {
				t.Errorf("run %s: a trial read from %s", run, tr.Source.Path)
			}
		}
		if len(workloads) != want {
			t.Errorf("run %s: workloads %v, want %d", run, workloads, want)
		}
	}
}

// TestTuneRealOutputsElsewhere: the same study on PostgreSQL, and with its
// runs as Slurm jobs, reaches the simulator's verdicts; two workers
// sharing a PostgreSQL study record every run of the budget, one trial
// per result, and judge every candidate (their order of runs, and so the
// sampler's proposals after the first verdicts, depend on timing).
func TestTuneRealOutputsElsewhere(t *testing.T) {
	bin := buildPareto(t)
	t.Run("postgres", func(t *testing.T) {
		loc := freshPostgres(t)
		ref := simulatorStudy(t, bin, "ttft.p50", "")
		got, stderr := tuneOn(t, bin, loc, realCommand(t, "sglang", ""), "ttft.p50")
		if got.Complete != ref.Complete || got.Failed != ref.Failed {
			t.Errorf("%d runs complete, %d failed; the simulator's study %d and %d\n%s", got.Complete, got.Failed, ref.Complete, ref.Failed, stderr)
		}
		compareStudies(t, got, ref, true)
		checkRuns(t, loc, 1, got.Complete)
	})
	t.Run("slurm", func(t *testing.T) {
		testenv.Slurm(t)
		ref := simulatorStudy(t, bin, "e2el.p50", "")
		loc := filepath.Join(t.TempDir(), "t.db")
		got, stderr := tuneOn(t, bin, loc, realCommand(t, "aiperf", ""), "e2el.p50", "--executor", "slurm", "--slurm-poll", "1s", "--time-limit", "5m")
		if got.Complete != ref.Complete || got.Failed != ref.Failed {
			t.Errorf("%d runs complete, %d failed; the simulator's study %d and %d\n%s", got.Complete, got.Failed, ref.Complete, ref.Failed, stderr)
		}
		compareStudies(t, got, ref, true)
		checkRuns(t, loc, 1, got.Complete)
	})
	t.Run("workers", func(t *testing.T) {
		loc := freshPostgres(t)
		dir := t.TempDir()
		space := filepath.Join(dir, "space.toml")
		if err := os.WriteFile(space, []byte(realSpace), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"tune", "--worker", "--store", loc, "--study", "s", "--space", space, "--command", realCommand(t, "guidellm", ""),
			"--budget", "18", "--repeats", "2", "--max-runs", "4", "-o", "output_token_throughput:max", "-o", "ttft.p50:min",
			"--sampler", "sobol", "--seed", "3", "--lease", "5s", "--format", "json"}
		errs := make(chan error, 2)
		outs := make([]strings.Builder, 2)
		for i := range 2 {
			cmd := exec.Command(filepath.Join(bin, "pareto"), append(args, "--work-dir", filepath.Join(dir, "w"+strconv.Itoa(i)))...)
			cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { errs <- cmd.Wait() }()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Errorf("a worker: %v\n%s\n%s", err, outs[0].String(), outs[1].String())
			}
		}
		out, err := exec.Command(filepath.Join(bin, "pareto"), "tune", "--status", "--store", loc, "--study", "s", "--format", "json").Output()
		if err != nil {
			t.Fatal(err)
		}
		var st struct{ Complete, Failed, Queued, Running, Budget int }
		if err := json.Unmarshal(out, &st); err != nil {
			t.Fatal(err)
		}
		if st.Complete+st.Failed != 18 || st.Queued+st.Running != 0 {
			t.Errorf("status %s: want the 18 runs of the budget ended", out)
		}
		checkRuns(t, loc, 2, st.Complete)
		ctx := context.Background()
		s, err := store.Open(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		tu, err := tune.OpenExisting(ctx, s, "s")
		if err != nil {
			t.Fatal(err)
		}
		sum, err := tu.Summarize(ctx)
		if err != nil {
			t.Fatal(err)
		}
		decided := 0
		for _, tr := range sum.Trials {
			switch {
			case tr.Role == tune.RoleBaseline:
			case tr.Decision == "admit" || tr.Decision == "reject" || tr.Decision == "inconclusive":
				decided++
			case tr.State == "failed" || tr.Decision == "" && tr.State == "running":
			default:
				t.Errorf("configuration %d: %s %q %v", tr.Number, tr.State, tr.Decision, tr.Reasons)
			}
		}
		if decided == 0 {
			t.Errorf("no candidate judged: %+v", sum.Trials)
		}
	})
}
