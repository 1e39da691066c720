package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/table"
	"github.com/pareto-llm/pareto/trial"
)

// sweepCase is one input of the truncation sweep and how to read it.
type sweepCase struct {
	name string
	data []byte
	read func(data []byte) ([]trial.Trial, error)
	// lastSection, for an AIPerf/GenAI-Perf CSV, is the offset where the
	// first row of its "Metric,Value" section ends: a cut between two of
	// the rows after it cannot be detected (the tools write no end mark,
	// and GenAI-Perf's 2024 CSVs no Request Count row) and gives a trial
	// with those rows missing.
	lastSection int
}

// sweepFigures counts the outcomes of a sweep.
type sweepFigures struct {
	cuts, errs, same, prefix, lastRows int
}

func (f *sweepFigures) add(g sweepFigures) {
	f.cuts, f.errs, f.same, f.prefix, f.lastRows = f.cuts+g.cuts, f.errs+g.errs, f.same+g.same, f.prefix+g.prefix, f.lastRows+g.lastRows
}

func (f sweepFigures) String() string {
	return fmt.Sprintf("%d cuts: %d positioned errors, %d the same trials, %d a prefix of whole records, %d missing rows of the Metric,Value section",
		f.cuts, f.errs, f.same, f.prefix, f.lastRows)
}

// TestTruncationSweep cuts every fixture at every position (a dense sample
// of the large ones) and checks that reading the cut file either fails with
// a positioned error or gives exactly the full file's trials; a file of
// several records cut between two records may give the first records
// whole. The AIPerf CSV twin of the real AIPerf JSON fixture (written as
// AIPerf writes it) is checked against the JSON's values, then swept too.
func TestTruncationSweep(t *testing.T) {
	var cases []sweepCase
	for _, path := range goldenInputs(t) {
		if strings.HasPrefix(path, filepath.Join("testdata", "bad")) {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, sweepCase{name: path, data: data, lastSection: afterFirstScalar(data), read: func(b []byte) ([]trial.Trial, error) {
			return ReadBytes(b, path)
		}})
	}
	twin := aiperfCSVTwin(t, "testdata/aiperf/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json")
	cases = append(cases, twin)
	for _, tc := range []struct{ name, file string }{
		{"examples/trials.csv", "../examples/trials.csv"},
		{"examples/decide/tries-sglang-0.6.0.jsonl", "../examples/decide/tries-sglang-0.6.0.jsonl"},
		{"cloudai aiperf_report.csv", "../examples/cloudai/results/test.disagg.single-node/0/aiperf_round_1_report.csv"},
	} {
		data, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		name := tc.name
		if strings.HasSuffix(tc.file, "aiperf_round_1_report.csv") {
			cases = append(cases, sweepCase{name: name, data: data, read: func(b []byte) ([]trial.Trial, error) { return ReadBytes(b, "profile_export_aiperf.csv") },
				lastSection: afterFirstScalar(data)})
			continue
		}
		cases = append(cases, sweepCase{name: name, data: data, read: func(b []byte) ([]trial.Trial, error) { return ReadTable(b, name, TableOptions{}) }})
	}
	cases = append(cases, paretoJSONLCase(t))

	var total sweepFigures
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, "/", "__"), func(t *testing.T) {
			f := sweep(t, c, cutPositions(c.data, testing.Short()))
			t.Logf("%s: %v", c.name, f)
			total.add(f)
		})
	}
	// The vLLM fixtures are over StreamThreshold: ReadFile streams them.
	dir := t.TempDir()
	for _, path := range goldenInputs(t) {
		if fi, err := os.Stat(path); err != nil || fi.Size() <= StreamThreshold {
			continue
		}
		if !strings.HasSuffix(path, "qps_01.json") && (testing.Short() || !strings.HasSuffix(path, "qps_inf.json")) {
			continue // the four files are alike: one (two) of them suffice
		}
		data, _ := os.ReadFile(path)
		out := filepath.Join(dir, filepath.Base(path))
		c := sweepCase{name: path + " (streamed)", data: data, read: func(b []byte) ([]trial.Trial, error) {
			if err := os.WriteFile(out, b, 0o644); err != nil {
				t.Fatal(err)
			}
			ts, err := ReadFile(out)
			for i := range ts {
				ts[i].Source.Path = path // the full file is read under this name too
			}
			return ts, err
		}}
		positions := cutPositions(data, true) // only the cuts over StreamThreshold are streamed
		positions = slices.DeleteFunc(positions, func(p int) bool { return p <= StreamThreshold })
		f := sweep(t, c, positions)
		t.Logf("%s: %v", c.name, f)
		total.add(f)
	}
	t.Logf("truncation sweep, all inputs: %v", total)
	if total.errs == 0 || total.same == 0 {
		t.Errorf("the sweep checked nothing: %v", total)
	}
}

// sweep reads every cut of c and checks each outcome.
func sweep(t *testing.T, c sweepCase, positions []int) sweepFigures {
	t.Helper()
	full, err := c.read(slices.Clone(c.data))
	if err != nil || len(full) == 0 {
		t.Fatalf("%s: the full file: %d trials, %v", c.name, len(full), err)
	}
	want := encodeTrials(t, full)
	var f sweepFigures
	for _, n := range positions {
		f.cuts++
		got, err := c.read(slices.Clone(c.data[:n]))
		if err != nil {
			if !positioned(err) {
				t.Errorf("%s cut at %d: error without a position: %v", c.name, n, err)
			}
			f.errs++
			continue
		}
		switch g := encodeTrials(t, got); {
		case slices.Equal(g, want):
			f.same++
		case len(bytes.TrimSpace(c.data[n:])) == 0:
			t.Errorf("%s cut at %d, in trailing white space: trials differ from the full file's", c.name, n)
		case len(g) > 0 && len(g) < len(want) && slices.Equal(g, want[:len(g)]):
			f.prefix++
		case c.lastSection > 0 && n >= c.lastSection && subset(got, full):
			f.lastRows++
		default:
			t.Errorf("%s cut at %d (…%q): %d trials unlike the full file's %d, and no error", c.name, n,
				c.data[max(0, n-20):n], len(got), len(full))
		}
	}
	return f
}

// cutPositions lists where to cut data: everywhere in a small file; in a
// large one (or in short mode) a dense sample: the first and last bytes,
// both sides of every line end (of the first lines only in short mode),
// and every k-th byte.
func cutPositions(data []byte, sample bool) []int {
	if !sample && len(data) <= 16<<10 {
		out := make([]int, len(data))
		for i := range out {
			out[i] = i
		}
		return out
	}
	edge, lines, steps := 256, len(data), 400
	if testing.Short() {
		edge, lines, steps = 48, 100, 120
	}
	seen := map[int]bool{}
	add := func(p int) {
		if p >= 0 && p < len(data) {
			seen[p] = true
		}
	}
	for i := range edge {
		add(i)
		add(len(data) - 1 - i)
	}
	for i, c := range data {
		if c == '\n' && lines > 0 {
			add(i)
			add(i + 1)
			lines--
		}
	}
	step := max(1, len(data)/steps)
	for i := 0; i < len(data); i += step {
		add(i)
	}
	var out []int
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// afterFirstScalar returns the offset where the first row of the
// "Metric,Value" section of an AIPerf/GenAI-Perf CSV ends, or 0: from
// there on a cut between rows gives a complete-looking section (with or
// without its Request Count row, which GenAI-Perf did not write in 2024).
func afterFirstScalar(data []byte) int {
	seen := false
	for off := 0; off < len(data); {
		line, _, _ := bytes.Cut(data[off:], []byte("\n"))
		if seen && len(bytes.TrimSpace(line)) > 0 {
			return off + len(bytes.TrimRight(line, "\r"))
		}
		if bytes.HasPrefix(bytes.ToLower(line), []byte("metric,value")) {
			seen = true
		}
		off += len(line) + 1
	}
	return 0
}

// positioned reports whether err names a line and column of its input (or
// says the input is empty: a cut at 0).
func positioned(err error) bool {
	if errors.Is(err, ErrEmpty) || errors.Is(err, table.ErrEmpty) {
		return true
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		return se.Line >= 1 && se.Col >= 1
	}
	var te *table.SyntaxError
	return errors.As(err, &te) && te.Line >= 1
}

func encodeTrials(t *testing.T, ts []trial.Trial) []string {
	t.Helper()
	out := make([]string, len(ts))
	for i := range ts {
		b, err := json.Marshal(&ts[i])
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

// subset reports whether got is one trial whose measurements are all in
// full's one trial, with the same values.
func subset(got, full []trial.Trial) bool {
	if len(got) != 1 || len(full) != 1 {
		return false
	}
	have := map[string]float64{}
	for _, m := range full[0].Measurements {
		have[m.Metric+"|"+m.Dims.String()] = m.Value
	}
	for _, m := range got[0].Measurements {
		if v, ok := have[m.Metric+"|"+m.Dims.String()]; !ok || v != m.Value {
			return false
		}
	}
	return true
}

// aiperfCSVTwin writes the profile_export_aiperf.csv that AIPerf writes
// beside the JSON at path (FORMATS.md §2.6: metrics with percentiles
// sorted by tag, a blank line, "Metric,Value" rows, CRLF, %.2f), checks
// that the CSV reader gives the JSON's values to the CSV's rounding, and
// returns it as a sweep case.
func aiperfCSVTwin(t *testing.T, path string) sweepCase {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	stats := []string{"avg", "min", "max", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "std"}
	var tags []string
	blocks := map[string]map[string]any{}
	for tag, v := range doc {
		var b map[string]any
		if json.Unmarshal(v, &b) == nil && b["unit"] != nil && b["avg"] != nil {
			tags, blocks[tag] = append(tags, tag), b
		}
	}
	slices.Sort(tags)
	name := func(tag string) string {
		n := strings.ReplaceAll(tag, "_", " ")
		if u := blocks[tag]["unit"].(string); u != "count" && u != "requests" {
			n += " (" + u + ")"
		}
		return n
	}
	cell := func(v any) string {
		if f, ok := v.(float64); ok {
			return fmt.Sprintf("%.2f", f)
		}
		return ""
	}
	var csv strings.Builder
	csv.WriteString("Metric," + strings.Join(stats, ",") + "\r\n")
	var system []string
	for _, tag := range tags {
		if blocks[tag]["p50"] == nil {
			system = append(system, tag)
			continue
		}
		csv.WriteString(name(tag))
		for _, s := range stats {
			csv.WriteString("," + cell(blocks[tag][s]))
		}
		csv.WriteString("\r\n")
	}
	csv.WriteString("\r\nMetric,Value\r\n")
	for _, tag := range system {
		csv.WriteString(name(tag) + "," + cell(blocks[tag]["avg"]) + "\r\n")
	}
	data := []byte(csv.String())
	const csvName = "profile_export_aiperf.csv"
	fromCSV, err := ReadBytes(slices.Clone(data), csvName)
	if err != nil {
		t.Fatalf("the CSV twin: %v\n%s", err, data)
	}
	fromJSON := mustOne(t, path, 0)
	jsonValues := map[string]float64{}
	for _, m := range fromJSON.Measurements {
		jsonValues[m.Metric+"|"+m.Dims.String()] = m.Value
	}
	checked := 0
	for _, m := range fromCSV[0].Measurements {
		if m.Metric == trial.ErrorRate {
			continue
		}
		want, ok := jsonValues[m.Metric+"|"+m.Dims.String()]
		tol, _ := trial.NormalizeUnit(0.0051, m.SourceUnit)
		if !ok || math.Abs(m.Value-want) > math.Abs(tol)+1e-9*math.Abs(want) {
			t.Errorf("CSV twin %s %s = %v; the JSON says %v (present %v)", m.Metric, m.Dims, m.Value, want, ok)
		}
		checked++
	}
	if checked < 50 {
		t.Errorf("the CSV twin compared only %d values with the JSON", checked)
	}
	return sweepCase{name: "CSV twin of " + path, data: data, lastSection: afterFirstScalar(data),
		read: func(b []byte) ([]trial.Trial, error) { return ReadBytes(b, csvName) }}
}

// paretoJSONLCase is a `pareto trials --format jsonl` export of the SGLang
// fixtures' trials.
func paretoJSONLCase(t *testing.T) sweepCase {
	t.Helper()
	var buf bytes.Buffer
	for _, p := range []string{"testdata/sglang/datacrunch_2024-12_llama_405b_online_output.jsonl", "testdata/synthetic/synthetic_sglang_modern.jsonl"} {
		ts, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ts {
			b, err := json.Marshal(&ts[i])
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(append(b, '\n'))
		}
	}
	return sweepCase{name: "pareto jsonl export", data: buf.Bytes(),
		read: func(b []byte) ([]trial.Trial, error) { return ReadBytes(b, "export.jsonl") }}
}
