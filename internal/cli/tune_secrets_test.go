package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneSecrets plants secrets in a tune's --command (a secret
// variable's value, a token recognisable by its format, a bearer token),
// in its environment (a --pass-env token, the store's settings
// PARETO_STORE and PGPASSWORD) and, through them, in a run's stderr (the
// failure reason quotes its last line) and in the label of the result
// files; then looks for every secret in the SQLite store's bytes, tune's
// output and log, tune --status (table and JSON), trials (JSONL and CSV)
// and a report --study page: none is there. The warning names
// --pass-env; a worker refuses the command the study kept without its
// secret.
func TestTuneSecrets(t *testing.T) {
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
	p := &planted{t: t, names: map[string]string{}}
	hfToken := p.secret("--command HF_TOKEN=…")
	formatted := "hf_" + p.secret("--command, a token by its format (NOTE=hf_…)") + strings.Repeat("q", 16)
	p.secrets = append(p.secrets, formatted)
	p.names[formatted] = "--command, the whole hf_ token"
	bearer := p.secret("--command Authorization: Bearer …")
	apiToken := p.secret("environment API_TOKEN (--pass-env), echoed raw to stderr and into the label")
	pgPassword := p.secret("environment PGPASSWORD")
	storePassword := p.secret("environment PARETO_STORE's password")
	t.Setenv("API_TOKEN", apiToken)
	t.Setenv("PGPASSWORD", pgPassword)
	t.Setenv("PARETO_STORE", "postgres://u:"+storePassword+"@127.0.0.1:1/none")

	// Trial 0 (the first candidate) fails, its stderr's last line quoting
	// every secret the run can see; the other runs write the simulator's
	// result, its label holding the pass-env token.
	command := `HF_TOKEN=` + hfToken + ` NOTE=` + formatted + ` AUTH='Authorization: Bearer ` + bearer + `'; export HF_TOKEN NOTE AUTH; ` +
		`if [ "$PARETO_TRIAL" = 0 ]; then echo "failed: pg=$PGPASSWORD store=$PARETO_STORE tok $API_TOKEN HF_TOKEN=$HF_TOKEN $AUTH note $NOTE" >&2; exit 3; fi; ` +
		`pareto simulate --param max_num_seqs={max_num_seqs} --param enable_chunked_prefill={enable_chunked_prefill} --seed $PARETO_SEED --out result.json && ` +
		`sed -i "s/\"simulated\"/\"simulated $API_TOKEN\"/" result.json`
	space := filepath.Join(dir, "space.toml")
	os.WriteFile(space, []byte(cliSpace), 0o644)
	db := filepath.Join(dir, "t.db")
	runs := filepath.Join(dir, "runs")
	stdout, stderr, code := runMain("tune", "--store", db, "--study", "s", "--space", space, "--budget", "8", "--repeats", "2",
		"--command", command, "--pass-env", "API_TOKEN", "-o", "output_token_throughput:max", "-o", "ttft.p99:min",
		"--sampler", "sobol", "--seed", "2", "--work-dir", runs, "--format", "json")
	if code != 0 {
		t.Fatalf("tune: exit %d\n%s\n%s", code, stdout, stderr)
	}
	p.check("tune's summary", stdout)
	p.check("tune's log", stderr)
	if !strings.Contains(stderr, "--command holds a secret") || !strings.Contains(stderr, "--pass-env HF_TOKEN") {
		t.Errorf("tune's stderr has no warning naming --pass-env HF_TOKEN:\n%s", stderr)
	}
	// The runs did see the secrets they were given, and not the store's.
	b, _ := os.ReadFile(filepath.Join(runs, "run-3", "stderr.log"))
	if failed := string(b); !strings.Contains(failed, apiToken) || !strings.Contains(failed, hfToken) ||
		strings.Contains(failed, pgPassword) || strings.Contains(failed, storePassword) {
		t.Errorf("run 3's stderr %q: want the --pass-env and command secrets, not the store's", failed)
	}

	var surfaces []string
	status, _, _ := runMain("tune", "--status", "--store", db, "--study", "s")
	statusJSON, _, _ := runMain("tune", "--status", "--store", db, "--study", "s", "--format", "json")
	jsonl, _, _ := runMain("trials", "--store", db, "--study", "s")
	csv, _, _ := runMain("trials", "--store", db, "--study", "s", "--format", "csv")
	page := filepath.Join(dir, "page.html")
	if out, errs, code := runMain("report", "--store", db, "--study", "s", "-x", "ttft.p99", "-y", "output_token_throughput", "--out", page); code != 0 {
		t.Fatalf("report: exit %d\n%s%s", code, out, errs)
	}
	html, _ := os.ReadFile(page)
	p.check("tune --status", status)
	p.check("tune --status --format json", statusJSON)
	p.check("trials", jsonl)
	p.check("trials --format csv", csv)
	p.check("report --study", string(html))
	surfaces = append(surfaces, status, statusJSON, jsonl, csv, string(html))
	files, _ := filepath.Glob(db + "*") // the database, its WAL and shared memory
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p.check(filepath.Base(f)+" (the store's bytes)", string(b))
	}
	if len(files) == 0 {
		t.Fatal("no store file")
	}

	// The failure reason and the label are there, redacted.
	var st tuneStatusJSON
	if err := json.Unmarshal([]byte(statusJSON), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.FailedRuns) == 0 || !hasMarker(st.FailedRuns[0].Reason) || !strings.Contains(st.FailedRuns[0].Reason, "failed: pg= store= tok") {
		t.Errorf("failed runs %+v: want trial 0's reason, redacted, with the store's variables empty", st.FailedRuns)
	}
	if !strings.Contains(jsonl, "simulated "+"<redacted>") && !strings.Contains(jsonl, `simulated \u003credacted\u003e`) {
		t.Errorf("trials: no label \"simulated <redacted>\":\n%.600s", jsonl)
	}

	// A worker given no --command refuses the one the study kept without
	// its secret, and says what to do.
	_, werr, wcode := runMain("tune", "--worker", "--store", db, "--study", "s", "--budget", "10", "--work-dir", runs)
	if wcode == 0 || !strings.Contains(werr, "<redacted>") || !strings.Contains(werr, "--pass-env") {
		t.Errorf("worker on the kept command: exit %d, %s", wcode, werr)
	}
	p.check("the worker's error", werr)
	t.Logf("%d secrets × %d surfaces and %d store files checked", len(p.secrets), len(surfaces)+2, len(files))
}
