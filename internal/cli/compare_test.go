package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/internal/schematest"
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
		code := Main(args, strings.NewReader(""), &stdout, &stderr)
		if code == exitUsage || stdout.Len() == 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
		}
		schematest.Validate(t, "compare", stdout.Bytes())
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
	code := Main(args, strings.NewReader(""), &stdout, &stderr)
	var rep struct {
		Pairs []struct {
			Verdict string   `json:"verdict"`
			Reasons []string `json:"reasons"`
		} `json:"pairs"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Pairs) != 1 {
		t.Fatalf("%v: exit %d, %v\n%s%s", args, code, err, stdout.String(), stderr.String())
	}
	return rep.Pairs[0].Verdict, code, strings.Join(rep.Pairs[0].Reasons, "\n")
}

func TestCompareVerdictsExplore(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scale func(int) float64
		flags []string
	}{
		{"plus10", func(int) float64 { return 1.1 }, nil},
		{"remeasured noise3", func(int) float64 { return 1 }, []string{"--noise", "3%"}},
		{"remeasured", func(int) float64 { return 1 }, nil},
		{"cross", func(i int) float64 {
			if i < 4 {
				return 1.15
			}
			return 0.85
		}, nil},
		{"cross noise3", func(i int) float64 {
			if i < 4 {
				return 1.15
			}
			return 0.85
		}, []string{"--noise", "3%"}},
	} {
		count := map[string]int{}
		for seed := range uint64(30) {
			v, code, _ := compareVerdict(t, compareRuns(t, seed, tc.scale), tc.flags...)
			count[fmt.Sprint(v, " ", code)]++
		}
		t.Logf("%s: %v", tc.name, count)
	}
}
