package ingest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/pareto-llm/pareto/trial"
)

// readBoth reads data with the fast AIPerf scanner and with the jsontext
// reader alone. fastOK says whether the fast path read it (else it gave up).
//
// It also checks the detection marks the fast scanner collects (for
// readGuessed) against scanHead over the whole document.
func readBoth(t testing.TB, data []byte, name string) (fast, slow []trial.Trial, fastOK bool, slowErr error) {
	newReader := func(slow bool) *reader {
		return &reader{dec: jsontext.NewDecoder(emptyReader), names: map[string]string{}, slow: slow}
	}
	slow, slowErr = newReader(true).readBytes(bytes.Clone(data), name)
	d := bytes.Clone(data)
	if needsRewrite(d) {
		var rw nanRewriter
		rw.rewrite(d, true)
	}
	f := Detect(d[:min(len(d), HeadSize)], name)
	if f != FormatAIPerfJSON && f != FormatGenAIPerfJSON || len(bytes.TrimSpace(d)) == 0 {
		return nil, slow, false, slowErr
	}
	trimmed := bytes.TrimLeft(d, " \t\r\n")
	marks := headMarks{h: trimmed}
	fast, fastOK = readPerfFastMarks(d, &source{path: name, data: d}, f, newReader(false), &marks)
	if want := scanHead(trimmed).found; fastOK && marks.found != want {
		t.Fatalf("%s: marks of the scanned strings %b, scanHead %b", name, marks.found, want)
	}
	return fast, slow, fastOK, slowErr
}

// checkSame fails when the fast path read data but disagrees with the
// jsontext reader.
func checkSame(t *testing.T, data []byte, name string) bool {
	t.Helper()
	fast, slow, ok, err := readBoth(t, data, name)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("%s: fast path read what the jsontext reader rejects: %v", name, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%s: fast path differs\nfast %+v\nslow %+v", name, fast, slow)
	}
	return true
}

// TestFastAIPerfSame checks that the fast AIPerf reader reads every AIPerf
// and GenAI-Perf JSON test file, and generated benchmark files, exactly as
// the jsontext reader does.
func TestFastAIPerfSame(t *testing.T) {
	var files []string
	for _, g := range []string{"aiperf/*.json", "synthetic/*aiperf*.json", "synthetic/*genai_perf*.json"} {
		m, _ := filepath.Glob(filepath.Join("testdata", g))
		files = append(files, m...)
	}
	if len(files) < 5 {
		t.Fatalf("only %d test files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !checkSame(t, data, f) {
			t.Errorf("%s: fast path gave up", f)
		}
	}
	tricky := `{"aiperf_version": "0.5.0", "request_latency": {"unit": "sec", "avg": 2, "p50": 1, "max": 3, "p1": 1, "std": 0},
  "request_latency": {"unit": "ms", "avg": 1, "p50": 1, "min": 0.5, "p50": 0.9, "mean": 7, "median": 2, "p99.90": 4, "p0.1": 1},
  "time_to_first_token": {"unit": "ms", "avg": 5, "p50": 5, "p99": 5, "min": 5, "max": 5, "std": 5, "count": 3, "sum": 15},
  "inter_token_latency": {"unit": "ns", "avg": 1e6, "p50": "7", "p90": "12.5", "p95": null, "tag": "x", "weird": 1},
  "request_count": {"unit": "requests", "avg": 0}, "error_request_count": {"unit": "requests", "avg": 4},
  "request_throughput": {"unit": "requests/sec", "avg": 0.5}, "extra": [1, "a", {"b": [2, 3]}, [4]], "flag": true,
  "warmup_metrics": {"request_latency": {"unit": "ms", "avg": 9, "p50": 8}, "ttft": {"unit": "ms", "avg": 1}},
  "telemetry_data": {"endpoints": {"b:1": {"gpus": {"gpu_1": {"gpu_name": "", "metrics": {"p": {"unit": "W", "avg": 1, "max": 2}}},
    "gpu_0": {"gpu_name": "H200", "metrics": {"p": {"unit": "W", "avg": 1, "max": 2}, "q": {"avg": 3}}}}},
    "a:1": {"gpus": {"gpu_0": {"gpu_name": "H100", "metrics": {"p": {"unit": "W", "avg": 0, "p99": 2}}}}}}},
  "input_config": {"endpoint": {"model_names": ["m1", "m2"], "API_KEY": "s", "type": "chat"}, "loadgen": {"concurrency": 8}, "": {"": 1}}}`
	for _, doc := range []string{tricky, strings.ReplaceAll(tricky, `"avg": 0}, "error`, `"avg": 10}, "error`)} {
		if !checkSame(t, []byte(doc), "profile_export_aiperf.json") {
			t.Errorf("tricky document: fast path gave up")
		}
	}
	for i := range 3 {
		if !checkSame(t, aiperfFile(t, i), "profile_export_aiperf.json") {
			t.Errorf("generated file %d: fast path gave up", i)
		}
	}
}

// TestFastAIPerfGivesUp checks that the fast path leaves bad and unusual
// input to the jsontext reader, which reports the positioned error.
func TestFastAIPerfGivesUp(t *testing.T) {
	base, err := os.ReadFile("testdata/synthetic/synthetic_aiperf_g1_profile_export_aiperf.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to string }{
		{`"avg": 50.0`, `"avg": true`},               // wrong type
		{`"avg": 50.0`, `"avg": "fast"`},             // not a number
		{`"avg": 50.0`, `"avg": 1e999`},              // out of range
		{`"avg": 50.0`, `"avg": 50.0,`},              // trailing comma
		{`"avg": 50.0`, `"avg": 050`},                // leading zero
		{`"avg": 50.0`, "\"av\\u0067\": 50.0"},       // escaped name
		{`"type": "chat"`, `"type": "ch\tat"`},       // escape in a value
		{`"type": "chat"`, "\"type\": \"ch\tat\""},   // control character
		{`"type": "chat"`, `"type": "chät"`},         // UTF-8 in a value
		{`"type": "chat"`, "\"type\": \"ch\xffat\""}, // invalid UTF-8
		{`"type": "chat"`, "\"type\": \"ch\\\"at\""}, // escape in a value
		{`"gpus": {`, `"gpus": {"x": 1, `},           // GPU not an object
		{"\n}\n", "\n}\n}"},                          // trailing data
	} {
		data := []byte(strings.Replace(string(base), c.from, c.to, 1))
		fast, slow, ok, err := readBoth(t, data, "profile_export_aiperf.json")
		if ok && (err != nil || !reflect.DeepEqual(fast, slow)) {
			t.Errorf("%q: fast path read it differently (slow error %v)", c.to, err)
		}
		if err != nil {
			if _, isSyntax := err.(*SyntaxError); !isSyntax {
				t.Errorf("%q: error %v is not positioned", c.to, err)
			}
		}
	}
}

// FuzzFastAIPerf checks that whenever the fast AIPerf reader reads an
// input, the jsontext reader reads it too, with the same trials.
func FuzzFastAIPerf(f *testing.F) {
	for _, g := range []string{"aiperf/*", "synthetic/*aiperf*.json", "synthetic/*genai_perf*.json", "bad/*aiperf*.json"} {
		m, _ := filepath.Glob(filepath.Join("testdata", g))
		for _, p := range m {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add(aiperfFile(f, 3))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSame(t, data, "profile_export_aiperf.json")
	})
}

// TestCommonStats checks the statistic lookup tables.
func TestCommonStats(t *testing.T) {
	for i, n := range commonStatNames {
		st, ok := lookupStat([]byte(n))
		want, _ := trial.NormalizeStatistic(n)
		if commonStatIndex([]byte(n)) != i || !ok || st.stat != want || fixedDims[st.id][0].Value != want {
			t.Errorf("%s: got %+v, want %s at %d", n, st, want, i)
		}
	}
	for _, extra := range []trial.Dims{warmupDims, {{Key: "endpoint", Value: "e"}, {Key: "gpu", Value: "0"}},
		{{Key: "z", Value: "1"}}, {{Key: "a", Value: "1"}, {Key: "z", Value: "2"}}, {{Key: "statistic", Value: "p1"}},
		{{Key: "b", Value: "1"}, {Key: "a", Value: "2"}}} {
		want := extra.With(trial.DimStatistic, "p99")
		if got, ok := withStatistic(make(trial.Dims, 0, len(extra)+1), extra, "p99"); ok && !reflect.DeepEqual(got, want) {
			t.Errorf("withStatistic(%v) = %v, want %v", extra, got, want)
		}
		p := &perfJSON{b: &builder{}}
		for range 40 { // through several slabs
			if got, _ := p.withStat(extra, "p99"); !reflect.DeepEqual(got, want) {
				t.Fatalf("withStat(%v) = %v, want %v", extra, got, want)
			}
			p.withFor = nil
		}
	}
}

// TestReadFilesSame checks that ReadFiles with several workers (pooled
// readers and their scratch state) gives what ReadFile gives file by file.
func TestReadFilesSame(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	// Several layouts, interleaved: more than a reader remembers.
	drops := []string{"", "time_to_second_token", "inter_chunk_latency", "http_req_waiting", "inter_token_latency", "time_to_first_token"}
	for i := range 24 {
		p := filepath.Join(dir, "run_"+strings.Repeat("x", i%3)+string(rune('a'+i))+"_profile_export_aiperf.json")
		if err := os.WriteFile(p, aiperfFileWithout(t, i, drops[i%len(drops)]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	// AIPerf-shaped files that Detect calls inference-perf because of a
	// string value, plainly or after an escaped quote.
	for i, note := range []string{`"load_summary"`, `"x\"load_summary"`, `"x\"load_summary\" y"`} {
		p := filepath.Join(dir, fmt.Sprintf("note_%d_profile_export_aiperf.json", i))
		data := bytes.Replace(aiperfFile(t, i), []byte(`"loadgen": {`), []byte(`"loadgen": {"note": `+note+`, `), 1)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, p := range paths[len(paths)-3:] {
		data, _ := os.ReadFile(p)
		if f := Detect(data, p); f != FormatInferencePerf && !strings.Contains(p, "note_2") {
			t.Fatalf("%s detected as %s", p, f)
		}
	}
	paths = append(paths, goldenInputs(t)...)
	// One worker reads the files in several orders, so that every format
	// follows an AIPerf file (readGuessed) and every other.
	rng := rand.New(rand.NewPCG(9, 10))
	for round, workers := range []int{4, 1, 1, 1} {
		if round > 0 {
			rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
		}
		got := make([][]trial.Trial, len(paths))
		errs := make([]error, len(paths))
		ReadFiles(paths, workers, func(i int, ts []trial.Trial, err error) { got[i], errs[i] = ts, err })
		for i, p := range paths {
			want, err := ReadFile(p)
			if !reflect.DeepEqual(got[i], want) || fmt.Sprint(errs[i]) != fmt.Sprint(err) {
				t.Errorf("round %d: %s: ReadFiles and ReadFile differ (errors %v and %v)", round, p, errs[i], err)
			}
		}
	}
}

// TestScannerWS compares ws with a byte-at-a-time reference on random runs
// of whitespace of every length, followed by a token or by the end.
func TestScannerWS(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		var b []byte
		for range rng.IntN(40) {
			b = append(b, " \n\r\t"[rng.IntN(4)])
			if rng.IntN(3) == 0 {
				b = append(b, bytes.Repeat([]byte{' '}, rng.IntN(20))...)
			}
		}
		want := len(b)
		if rng.IntN(2) == 0 {
			b = append(b, '"', ' ')
		}
		start := rng.IntN(len(b) + 1)
		if start > want {
			start = want
		}
		s := &scanner{data: b, pos: start}
		c := s.ws()
		if s.pos != want || (want < len(b)) != (c == '"') {
			t.Fatalf("ws(%q from %d) = %q at %d; want %d", b, start, c, s.pos, want)
		}
	}
}

// TestFastAIPerfReused reads documents one after another with one reader,
// whose memories of the file before (the names and the metric blocks at
// each place: perfJSON.native, metricUnits) then meet a block of another
// tag, unit or tool at the same place, and checks each trial against a
// fresh reader's.
func TestFastAIPerfReused(t *testing.T) {
	block := func(tag, unit string, v float64) string {
		return fmt.Sprintf(`%q: {"unit": %q, "avg": %g, "p50": %g, "p99": %g}`, tag, unit, v, v, 2*v)
	}
	doc := func(blocks ...string) []byte {
		return []byte(`{"aiperf_version": "0.5.0", ` + strings.Join(blocks, ", ") +
			`, "request_count": {"unit": "requests", "avg": 10}}`)
	}
	docs := []struct {
		data []byte
		f    Format
	}{
		{doc(block("time_to_first_token", "ms", 5), block("request_latency", "ms", 90)), FormatAIPerfJSON},
		{doc(block("time_to_first_token", "s", 0.005), block("request_latency", "ms", 90)), FormatAIPerfJSON},
		{doc(block("request_latency", "sec", 1), block("time_to_first_token", "ms", 5)), FormatAIPerfJSON},
		{doc(block("time_to_first_token", "ms", 5), block("request_latency", "ms", 90)), FormatGenAIPerfJSON},
		{doc(block("time_to_first_token", "ns", 5e6), block("inter_token_latency", "ms", 2), block("request_latency", "ms", 90)), FormatAIPerfJSON},
		{doc(block("time_to_first_token", "ms", 5)), FormatAIPerfJSON},
		{doc(block("time_to_first_token", "ms", 5), block("request_latency", "ms", 90)), FormatAIPerfJSON},
	}
	reused := newReader()
	for i, d := range docs {
		name := fmt.Sprintf("doc%d_profile_export_aiperf.json", i)
		got, ok := readPerfFast(bytes.Clone(d.data), &source{path: name, data: d.data}, d.f, reused)
		want, wantOK := readPerfFast(bytes.Clone(d.data), &source{path: name, data: d.data}, d.f, newReader())
		if !ok || !wantOK {
			t.Fatalf("document %d: fast path gave up (reused %v, fresh %v)", i, ok, wantOK)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("document %d read after the others differs from a fresh reader's\nreused %+v\nfresh  %+v", i, got, want)
		}
		sel, err := trial.ParseSelector("ttft.p50")
		if err != nil {
			t.Fatal(err)
		}
		if m, err := sel.Resolve(&got[0]); err != nil || m.Value != 5 {
			t.Errorf("document %d: ttft.p50 = %v, %v; want 5 (ms)", i, m.Value, err)
		}
	}
}
