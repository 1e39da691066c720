package ingest

import (
	"bytes"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestNonFiniteLiteralText: a vLLM `--append-result` file (three records
// of a real result) whose first and last records hold bare Infinity, -Infinity and NaN
// literals (Python's json.dumps) beside genuine strings "Infini", "-Infini"
// and "N" (what the tolerant pre-pass rewrites the literals to), read in
// memory and streamed: a literal read as text is the literal as written, a
// genuine string stays as written, a literal where a number is expected is
// ±Inf, and a genuine "N" there is no number.
func TestNonFiniteLiteralText(t *testing.T) {
	vllm, err := os.ReadFile("testdata/vllm/surajssd_llama33-70b_tp8_qps_04.json")
	if err != nil {
		t.Fatal(err)
	}
	vllm = bytes.TrimSpace(vllm)
	const old = `"burstiness": 1.0,`
	if !bytes.Contains(vllm, []byte(old)) {
		t.Fatalf("fixture lacks %q", old)
	}
	rec := strings.Replace(string(vllm), old, `"burstiness": Infinity, "lo": -Infinity, "nn": NaN, `+
		`"s1": "Infini", "s2": "-Infini", "s3": "N", "s4": "NaN Infinity", "arr": [Infinity, "N", NaN, "Infini"], `+
		`"obj": {"x": NaN, "y": "Infini", "z": -Infinity}, "label": "N", "request_rate": Infinity,`, 1)
	rec = strings.Replace(rec, `"request_rate": 4.0, `, ``, 1)
	data := []byte(rec + "\n" + string(vllm) + "\n" + rec + "\n")
	path := filepath.Join(t.TempDir(), "append.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	wantParams := map[string]string{
		"burstiness": "Infinity", "lo": "-Infinity", "nn": "NaN",
		"s1": "Infini", "s2": "-Infini", "s3": "N", "s4": "NaN Infinity",
		"arr": "Infinity,N,NaN,Infini", "obj.x": "NaN", "obj.y": "Infini", "obj.z": "-Infinity",
		"label": "N", "request_rate": "inf",
	}
	for _, read := range []struct {
		name string
		fn   func() ([]trial.Trial, error)
	}{
		{"in memory", func() ([]trial.Trial, error) { return ReadBytes(data, path) }},
		{"streamed", func() ([]trial.Trial, error) { return ReadFile(path) }},
	} {
		t.Run(read.name, func(t *testing.T) {
			if read.name == "streamed" && len(data) <= StreamThreshold {
				t.Fatalf("%d bytes: not streamed", len(data))
			}
			ts, err := read.fn()
			if err != nil || len(ts) != 3 {
				t.Fatalf("%d trials, %v; want 3", len(ts), err)
			}
			for _, i := range []int{0, 2} {
				for k, want := range wantParams {
					if got, ok := ts[i].Params[k]; !ok || got != want {
						t.Errorf("trial %d: param %s = %q (%v); want %q", i, k, got, ok, want)
					}
				}
				if got := ts[i].Labels["label"]; got != "N" {
					t.Errorf("trial %d: label %q; want %q", i, got, "N")
				}
				if got := ts[i].Workload.RequestRate; !math.IsInf(got, 1) {
					t.Errorf("trial %d: request_rate %v; want +Inf", i, got)
				}
			}
			if got := ts[1].Params["burstiness"]; got != "1.0" {
				t.Errorf("second record: burstiness %q; want 1.0", got)
			}
			if ts[1].Source.Line != 2 {
				t.Errorf("second record at line %d; want 2", ts[1].Source.Line)
			}
		})
	}
}

// TestLiterals: the offsets a rewriter noted name the literal only at
// those offsets and for the bodies it writes, in any order of lookups, or
// in stream order when forward (dropping those passed, in place).
func TestLiterals(t *testing.T) {
	type look struct {
		off  int64
		body string
		want string // "" for none
	}
	looks := []look{{10, "N", "NaN"}, {10, "Infini", "Infinity"}, {15, "N", ""}, {20, "-Infini", "-Infinity"},
		{20, "NaN", ""}, {20, "n", ""}, {40, "N", "NaN"}, {50, "Infini", "Infinity"}, {60, "N", "NaN"}, {61, "N", ""}}
	for _, forward := range []bool{false, true} {
		l := &literals{at: []int64{10, 20, 30, 40, 50, 60}, forward: forward}
		order := slices.Clone(looks)
		if !forward {
			slices.Reverse(order)
		}
		for _, lk := range order {
			got, ok := l.literal(lk.off, lk.body)
			if ok != (lk.want != "") || ok && got != lk.want {
				t.Errorf("forward %v: literal(%d, %q) = %q, %v; want %q", forward, lk.off, lk.body, got, ok, lk.want)
			}
		}
		if n := len(l.at); forward && n > 3 || !forward && n != 6 {
			t.Errorf("forward %v: %d offsets kept: %v", forward, n, l.at)
		}
	}
	var none *literals
	if _, ok := none.literal(10, "N"); ok || none.any() {
		t.Errorf("no literals name one")
	}
}

// TestNonFiniteLiteralTable: in a JSONL table, a bare Infinity, -Infinity
// or NaN cell is that text as a parameter (and ±Inf or NaN as a number:
// no measurement, an unbounded request_rate), one inside an object is
// kept as written, a genuine string "Infini", "-Infini" or "N" stays a
// string (no number), a member's last value counts, and errors are where
// they are in the file with a finite number of the literal's length.
func TestNonFiniteLiteralTable(t *testing.T) {
	type row struct {
		id      string
		params  map[string]string
		metrics []string // the measurements, by column
		rate    float64  // Workload.RequestRate
	}
	inf := math.Inf(1)
	for _, c := range []struct {
		name, data string
		want       []row
		err        string // else the error
	}{
		{"literals and strings", `{"id": "a", "x": Infinity, "lo": -Infinity, "nn": NaN, "s1": "Infini", "s2": "-Infini", "s3": "N", "ttft_ms": 20, "o": {"k": NaN, "s": "N"}}` + "\n",
			[]row{{"a", map[string]string{"x": "Infinity", "lo": "-Infinity", "nn": "NaN", "s1": "Infini", "s2": "-Infini", "s3": "N",
				"ttft_ms": "20", "o": `{"k": NaN, "s": "N"}`}, []string{"ttft_ms"}, 0}}, ""},
		{"request_rate", `{"id": "a", "request_rate": Infinity, "ttft_ms": 1}` + "\n" + `{"id": "b", "request_rate": "Infini", "ttft_ms": 2}` + "\n",
			[]row{{"a", map[string]string{"request_rate": "Infinity", "ttft_ms": "1"}, []string{"ttft_ms"}, inf},
				{"b", map[string]string{"request_rate": "Infini", "ttft_ms": "2"}, []string{"ttft_ms"}, 0}}, ""},
		{"ids", `{"id": NaN, "ttft_ms": 1}` + "\n\n" + `{"id": "N", "ttft_ms": 2}` + "\n" + `{"id": "-Infini", "t": -Infinity, "ttft_ms": 3}` + "\n",
			[]row{{"NaN", map[string]string{"ttft_ms": "1"}, []string{"ttft_ms"}, 0},
				{"N", map[string]string{"ttft_ms": "2"}, []string{"ttft_ms"}, 0},
				{"-Infini", map[string]string{"t": "-Infinity", "ttft_ms": "3"}, []string{"ttft_ms"}, 0}}, ""},
		{"duplicates", `{"id": "a", "d": NaN, "d": "N", "e": "N", "e": NaN, "ttft_ms": 1}` + "\n",
			[]row{{"a", map[string]string{"d": "N", "e": "NaN", "ttft_ms": "1"}, []string{"ttft_ms"}, 0}}, ""},
		{"a bare NaN is a numeric cell", `{"id": "a", "ttft_ms": 1}` + "\n" + `{"id": "b", "ttft_ms": NaN}` + "\n",
			[]row{{"a", map[string]string{"ttft_ms": "1"}, []string{"ttft_ms"}, 0}, {"b", map[string]string{"ttft_ms": "NaN"}, nil, 0}}, ""},
		{"a genuine N is none", `{"id": "a", "ttft_ms": 1, "x": NaN}` + "\n" + `{"id": "b", "ttft_ms": "N"}` + "\n",
			nil, "t.jsonl:2:1: a row without a numeric cell: no measurement (a row is a trial only with one)"},
		{"a literal name", `{"id": "a", "ttft_ms": 1}` + "\n" + `{"id": "b", NaN: 2}` + "\n",
			nil, "t.jsonl:2:13: invalid JSON: NaN where a member name is expected"},
		{"a literal name in a nested object", `{"id": "a", "ttft_ms": 1, "o": [{"k": NaN}, {-Infinity: 2}]}` + "\n",
			nil, "t.jsonl:1:46: invalid JSON: -Infinity where a member name is expected"},
		{"a syntax error after a literal", `{"id": "a", "ttft_ms": NaN, "x": }` + "\n",
			nil, "t.jsonl:1:34: invalid JSON: invalid character '}' looking for beginning of value"},
		{"a syntax error after a literal on a later line", `{"id": "a", "t": 1}` + "\n" + `{"id": "b", "t": Infinity, "x": }` + "\n",
			nil, "t.jsonl:2:33: invalid JSON: invalid character '}' looking for beginning of value"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts, err := ReadTable([]byte(c.data), "t.jsonl", TableOptions{})
			if strings.Contains(c.err, "invalid character") {
				// where it is with finite numbers of the literals' lengths
				finite := strings.NewReplacer("-Infinity", "-12345678", "Infinity", "12345678", "NaN", "1.5").Replace(c.data)
				if _, ferr := ReadTable([]byte(finite), "t.jsonl", TableOptions{}); ferr == nil || err == nil || ferr.Error() != err.Error() {
					t.Errorf("error %v; with finite numbers %v", err, ferr)
				}
			}
			if c.err != "" || err != nil {
				if err == nil || err.Error() != c.err {
					t.Fatalf("error %v; want %s", err, c.err)
				}
				return
			}
			if len(ts) != len(c.want) {
				t.Fatalf("%d trials; want %d", len(ts), len(c.want))
			}
			for i, w := range c.want {
				tr := ts[i]
				if tr.Labels[LabelID] != w.id {
					t.Errorf("row %d: id %q; want %q", i, tr.Labels[LabelID], w.id)
				}
				if !maps.Equal(tr.Params, w.params) {
					t.Errorf("row %d: params %v; want %v", i, tr.Params, w.params)
				}
				var metrics []string
				for _, m := range tr.Measurements {
					metrics = append(metrics, m.Metric)
				}
				if !slices.Equal(metrics, w.metrics) {
					t.Errorf("row %d: measurements %v; want %v", i, metrics, w.metrics)
				}
				if tr.Workload.RequestRate != w.rate {
					t.Errorf("row %d: request_rate %v; want %v", i, tr.Workload.RequestRate, w.rate)
				}
			}
		})
	}
}
