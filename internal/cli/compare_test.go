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
	"slices"
	"strings"
	"testing"
)

// TestCompareJSONSchema holds pareto compare's JSON, baseline drift and
// buckets included, to docs/schema/compare.schema.json.
func TestCompareJSONSchema(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "decide")
	for _, args := range [][]string{
		{"--input", filepath.Join(ex, "baseline-sglang-0.5.6.jsonl"), "--input", filepath.Join(ex, "baseline-sglang-0.6.0.jsonl"),
			"engine_version=0.5.6", "=0.6.0", "--baseline", "max_num_seqs=64", "--at", "100,200,500"},
		{"--input", ex, "--by", "engine_version", "--interpolate", "linear", "--resamples", "200"},
		{"--input", ex, "--by", "engine_version", "-o", "tpot.p50:min", "--resamples", "100"},
	} {
		args = append([]string{"compare", "-o", "ttft.p99:min", "-o", "output_token_throughput:max", "--min-improve", "3%",
			"--format", "json"}, args...)
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		if code == exitUsage || stdout.Len() == 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
		}
		validateOutput(t, "compare", stdout.Bytes())
	}
}

// compareSide writes a side of pareto compare as CSV rows: configurations
// along a TTFT/throughput trade-off, each measured runs times with
// log-normal noise of coefficient cv on both metrics, throughput scaled by
// tpsScale(i) at configuration i.
func compareSide(b *strings.Builder, version string, runs int, cv float64, tpsScale func(i int) float64, rng *rand.Rand) {
	for i := range 8 {
		ttft := 40 * math.Pow(1.5, float64(i))
		tps := 1000 * (1 - 0.8*math.Pow(0.7, float64(i))) * tpsScale(i)
		for r := range runs {
			fmt.Fprintf(b, "%s-c%d-r%d,c%d,%s,%.6g,%.6g\n", version, i, r, i, version,
				ttft*math.Exp(cv*rng.NormFloat64()), tps*math.Exp(cv*rng.NormFloat64()))
		}
	}
}

// compareRuns writes sides A (version a) and B (version b) to a CSV file
// in dir and returns its path.
func compareRuns(t *testing.T, seed uint64, scaleB func(i int) float64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 22))
	var b strings.Builder
	b.WriteString("id,config,version,ttft,tps\n")
	compareSide(&b, "a", 3, 0.01, func(int) float64 { return 1 }, rng)
	compareSide(&b, "b", 3, 0.01, scaleB, rng)
	path := filepath.Join(t.TempDir(), "runs.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// compareVerdict runs pareto compare A against B on path and returns the
// pair's verdict and the exit status.
func compareVerdict(t *testing.T, path string, flags ...string) (string, int, string) {
	t.Helper()
	args := append([]string{"compare", "--input", path, "version=a", "=b", "--config-key", "config",
		"-o", "ttft:min", "-o", "tps:max", "--format", "json", "--resamples", "400"}, flags...)
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	var rep struct {
		Pairs []struct {
			Verdict string   `json:"verdict"`
			Reasons []string `json:"reasons"`
		} `json:"pairs"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Pairs) != 1 {
		t.Fatalf("%v: exit %d, %v\n%s%s", args, code, err, stdout.String(), stderr.String())
	}
	validateOutput(t, "compare", stdout.Bytes())
	return rep.Pairs[0].Verdict, code, strings.Join(rep.Pairs[0].Reasons, "\n")
}

// TestCompareVerdicts holds pareto compare's verdicts and exit statuses
// to the data, on sides generated with seeded noise: configurations along
// a TTFT/throughput trade-off, 3 repeats each with 1% log-normal noise.
// Without --noise or --min-improve the bands are the noise the repeats
// show. Each case runs on 10 seeds; a re-measured side may differ beyond
// the band at one configuration by chance (inconclusive, never a
// regression).
func TestCompareVerdicts(t *testing.T) {
	same := func(int) float64 { return 1 }
	cross := func(i int) float64 {
		if i < 4 {
			return 1.15
		}
		return 0.85
	}
	for _, tt := range []struct {
		name  string
		scale func(int) float64
		flags []string
		want  string
		exit  int
		// atLeast is how many of the 10 seeds must give want; the others
		// must be inconclusive with the same exit status.
		atLeast int
	}{
		{"+10% throughput, no bands", func(int) float64 { return 1.1 }, nil, "b_dominates", 0, 10},
		{"-10% throughput, no bands", func(int) float64 { return 0.9 }, nil, "a_dominates", 1, 10},
		{"re-measured, --noise 3%", same, []string{"--noise", "3%"}, "indistinguishable", 0, 9},
		{"re-measured, no bands", same, nil, "indistinguishable", 0, 9},
		{"better at low TTFT, worse at high, no bands", cross, nil, "crossing", 1, 10},
		{"better at low TTFT, worse at high, --noise 3%", cross, []string{"--noise", "3%"}, "crossing", 1, 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hits := 0
			for seed := range uint64(10) {
				v, code, why := compareVerdict(t, compareRuns(t, seed, tt.scale), tt.flags...)
				switch {
				case v == tt.want && code == tt.exit:
					hits++
				case v != "inconclusive" || code != tt.exit:
					t.Errorf("seed %d: %s, exit %d; want %s, exit %d\n%s", seed, v, code, tt.want, tt.exit, why)
				}
			}
			if hits < tt.atLeast {
				t.Errorf("%d of 10 seeds give %s; want at least %d", hits, tt.want, tt.atLeast)
			}
		})
	}
}

// TestCompareCloudAI compares the engines of the CloudAI example: vLLM
// reaches a lower TTFT than SGLang, SGLang a throughput vLLM never does,
// so the frontiers cross. Without bands the repeats (one duplicated run)
// cannot measure the noise: the verdict cannot tell.
func TestCompareCloudAI(t *testing.T) {
	args := []string{"compare", "--input", filepath.Join("..", "..", "examples", "cloudai", "results"), "--by", "engine",
		"-o", "ttft.p50", "-o", "output_token_throughput", "--allow-cross-scope", "--format", "json", "--resamples", "200"}
	for _, tt := range []struct {
		flags   []string
		verdict string
		exit    int
	}{
		{[]string{"--noise", "5%"}, "crossing", 1},
		{nil, "inconclusive", 3},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), append(slices.Clone(args), tt.flags...), strings.NewReader(""), &stdout, &stderr)
		var rep struct {
			Pairs []struct {
				Verdict, Status string
				Reach           []struct{ Objective, Status string }
			}
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Pairs) != 1 {
			t.Fatalf("%v: exit %d, %v\n%s", tt.flags, code, err, stderr.String())
		}
		validateOutput(t, "compare", stdout.Bytes())
		p := rep.Pairs[0]
		if p.Verdict != tt.verdict || code != tt.exit {
			t.Errorf("%v: %s, exit %d; want %s, exit %d", tt.flags, p.Verdict, code, tt.verdict, tt.exit)
		}
		if tt.flags != nil && (len(p.Reach) != 2 || p.Reach[0].Status != "better" || p.Reach[1].Status != "worse") {
			t.Errorf("%v: reach %+v; want vLLM further on TTFT, SGLang on throughput", tt.flags, p.Reach)
		}
	}
}
