package cli

import (
	"bytes"
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
