package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/store"
)

// The gate's acceptance loop of issue 13 through the command line: a
// seeded driver writes SGLang result files with log-normal run-to-run
// noise, records the baseline with pareto ingest, asks pareto gate
// about each candidate, and runs the repeats its more_runs answer asks
// for (candidate runs through gate, baseline runs through ingest in the
// baseline's session) until a decision or --max-runs. Main runs
// in-process on a real SQLite store.

// loopCV is the run-to-run noise: CV 1.5% throughput, 4% p99 TTFT.
var loopCV = [2]float64{0.015, 0.04}

// loopMinImprove are the minimum improvements (and noise bands) of
// throughput and p99 TTFT.
var loopMinImprove = [2]float64{0.03, 0.05}

type cliLoop struct {
	t     *testing.T
	dir   string
	rng   *rand.Rand
	files int
	calls int
}

// write writes n runs of configuration seqs (its max_num_seqs) whose
// true values are truth (throughput, p99 TTFT) to a new result file.
func (l *cliLoop) write(tag string, seqs int, truth [2]float64, n int) string {
	l.files++
	var b strings.Builder
	for range n {
		var v [2]float64
		for i := range v {
			s := math.Sqrt(math.Log1p(loopCV[i] * loopCV[i]))
			v[i] = truth[i] * math.Exp(s*l.rng.NormFloat64()-s*s/2)
		}
		fmt.Fprintf(&b, `{"tag":%q,"backend":"sglang","dataset_name":"random","max_concurrency":8,"random_input_len":1024,"random_output_len":256,"server_info":{"version":"0.5.6"},"max_num_seqs":%d,"duration":120.0,"completed":600,"output_throughput":%.3f,"p99_ttft_ms":%.3f,"median_tpot_ms":10.0}`+"\n",
			tag, seqs, v[0], v[1])
	}
	path := filepath.Join(l.dir, fmt.Sprintf("%s-%d.jsonl", tag, l.files))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		l.t.Fatal(err)
	}
	return path
}

// main runs pareto with args and returns its exit status and stdout.
func (l *cliLoop) main(args ...string) (int, []byte) {
	l.t.Helper()
	l.calls++
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	if code == exitUsage || code == 1 && !bytes.Contains(stdout.Bytes(), []byte(`"decision"`)) {
		l.t.Fatalf("pareto %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
	return code, stdout.Bytes()
}

// ingestBaseline records n baseline runs at truth in session base.
func (l *cliLoop) ingestBaseline(truth [2]float64, n int) {
	l.main("ingest", l.write("baseline", 64, truth, n), "--store", filepath.Join(l.dir, "s.db"), "--study", "loop",
		"--label", "role=baseline", "--session", "base")
}

// judge gates candidate k (max_num_seqs 1000+k, true values truth) from 3
// runs, running what more_runs asks for; it returns the verdict and the
// candidate's runs.
func (l *cliLoop) judge(k int, truth, baseTruth [2]float64) (decide.Verdict, int) {
	add, n := 3, 0
	for {
		code, out := l.main("gate", "--store", filepath.Join(l.dir, "s.db"), "--study", "loop",
			"--candidate", l.write("try", 1000+k, truth, add), "--baseline", "role=baseline",
			"-o", "output_token_throughput:max", "-o", "ttft.p99:min",
			"--min-improve", "output_token_throughput=3%", "--min-improve", "ttft.p99=5%",
			"--max-runs", "10", "--no-label")
		n += add
		var v decide.Verdict
		if err := json.Unmarshal(out, &v); err != nil {
			l.t.Fatalf("candidate %d: the verdict: %v\n%s", k, err, out)
		}
		if want := map[decide.Decision]int{decide.Admit: 0, decide.Reject: 1, decide.Inconclusive: exitInconclusive}[v.Decision]; code != want {
			l.t.Fatalf("candidate %d: %s exits %d; want %d", k, v.Decision, code, want)
		}
		if v.Decision != decide.Inconclusive {
			return v, n
		}
		if v.MoreRuns.Baseline > 0 {
			l.ingestBaseline(baseTruth, v.MoreRuns.Baseline)
		}
		if add = v.MoreRuns.Candidate; add == 0 && v.MoreRuns.Baseline == 0 {
			l.t.Fatalf("candidate %d: inconclusive asking for no run", k)
		}
	}
}

// TestGateLoopCLI: 200 candidates, half no change within ±1%, half a
// real win of 2 to 3 times the minimum improvement on one objective, at
// CV 4% (p99 TTFT) and 1.5% (throughput), --max-runs 10: at most 1%
// false admits, at least 95% true admits, at most 10 runs per candidate.
func TestGateLoopCLI(t *testing.T) {
	t.Setenv(store.EnvVar, "")
	l := &cliLoop{t: t, dir: t.TempDir(), rng: rand.New(rand.NewPCG(13, 1))}
	baseTruth := [2]float64{1000, 200}
	l.ingestBaseline(baseTruth, 10)
	const candidates = 200
	admitted, counted := [2]int{}, [2]int{}
	runs, most, capped := 0, 0, 0
	for k := range candidates {
		truth, better := baseTruth, k%2 == 1
		if better {
			j := l.rng.IntN(2)
			gain := loopMinImprove[j] * (2 + l.rng.Float64())
			if j == 0 {
				truth[0] *= 1 + gain
			} else {
				truth[1] *= 1 - gain
			}
		} else {
			for i := range truth {
				truth[i] *= 0.99 + 0.02*l.rng.Float64()
			}
		}
		v, n := l.judge(k, truth, baseTruth)
		counted[b2i(better)]++
		if v.Decision == decide.Admit {
			admitted[b2i(better)]++
		}
		if v.Code == decide.CodeRejectedMaxRuns {
			capped++
		}
		runs += n
		most = max(most, n)
	}
	falseAdmit := float64(admitted[0]) / float64(counted[0])
	trueAdmit := float64(admitted[1]) / float64(counted[1])
	mean := float64(runs) / candidates
	t.Logf("gate loop through the CLI (CV 1.5%% throughput, 4%% p99 TTFT, --max-runs 10, %d candidates, %d pareto calls): false admits %.1f%% (%d/%d), true admits %.1f%% (%d/%d), %.2f runs per candidate (at most %d), %d rejected_max_runs",
		candidates, l.calls, 100*falseAdmit, admitted[0], counted[0], 100*trueAdmit, admitted[1], counted[1], mean, most, capped)
	if falseAdmit > 0.01 {
		t.Errorf("false admits %.3f; want <= 0.01", falseAdmit)
	}
	if trueAdmit < 0.95 {
		t.Errorf("true admits %.3f; want >= 0.95", trueAdmit)
	}
	if mean > 10 || most > 10 {
		t.Errorf("%.2f runs per candidate, at most %d; want <= 10", mean, most)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
