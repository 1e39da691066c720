package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestDamagedValues: in every native reader, real fixtures with one value
// or key damaged. A negative latency, throughput or count is an error at
// the value's file:line:col naming the field; a NaN or Infinity token is
// "not measured" (left out, with a warning naming it) where the format's
// writer produces it (vLLM, SGLang, GenAI-Perf, inference-perf: Python's
// json.dumps) and an error where it cannot (AIPerf, guidellm: pydantic);
// invalid UTF-8 is an error at its byte; a key one edit from a key the
// reader maps is a warning naming both, and the trial is read.
func TestDamagedValues(t *testing.T) {
	read := func(path string) []byte {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := func(b []byte) []byte { return append(bytes.SplitN(b, []byte("\n"), 2)[0], '\n') }
	vllm := read("testdata/vllm/surajssd_llama33-70b_tp8_qps_04.json")
	sglang := read("testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl")
	aiperf := read("testdata/aiperf/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json")
	genai := read("testdata/synthetic/synthetic_genai_perf_flat_profile_export_genai_perf.json")
	aicsv := read("testdata/synthetic/synthetic_profile_export_aiperf.csv")
	guide := read("testdata/other/guidellm_report_v2_llm-d-benchmark-fixture_mock.json")
	iperf := read("testdata/other/inference-perf_kubecon-na-2025_vllm-batch_size_stage_0_lifecycle_metrics.json")
	// replace swaps the first old for new (which must be there).
	replace := func(data []byte, old, new string) []byte {
		t.Helper()
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("fixture lacks %q", old)
		}
		return bytes.Replace(data, []byte(old), []byte(new), 1)
	}
	type want struct {
		err     string // a positioned error holding this, at the first byte of at
		at      string
		warning string // else a trial warning holding this
		gone    string // and no measurement of this native name
	}
	for _, c := range []struct {
		name, file string
		data       []byte
		want       want
	}{
		{"vllm negative p99", "r.json", replace(vllm, `"p99_ttft_ms": 6`, `"p99_ttft_ms": -6`), want{err: `"p99_ttft_ms": negative value -67.5`, at: "-67.5"}},
		{"vllm negative count", "r.json", replace(vllm, `"completed": `, `"completed": -`), want{err: `"completed": negative value`, at: "-"}},
		{"vllm negative throughput", "r.json", replace(vllm, `"output_throughput": `, `"output_throughput": -`), want{err: `"output_throughput": negative value`, at: "-"}},
		{"vllm NaN std", "r.json", replace(vllm, `"std_ttft_ms": 8`, `"std_ttft_ms": NaN, "x": 8`), want{warning: `"std_ttft_ms" is NaN in the file: not measured`, gone: "std_ttft_ms"}},
		{"vllm Infinity", "r.json", replace(vllm, `"p99_itl_ms": `, `"p99_itl_ms": Infinity, "y": `), want{warning: `"p99_itl_ms" is Infinity in the file`, gone: "p99_itl_ms"}},
		{"vllm string N for a number", "r.json", replace(vllm, `"std_ttft_ms": 8`, `"std_ttft_ms": "N", "x": 8`), want{err: `std_ttft_ms: want number, got string "N"`, at: `"N"`}},
		{"vllm NaN member name", "r.json", replace(vllm, `"completed": `, `NaN: 1, "completed": `), want{err: "NaN where a member name is expected", at: "NaN"}},
		{"vllm Infinity record", "r.json", append(bytes.TrimSpace(vllm), "\n-Infinity\n"...), want{err: "want object, got -Infinity", at: "-Infinity"}},
		{"aiperf string Infini statistic", "profile_export_aiperf.json", replace(aiperf, `"max": `, `"max": "Infini", "m": `), want{err: `want number, got string "Infini"`, at: `"Infini"`}},
		{"vllm invalid UTF-8", "r.json", replace(vllm, `"backend": "`, "\"backend\": \"\xff"), want{err: "invalid UTF-8", at: "\xff"}},
		{"vllm near-miss key", "r.json", replace(vllm, `"p99_ttft_ms"`, `"p99_ttft_mz"`), want{warning: `key "p99_ttft_mz" is not read, but is close to "p99_ttft_ms"`, gone: "p99_ttft_ms"}},
		{"vllm transposed key", "r.json", replace(vllm, `"request_throughput"`, `"request_throughptu"`), want{warning: `close to "request_throughput"`, gone: "request_throughput"}},
		{"sglang negative median", "r.jsonl", replace(first(sglang), `"median_ttft_ms": `, `"median_ttft_ms": -`), want{err: `"median_ttft_ms": negative value`, at: "-"}},
		{"sglang negative duration", "r.jsonl", replace(first(sglang), `"duration": `, `"duration": -`), want{err: `"duration": negative value`, at: "-"}},
		{"sglang NaN", "r.jsonl", replace(first(sglang), `"median_itl_ms": `, `"median_itl_ms": NaN, "z": `), want{warning: `"median_itl_ms" is NaN`, gone: "median_itl_ms"}},
		{"sglang invalid UTF-8", "r.jsonl", replace(first(sglang), `"dataset_name": "`, "\"dataset_name\": \"\xc3("), want{err: "invalid UTF-8", at: "\xc3("}},
		{"sglang near-miss key", "r.jsonl", replace(first(sglang), `"output_throughput"`, `"output_throughpux"`), want{warning: `close to "output_throughput"`, gone: "output_throughput"}},
		{"aiperf negative p99", "profile_export_aiperf.json", replace(aiperf, `"p99": `, `"p99": -`), want{err: "negative value", at: "-"}},
		{"aiperf NaN token", "profile_export_aiperf.json", replace(aiperf, `"avg": `, `"avg": NaN, "p1x": `), want{err: "NaN where a number is expected", at: "NaN"}},
		{"aiperf Infinity token", "profile_export_aiperf.json", replace(aiperf, `"max": `, `"max": Infinity, "m": `), want{err: "Infinity where a number is expected", at: "Infinity"}},
		{"aiperf invalid UTF-8", "profile_export_aiperf.json", replace(aiperf, `"unit": "`, "\"unit\": \"\xfe"), want{err: "invalid UTF-8", at: "\xfe"}},
		{"aiperf near-miss tag", "profile_export_aiperf.json", replace(aiperf, `"request_latency"`, `"request_latencx"`), want{warning: `close to "request_latency"`, gone: "request_latency"}},
		{"aiperf near-miss statistic", "profile_export_aiperf.json", replace(aiperf, `"p99"`, `"p9y"`), want{warning: `.p9y" is not read, but is close to`}},
		{"genai-perf NaN", "profile_export_genai_perf.json", replace(genai, `"p99": `, `"p99": NaN, "q": `), want{warning: "is NaN in the file: not measured"}},
		{"genai-perf negative", "profile_export_genai_perf.json", replace(genai, `"avg": `, `"avg": -`), want{err: "negative value", at: "-"}},
		{"aiperf csv negative", "profile_export_aiperf.csv", replace(aicsv, "Time to First Token (ms),50.00", "Time to First Token (ms),-50.00"), want{err: "negative value -50", at: "-50.00"}},
		{"aiperf csv NaN", "profile_export_aiperf.csv", replace(aicsv, "Time to First Token (ms),50.00", "Time to First Token (ms),NaN"), want{err: "NaN where a number is expected", at: "NaN"}},
		{"aiperf csv invalid UTF-8", "profile_export_aiperf.csv", replace(aicsv, "Time to First", "Time\xff to First"), want{err: "invalid UTF-8", at: "\xff"}},
		{"guidellm negative", "report.json", replace(guide, `"median": 0.398434344413071`, `"median": -0.398434344413071`), want{err: "negative value -0.398434344413071", at: "-0.398"}},
		{"guidellm NaN", "report.json", replace(guide, `"median": 0.398434344413071`, `"median": NaN`), want{err: "NaN where a number is expected", at: "NaN"}},
		{"inference-perf negative", "lifecycle_metrics.json", replace(iperf, `"request_latency": {"mean": 0.4`, `"request_latency": {"mean": -0.4`), want{err: "negative value -0.4", at: "-0.4"}},
		{"inference-perf NaN", "lifecycle_metrics.json", replace(iperf, `"request_latency": {"mean": 0.48322820343310013`, `"request_latency": {"mean": NaN`), want{warning: "is NaN in the file: not measured"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, slow := range []bool{false, true} {
				ts, err := readBytesWith(bytes.Clone(c.data), c.file, slow)
				check(t, c.data, ts, err, c.want.err, c.want.at, c.want.warning, c.want.gone)
			}
		})
	}
}

// readBytesWith is ReadBytes, through the jsontext readers only when slow.
func readBytesWith(data []byte, name string, slow bool) ([]trial.Trial, error) {
	r := newReader()
	r.slow = slow
	return r.readBytes(data, name)
}

func check(t *testing.T, data []byte, ts []trial.Trial, err error, wantErr, at, warning, gone string) {
	t.Helper()
	if wantErr != "" {
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, wantErr) || se.Line < 1 || se.Col < 1 {
			t.Fatalf("error %v; want a positioned error holding %q", err, wantErr)
		}
		if off := lineColOffset(data, se.Line, se.Col); off < 0 || !bytes.HasPrefix(data[off:], []byte(at)) {
			t.Errorf("%v: the position does not hold %q", err, at)
		}
		return
	}
	if err != nil || len(ts) == 0 {
		t.Fatalf("%d trials, %v", len(ts), err)
	}
	var ws []string
	for _, tr := range ts {
		ws = append(ws, tr.Warnings...)
		for _, m := range tr.Measurements {
			if gone != "" && m.Native == gone {
				t.Errorf("measurement %+v is still there", m)
			}
		}
	}
	if !strings.Contains(strings.Join(ws, "\n"), warning) {
		t.Errorf("warnings %q; want one holding %q", ws, warning)
	}
}

// lineColOffset is the byte offset of 1-based line and column in data.
func lineColOffset(data []byte, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	if off+col-1 > len(data) {
		return -1
	}
	return off + col - 1
}

// TestRealFixturesClean: no real fixture warns of a near-miss key or a
// non-finite value, and none is refused for its values: the checks fire
// on damage, not on what the tools write.
func TestRealFixturesClean(t *testing.T) {
	d, err := Load([]string{"testdata/vllm", "testdata/sglang", "testdata/aiperf", "testdata/other"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Trials) < 20 {
		t.Fatalf("%d trials", len(d.Trials))
	}
	for _, s := range d.Skipped {
		if s.Code == SkipError {
			t.Errorf("%s: %s", s.Path, s.Reason)
		}
	}
	if ws := TrialWarnings(d.Trials); len(ws) > 0 {
		t.Errorf("warnings on real files: %q", ws)
	}
}

// TestEditDistance checks the near-miss distance against its definition
// on small cases.
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"p99_ttft_ms", "p99_ttft_mz", 1}, {"abc", "acb", 1}, {"abc", "abc", 0}, {"abc", "abcd", 1},
		{"completed", "complete", 1}, {"ttft", "tpot", 2}, {"ab", "ba", 1}, {"", "abc", 3},
	} {
		if got := editDistance(c.a, c.b, 3); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d; want %d", c.a, c.b, got, c.want)
		}
	}
	if got := editDistance("abcdef", "ghijkl", 1); got != 2 {
		t.Errorf("bounded distance = %d; want max+1 = 2", got)
	}
}

// TestMemberLimit: a native result whose object has more members than
// Limits.MaxColumns is an error at the first member over it, through the
// fast AIPerf reader, the jsontext readers and the stream; at the limit it
// is read.
func TestMemberLimit(t *testing.T) {
	vllm, err := os.ReadFile("testdata/vllm/surajssd_llama33-70b_tp8_qps_04.json")
	if err != nil {
		t.Fatal(err)
	}
	aiperf, err := os.ReadFile("testdata/aiperf/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json")
	if err != nil {
		t.Fatal(err)
	}
	// members counts the top-level members of a real file.
	members := func(data []byte) int {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		return len(m)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{{"vllm.json", vllm}, {"profile_export_aiperf.json", aiperf}} {
		n := members(c.data)
		for _, slow := range []bool{false, true} {
			r := newReader()
			r.slow = slow
			r.lim = Limits{MaxColumns: n}
			if _, err := r.readBytes(bytes.Clone(c.data), c.name); err != nil {
				t.Errorf("%s at the limit of %d members: %v", c.name, n, err)
			}
			r.lim = Limits{MaxColumns: n - 1}
			_, err := r.readBytes(bytes.Clone(c.data), c.name)
			var se *SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, ErrTooLarge) || !strings.Contains(se.Msg, "more than "+strconv.Itoa(n-1)+" members in one object") {
				t.Fatalf("%s over the limit: %v", c.name, err)
			}
			if off := lineColOffset(c.data, se.Line, se.Col); off < 0 || c.data[off] != '"' {
				t.Errorf("%v: not at a member name", err)
			}
		}
	}
}

// TestWarnings checks how warnings gathered across batches are told: once
// each, in order of first appearance, a file's repeats counted in trials,
// a warning of several files once with the first file and the count of
// the others, and a secret in a key redacted.
func TestWarnings(t *testing.T) {
	tr := func(path string, ws ...string) trial.Trial {
		return trial.Trial{Source: trial.Source{Path: path}, Warnings: ws}
	}
	for _, tt := range []struct {
		name    string
		batches [][]trial.Trial
		want    []string
	}{
		{"none", [][]trial.Trial{{tr("a.json")}}, []string{}},
		{"one", [][]trial.Trial{{tr("a.json", "w")}}, []string{"a.json: w"}},
		{"repeats in a file", [][]trial.Trial{{tr("a.jsonl", "w"), tr("a.jsonl", "w")}, {tr("a.jsonl", "w")}},
			[]string{"a.jsonl: w (3 trials)"}},
		{"two files", [][]trial.Trial{{tr("a.json", "w", "v")}, {tr("b.json", "w")}},
			[]string{"a.json and 1 other file: w", "a.json: v"}},
		{"many files", [][]trial.Trial{{tr("a.json", "w")}, {tr("b.json", "w"), tr("b.json", "w")}, {tr("c.json", "u", "w")}},
			[]string{"a.json and 2 other files: w (4 trials)", "c.json: u"}},
		{"secret", [][]trial.Trial{{tr("a.json", "key hf_abcdefghijklmnopqrstuvwxyz0123 unknown")}},
			[]string{"a.json: key hf_<redacted> unknown"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var w Warnings
			for _, b := range tt.batches {
				w.Add(b)
			}
			if got := w.Lines(); !slices.Equal(got, tt.want) {
				t.Errorf("Lines() = %q, want %q", got, tt.want)
			}
		})
	}
}
