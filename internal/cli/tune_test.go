package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/tune"
)

// run runs pareto in-process and returns stdout, failing on an exit
// status other than want.
func runPareto(t *testing.T, want int, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != want {
		t.Fatalf("pareto %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, stdout.String(), stderr.String())
	}
	return stdout.Bytes()
}

const cliSpace = `
[params.max_num_seqs]
values = [64, 128, 256, 512]
default = 256

[params.enable_chunked_prefill]
values = [true, false]
default = true
`

// TestAskTell drives a study from outside with two drivers (lanes): ask
// gives the baseline's runs first, then a candidate's; an ask of a driver
// that holds a run gives it back; tell records --value measurements and
// answers with the gate's verdict once both sides have their runs. Every
// answer validates against its schema.
func TestAskTell(t *testing.T) {
	dir := t.TempDir()
	space := filepath.Join(dir, "space.toml")
	os.WriteFile(space, []byte(cliSpace), 0o644)
	db := filepath.Join(dir, "t.db")
	ask := func(first bool, driver string) tune.AskResult {
		t.Helper()
		args := []string{"ask", "--store", db, "--study", "agent", "--driver", driver}
		if first {
			args = append(args, "--space", space, "-o", "output_token_throughput:max", "-o", "ttft.p99:min", "--budget", "8",
				"--repeats", "2", "--max-runs", "2", "--sampler", "sobol", "--seed", "1")
		}
		out := runPareto(t, 0, args...)
		validateOutput(t, "ask", out)
		var a tune.AskResult
		if err := json.Unmarshal(out, &a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	tell := func(a tune.AskResult, tput, ttft float64) tune.TellResult {
		t.Helper()
		out := runPareto(t, 0, "tell", "--store", db, "--study", "agent", "--driver", a.Driver, "--attempt", fmt.Sprint(a.Attempt), fmt.Sprint(a.Run), "--format", "json",
			"--value", fmt.Sprintf("output_token_throughput=%g", tput), "--value", fmt.Sprintf("ttft.p99=%g", ttft))
		validateOutput(t, "tell", out)
		var r tune.TellResult
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	b1, b2 := ask(true, "ask"), ask(false, "lane-2")
	if b1.Role != "baseline" || b2.Role != "baseline" || b1.Number != -1 || b1.Params["max_num_seqs"].String() != "256" || b1.Run == b2.Run {
		t.Fatalf("first asks %+v %+v: want the baseline twice", b1, b2)
	}
	if again := ask(false, "ask"); again.Run != b1.Run || !again.Resumed || again.Attempt != 1 || b1.Resumed {
		t.Fatalf("ask of a driver holding run %d: %+v, want it back", b1.Run, again)
	}
	if r := tell(b1, 1000, 200); r.Decision != "none" {
		t.Errorf("tell of a baseline run: %+v", r)
	}
	tell(b2, 1010, 201)
	c1, c2 := ask(false, "ask"), ask(false, "lane-2")
	if c1.Role != "candidate" || c1.Number != 0 || c2.Number != 0 || c1.Env["PARETO_TRIAL"] != "0" {
		t.Fatalf("candidate asks %+v %+v", c1, c2)
	}
	if r := tell(c1, 1500, 150); r.Decision != "none" {
		t.Errorf("tell of the first of two runs: %+v", r)
	}
	r := tell(c2, 1510, 151)
	if r.Decision != "admit" || r.Verdict == nil {
		t.Errorf("tell of a clearly better candidate: %+v", r)
	}
	// A run told twice is refused.
	var stderr bytes.Buffer
	if code := Main(context.Background(), []string{"tell", "--store", db, "--study", "agent", fmt.Sprint(c2.Run), "--value", "ttft.p99=1"}, nil, new(bytes.Buffer), &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "is complete") {
		t.Errorf("second tell: exit %d, %s", code, stderr.String())
	}
	out := runPareto(t, 0, "tune", "--status", "--store", db, "--study", "agent", "--format", "json")
	validateOutput(t, "tune-status", out)
	var st tuneStatusJSON
	json.Unmarshal(out, &st)
	if st.Complete != 4 || st.BudgetLeft != 4 || st.Running != 0 || st.Trials != 2 {
		t.Errorf("status %+v", st)
	}
}

// TestTuneSimulator tunes the simulator through the CLI, the test binary
// standing in as pareto on PATH (testscript.Main runs it as pareto), and
// checks the summary and the status against their schemas.
func TestTuneSimulator(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(bin, "pareto")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	space := filepath.Join(dir, "space.toml")
	os.WriteFile(space, []byte(cliSpace), 0o644)
	db := filepath.Join(dir, "t.db")
	out := runPareto(t, 0, "tune", "--store", db, "--study", "sim", "--space", space, "--budget", "16", "--repeats", "2", "--max-runs", "3",
		"--command", "pareto simulate --param max_num_seqs={max_num_seqs} --param enable_chunked_prefill={enable_chunked_prefill} --seed $PARETO_SEED --out result.json",
		"-o", "output_token_throughput:max", "-o", "ttft.p99:min", "--min-improve", "2%", "--sampler", "sobol", "--seed", "2",
		"--work-dir", filepath.Join(dir, "runs"), "--format", "json")
	validateOutput(t, "tune", out)
	var sum struct {
		Complete, Failed int
		Frontier         []int
		Trials           []struct {
			Trial    int
			Role     string
			State    string
			Values   []float64
			Decision string
		}
	}
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Complete != 16 || sum.Failed != 0 || len(sum.Frontier) == 0 || len(sum.Trials) < 3 {
		t.Fatalf("summary %s", out)
	}
	judged := 0
	for _, tr := range sum.Trials {
		if tr.Role == "candidate" && tr.State == "complete" && len(tr.Values) != 2 {
			t.Errorf("candidate %d has values %v", tr.Trial, tr.Values)
		}
		if tr.Decision != "" {
			judged++
		}
	}
	if judged == 0 {
		t.Errorf("the gate judged no candidate: %s", out)
	}
	// The result files are in the runs' folders.
	if m, _ := filepath.Glob(filepath.Join(dir, "runs", "run-*", "result.json")); len(m) != 16 {
		t.Errorf("%d result files, want 16", len(m))
	}
	st := runPareto(t, 0, "tune", "--status", "--store", db, "--study", "sim", "--format", "json")
	validateOutput(t, "tune-status", st)
}

// TestTuneWorkerJoins: a tune creates a study, a pareto tune --worker
// with only the store, the study and a larger budget joins it, with the
// study's space, command and objectives, in its session.
func TestTuneWorkerJoins(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(bin, "pareto")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	space := filepath.Join(dir, "space.toml")
	os.WriteFile(space, []byte(cliSpace), 0o644)
	db := filepath.Join(dir, "t.db")
	runs := filepath.Join(dir, "runs")
	runPareto(t, 0, "tune", "--store", db, "--study", "sim", "--space", space, "--budget", "4", "--repeats", "2",
		"--command", "pareto simulate --param max_num_seqs={max_num_seqs} --seed $PARETO_SEED --out result.json",
		"-o", "output_token_throughput:max", "-o", "ttft.p99:min", "--sampler", "sobol", "--work-dir", runs)
	runPareto(t, 0, "tune", "--worker", "--store", db, "--study", "sim", "--budget", "8", "--work-dir", runs, "--lease", "5s")
	// A worker given another space is refused.
	other := filepath.Join(dir, "other.toml")
	os.WriteFile(other, []byte("[params.max_num_seqs]\nvalues = [1, 2]\ndefault = 1\n"), 0o644)
	var stderr bytes.Buffer
	if code := Main(context.Background(), []string{"tune", "--worker", "--store", db, "--study", "sim", "--space", other}, nil, new(bytes.Buffer), &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "another search space") {
		t.Errorf("worker over another space: exit %d, %s", code, stderr.String())
	}
	if table := string(runPareto(t, 0, "tune", "--status", "--store", db, "--study", "sim")); !strings.Contains(table, "study sim: 8 complete, 0 failed, 0 running, 0 queued; budget 8, 0 left") {
		t.Errorf("--status: %s", table)
	}
	var st tuneStatusJSON
	out := runPareto(t, 0, "tune", "--status", "--store", db, "--study", "sim", "--format", "json")
	validateOutput(t, "tune-status", out)
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatal(err)
	}
	if st.Complete != 8 || st.Failed != 0 || st.Session != 1 || st.BudgetLeft != 0 || len(st.FailedRuns) != 0 {
		t.Errorf("status after the worker %+v: want 8 complete in session 1", st)
	}
}

// TestTuneFlagErrors: bad worker and executor flags are refused with
// the flag named, before anything is run.
func TestTuneFlagErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	space := filepath.Join(dir, "space.toml")
	os.WriteFile(space, []byte(cliSpace), 0o644)
	base := []string{"tune", "--store", db, "--study", "s", "--space", space, "--command", "true", "--budget", "2", "-o", "ttft.p99:min"}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"executor", append(base, "--executor", "kubernetes"), 2, "--executor must be local or slurm"},
		{"partition without slurm", append(base, "--partition", "gpu"), 2, "need --executor slurm"},
		{"negative nodes", append(base, "--executor", "slurm", "--nodes", "-1"), 2, "--nodes"},
		{"gpu option", append(base, "--executor", "slurm", "--gpu-option", "mig"), 2, "--gpu-option must be"},
		{"short lease", append(base, "--lease", "10ms"), 2, "--lease"},
		// A study is resumed from the store alone; one that does not exist
		// needs what creates it.
		{"worker of no study", []string{"tune", "--worker", "--store", db, "--study", "none"}, 2, "study none has no tuning state yet: give --space"},
		{"no space, no study", []string{"tune", "--store", db, "--study", "s", "--command", "true", "--budget", "2"}, 2, "give --space, --command, --budget and -o"},
		{"objectives without space", []string{"tune", "--store", db, "--study", "s", "--command", "true", "--budget", "2", "-o", "ttft.p99:min"}, 2, "--space is required"},
		{"budget 0", append(base, "--budget", "0"), 2, "--budget must be at least 1, not 0"},
		{"negative budget", append(base, "--budget", "-3"), 2, "--budget must be at least 1, not -3"},
		{"max attempts 0", append(base, "--max-attempts", "0"), 2, "--max-attempts must be at least 1"},
		{"pass-env name", append(base, "--pass-env", "1X"), 2, `--pass-env "1X" is not an environment variable name`},
		{"pass-env unset", append(base, "--study", "unset", "--pass-env", "PARETO_TEST_UNSET_VAR"), 1, "--pass-env PARETO_TEST_UNSET_VAR: PARETO_TEST_UNSET_VAR is not set"},
		{"placeholder in quotes", append(base, "--study", "quoted", "--command", `run "{max_num_seqs}"`), 2, "--command:1:6: {max_num_seqs} is inside double quotes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), c.args, strings.NewReader(""), &stdout, &stderr)
			if code != c.code || !strings.Contains(stderr.String(), c.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr.String(), c.code, c.want)
			}
		})
	}
}

// TestTuneReadmeFlags: every flag docs/TUNING.md's "Many workers on one
// study" and docs/SLURM.md give pareto tune (its command lines and the
// Slurm flag table) is a flag of pareto tune.
func TestTuneReadmeFlags(t *testing.T) {
	flags := newTuneCmd(&env{}).Flags()
	flagRE := regexp.MustCompile(`--[a-z][a-z-]*`)
	checked := 0
	for _, sect := range []struct{ file, title string }{
		{"TUNING.md", "## Many workers on one study"},
		{"SLURM.md", "# Running trials on a Slurm cluster"},
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", sect.file))
		if err != nil {
			t.Fatal(err)
		}
		title := sect.title
		_, sec, ok := strings.Cut(string(b), title+"\n")
		if !ok {
			t.Fatalf("docs/%s has no section %q", sect.file, title)
		}
		sec, _, _ = strings.Cut(sec, "\n## ")
		cont := false
		for _, line := range strings.Split(sec, "\n") {
			var text string
			switch {
			case strings.HasPrefix(line, "pareto tune") || cont:
				text = line
			case strings.HasPrefix(line, "| `--"):
				text, _, _ = strings.Cut(line[1:], "|")
			}
			cont = strings.HasSuffix(line, `\`) && (cont || strings.HasPrefix(line, "pareto tune"))
			for _, f := range flagRE.FindAllString(text, -1) {
				checked++
				if flags.Lookup(f[2:]) == nil {
					t.Errorf("docs %s: pareto tune has no flag %s (%s)", title, f, line)
				}
			}
		}
	}
	if checked < 15 {
		t.Errorf("only %d flags found in the docs' sections", checked)
	}
}
