package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
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
		validateSchema(t, "compare", stdout.Bytes())
	}
}

// validateSchema checks data against docs/schema/NAME.schema.json.
func validateSchema(t *testing.T, name string, data []byte) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "docs", "schema", name+".schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name+".schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name + ".schema.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("%v\n%s", err, data)
	}
}
