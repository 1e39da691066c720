package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unicode/utf16"

	"github.com/pareto-llm/pareto/internal/safe"
	"github.com/pareto-llm/pareto/trial"
)

const aiperfFixture = "testdata/aiperf/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json"

// loadOne loads paths and returns the reason of the only skip (and the
// number of trials), failing unless exactly one input was skipped.
func loadOne(t *testing.T, paths []string, opts LoadOptions) (string, int) {
	t.Helper()
	d, err := Load(paths, opts)
	if err != nil {
		t.Fatalf("Load(%v): %v", paths, err)
	}
	if len(d.Skipped) != 1 {
		t.Fatalf("Load(%v): %d skips %v; want one", paths, len(d.Skipped), d.Skipped)
	}
	return d.Skipped[0].Reason, len(d.Trials)
}

// TestLimitsRefuse checks the inputs refused before they are read: named
// pipes and devices (which may never end), files over the input size
// limit, standard input over it, and binary data.
func TestLimitsRefuse(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "profile_export_aiperf.json")
	data, err := os.ReadFile(aiperfFixture)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(small, data, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(bin, append([]byte("id,x\n"), make([]byte, 1000)...), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		paths []string
		opts  LoadOptions
		want  string
	}{
		{"over the input size", []string{small}, LoadOptions{Limits: Limits{MaxInputSize: 1000}},
			small + ": 7 KiB, over the size limit of 1000 bytes (max_input_size)"},
		{"stdin over the input size", []string{"-"}, LoadOptions{Stdin: bytes.NewReader(data), Limits: Limits{MaxInputSize: 1000}},
			"-: more than 1000 bytes, over the size limit (max_input_size)"},
		{"stdin of zeros", []string{"-"}, LoadOptions{Stdin: nulStream{}},
			"-:1:1: binary data (a NUL byte), not a benchmark result or a CSV/JSONL table"},
		{"named binary file", []string{bin}, LoadOptions{},
			bin + ":2:1: binary data (a NUL byte), not a benchmark result or a CSV/JSONL table"},
	}
	if runtime.GOOS != "windows" {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		cases = append(cases,
			struct {
				name  string
				paths []string
				opts  LoadOptions
				want  string
			}{"named pipe", []string{fifo}, LoadOptions{}, fifo + ": not a regular file (a named pipe)"},
			struct {
				name  string
				paths []string
				opts  LoadOptions
				want  string
			}{"device", []string{os.DevNull}, LoadOptions{}, os.DevNull + ": not a regular file (a character device)"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reason, n := loadOne(t, c.paths, c.opts)
			if reason != c.want || n != 0 {
				t.Errorf("%d trials, skip %q; want %q", n, reason, c.want)
			}
		})
	}
	// Inside a directory a binary file is only of unknown format.
	d, err := Load([]string{dir}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, s := range d.Skipped {
		codes = append(codes, filepath.Base(s.Path)+" "+s.Code)
	}
	if len(d.Trials) != 1 || !slices.Equal(codes, []string{"data.bin unknown_format"}) {
		t.Errorf("directory: %d trials, skips %v; want 1 and data.bin unknown_format", len(d.Trials), codes)
	}
}

// nulStream is an endless stream of NUL bytes (as /dev/zero).
type nulStream struct{}

func (nulStream) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestRecordLimits checks the record size limit: a CSV line, a JSON string
// in a streamed file and in memory, positioned where the record starts.
func TestRecordLimits(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 300<<10)
	csv := "Metric,Value\r\nRequest Count,10\r\nBenchmark Duration (sec),1" + strings.Repeat(",", 300<<10) + "\r\n"
	vllm, err := os.ReadFile("testdata/vllm/surajssd_llama33-70b_tp8_qps_01.json")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(vllm, []byte(`"generated_texts": [`)) + len(`"generated_texts": [`)
	streamed := slices.Concat(vllm[:i], []byte(`"`+long+`", `), vllm[i:])
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	lim := Limits{MaxRecordSize: 256 << 10}
	for _, c := range []struct {
		name, path, want string
	}{
		{"AIPerf CSV line", write("profile_export_aiperf.csv", []byte(csv)),
			":3:1: a line of 300 KiB, over the record size limit of 256 KiB"},
		{"streamed JSON string", write("qps_01.json", streamed), fmt.Sprintf(":1:%d: a JSON string of ", i+1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			reason, _ := loadOne(t, []string{c.path}, LoadOptions{Limits: lim})
			if want := c.path + c.want; !strings.HasPrefix(reason, want) {
				t.Errorf("skip %q; want prefix %q", reason, want)
			}
			if _, err := readFileAt(c.path, "", Limits{}); err != nil {
				t.Errorf("within the default limit: %v", err)
			}
		})
	}
	// A trial of a pareto JSONL export is read whole: bounded as a record.
	export := `{"id":"x","source":{"path":"p"},"measurements":[` + strings.Repeat(`{"metric":"m","value":1},`, 12000) + `{"metric":"m","value":2}]}` + "\n"
	if _, err := readBytesLimited([]byte(`{"id":"a","source":{"path":"p"},"measurements":[]}`+"\n"+export), "export.jsonl", lim); err == nil ||
		!strings.HasPrefix(err.Error(), "export.jsonl:2:1: trial 2: 293 KiB, over the record size limit of 256 KiB") {
		t.Errorf("pareto JSONL: %v", err)
	}
	// In memory (standard input), the same string in the same place.
	_, err = readBytesLimited(slices.Clone(streamed), "-", lim)
	if want := fmt.Sprintf("-:1:%d: a JSON string of 300 KiB, over the record size limit of 256 KiB", i+1); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("in memory: %v; want prefix %q", err, want)
	}
}

// TestNamesBounded checks that a name or value longer than its bound is an
// error for its file, positioned where the file holds it, quoting only an
// excerpt.
func TestNamesBounded(t *testing.T) {
	huge := strings.Repeat("m", 2*MaxParamLen)
	base, insert := aiperfWithMember(t)
	add := func(member string) []byte { // as the last member, so that it wins over the file's own
		return slices.Concat(bytes.TrimSuffix(bytes.TrimSpace(base), []byte("}")), []byte(", "+member+"}"))
	}
	for _, c := range []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"metric name", "profile_export_aiperf.json", insert(`"` + huge + `": {"unit": "ms", "avg": 1}`),
			`metric name of 2 MiB is longer than 1 KiB: "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm"…`},
		{"unit", "profile_export_aiperf.json", insert(`"x_latency": {"unit": "` + huge + `", "avg": 1}`),
			`unit of 2 MiB is longer than 1 KiB: "mmmm`},
		{"parameter name", "profile_export_aiperf.json", insert(`"` + huge + `": "v"`), `parameter name of 2 MiB is longer than 1 KiB`},
		{"parameter value", "profile_export_aiperf.json", insert(`"note": "` + huge + `"`), `parameter "note" value of 2 MiB is longer than 1 MiB`},
		{"label value", "profile_export_aiperf.json", add(`"aiperf_version": "` + huge[:100<<10] + `"`),
			`label "tool_version" value of 100 KiB is longer than 64 KiB`},
		{"CSV metric", "profile_export_aiperf.csv", []byte("Metric,Value\r\n" + huge + ",1\r\nRequest Count,1\r\n"), `metric name of 2 MiB is longer than 1 KiB`},
		{"table column", "table.csv", []byte("id," + huge + "\na,1\n"), `metric name of 2 MiB is longer than 1 KiB`},
		{"parameters together", "profile_export_aiperf.json", insert(manyParams(20, huge[:MaxParamLen-2])), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), c.file)
			if err := os.WriteFile(p, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			if c.want == "" { // not one name or value: the whole trial
				reason, _ := loadOne(t, []string{p}, LoadOptions{})
				if want := p + ": trial 1: its parameters and labels hold 20 MiB, more than 16 MiB: over the size limit"; reason != want {
					t.Errorf("skip %q; want %q", reason, want)
				}
				return
			}
			// The error is where the file first holds the long name or value.
			at := bytes.Index(c.data, []byte(huge[:64]))
			line := 1 + bytes.Count(c.data[:at], []byte("\n"))
			col := at - bytes.LastIndexByte(c.data[:at], '\n')
			want := fmt.Sprintf("%s:%d:%d: %s", p, line, col, c.want)
			reason, n := loadOne(t, []string{p}, LoadOptions{})
			if !strings.HasPrefix(reason, want) || n != 0 || len(reason) > len(p)+200 {
				t.Errorf("%d trials, skip %.300q; want prefix %q", n, reason, want)
			}
		})
	}
}

// aiperfWithMember returns a synthetic AIPerf G2 export and a function
// that returns it with one more member, after the version members, which
// say what the file is (the format is read from the content, not the
// name).
func aiperfWithMember(t *testing.T) (base []byte, insert func(member string) []byte) {
	t.Helper()
	base, err := os.ReadFile("testdata/synthetic/synthetic_aiperf_g2_profile_export_aiperf.json")
	if err != nil {
		t.Fatal(err)
	}
	versions := []byte(`"aiperf_version": "0.8.0",`)
	return base, func(member string) []byte {
		at := bytes.Index(base, versions) + len(versions)
		return slices.Concat(base[:at], []byte(member+","), base[at:])
	}
}

// TestNamesBoundedAfterAIPerf checks the bounds of TestNamesBounded on a
// file read right after another AIPerf export, as the files of a directory
// are: the reader then tries the fast AIPerf reader first (readGuessed),
// which says when its trial has every name within its bound so that it is
// not checked again. A long name anywhere the file can hold one in 64 KiB
// (a metric, a unit, a statistic's block inside the warmup or telemetry, a
// parameter name, a label) is the same error as for the file alone.
func TestNamesBoundedAfterAIPerf(t *testing.T) {
	long := strings.Repeat("m", MaxNameLen+1)
	base, insert := aiperfWithMember(t)
	for _, c := range []struct{ name, member string }{
		{"metric name", `"` + long + `": {"unit": "ms", "avg": 1}`},
		{"unit", `"x_latency": {"unit": "` + long + `", "avg": 1}`},
		{"warmup metric", `"warmup_metrics": {"` + long + `": {"unit": "ms", "avg": 1}}`},
		{"parameter name", `"` + long + `": "v"`},
		{"parameter in input_config", `"input_config": {"endpoint": {"` + long + `": 1}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			first, second := filepath.Join(dir, "a_profile_export_aiperf.json"), filepath.Join(dir, "b_profile_export_aiperf.json")
			data := insert(c.member)
			if err := os.WriteFile(first, base, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(second, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if len(data) > HeadSize {
				t.Fatalf("%d bytes: too large for the fast reader", len(data))
			}
			alone, n := loadOne(t, []string{second}, LoadOptions{})
			if n != 0 || !strings.Contains(alone, "is longer than 1 KiB") {
				t.Fatalf("alone: %d trials, skip %.200q; want the long name refused", n, alone)
			}
			d, err := Load([]string{dir}, LoadOptions{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Trials) != 1 || len(d.Skipped) != 1 || d.Skipped[0].Reason != strings.Replace(alone, second, d.Skipped[0].Path, 1) {
				t.Errorf("after an AIPerf file: %d trials, skips %.300v; want 1 trial and the skip %.200q", len(d.Trials), d.Skipped, alone)
			}
		})
	}
}

// manyParams renders n members "pI": v, a parameter each.
func manyParams(n int, v string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: %q", fmt.Sprint("p", i), v)
	}
	return b.String()
}

// TestPanicBecomesError makes reading one file panic (panicHook) and checks
// that the panic is an error naming that file, with the stack trace only
// under safe.TraceEnv, and that the other files, and later reads, go on.
func TestPanicBecomesError(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, f := range []string{aiperfFixture, "testdata/synthetic/synthetic_sglang_modern.jsonl", "../examples/trials.csv"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, string(rune('a'+i))+"_"+filepath.Base(f))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, victim := range paths {
		t.Run(filepath.Base(victim), func(t *testing.T) {
			panicHook = func(name string) {
				if name == victim {
					panic("injected failure")
				}
			}
			defer func() { panicHook = nil }()
			all, err := Load(paths, LoadOptions{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			want := "internal error reading " + victim + ": injected failure (a bug in pareto: please report it; PARETO_PANIC_TRACE=1 adds the stack trace)"
			if len(all.Skipped) != 1 || all.Skipped[0].Reason != want || all.Skipped[0].Code != SkipError {
				t.Fatalf("skips %+v; want one: %q", all.Skipped, want)
			}
			var ie *safe.InternalError
			if _, err := ReadFile(victim); !errors.As(err, &ie) {
				t.Errorf("ReadFile: %v; want a *safe.InternalError", err)
			}
			t.Setenv(safe.TraceEnv, "1")
			if _, err := ReadFile(victim); err == nil || !strings.Contains(err.Error(), "\ngoroutine ") {
				t.Errorf("with %s set: %.200v; want the stack trace", safe.TraceEnv, err)
			}
			panicHook = nil
			again, err := Load(paths, LoadOptions{Workers: 2})
			if err != nil || len(again.Skipped) != 0 || len(again.Trials) <= len(all.Trials) {
				t.Errorf("after the panic: %d trials (%d with it), skips %v, %v", len(again.Trials), len(all.Trials), again.Skipped, err)
			}
		})
	}
}

// TestUTF16Inputs reads result files written in UTF-16 (both byte orders,
// with and without a byte-order mark; a large one streamed) as the UTF-8
// files they transcode to.
func TestUTF16Inputs(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{aiperfFixture, "testdata/synthetic/synthetic_profile_export_genai_perf.csv",
		"testdata/sglang/datacrunch_2024-12_llama_405b_online_output.jsonl", "testdata/vllm/surajssd_llama33-70b_tp8_qps_01.json",
		"../examples/trials.csv"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, filepath.Base(f))
		read := func(b []byte) []string {
			t.Helper()
			if err := os.WriteFile(name, b, 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := Load([]string{name}, LoadOptions{})
			if err != nil || len(d.Skipped) > 0 || len(d.Trials) == 0 {
				t.Fatalf("%s: %d trials, skips %v, %v", f, len(d.Trials), d.Skipped, err)
			}
			var out []string
			for i := range d.Trials {
				b, _ := json.Marshal(&d.Trials[i])
				out = append(out, string(b))
			}
			return out
		}
		want := read(data)
		for _, enc := range []struct {
			name    string
			big, bo bool
		}{{"LE with BOM", false, true}, {"BE with BOM", true, true}, {"LE", false, false}, {"BE", true, false}} {
			if got := read(toUTF16(data, enc.big, enc.bo)); !slices.Equal(got, want) {
				t.Errorf("%s in UTF-16 %s: trials differ from the UTF-8 file's", f, enc.name)
			}
		}
	}
}

func toUTF16(b []byte, bigEndian, bom bool) []byte {
	units := utf16.Encode([]rune(string(b)))
	if bom {
		units = append([]uint16{0xfeff}, units...)
	}
	out := make([]byte, 0, 2*len(units))
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// TestErrorsQuoteLittle checks that no error message embeds kilobytes of
// its input, whatever the input holds where the error is.
func TestErrorsQuoteLittle(t *testing.T) {
	huge := strings.Repeat("é", 64<<10)
	for _, in := range []string{
		`{"aiperf_version": "1", "` + huge + `": {"unit": "ms", "avg": [}`,    // a syntax error within a huge member
		`{"aiperf_version": "1", "x": {"unit": "ms", "avg": "` + huge + `"}}`, // a huge non-number
		"Metric,avg\r\nx (ms)," + huge + "\r\n\r\nMetric,Value\r\nRequest Count,1\r\n",
		`{"completed": 1, "duration": "` + huge + `"}`,
	} {
		_, err := ReadBytes([]byte(in), "profile_export_aiperf.json")
		if err == nil || len(err.Error()) > 300 {
			t.Errorf("error of %d bytes: %.300v", len(err.Error()), err)
		}
	}
	_ = trial.Trial{}
}
