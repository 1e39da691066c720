package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run runs the command line in-process and returns its exit status and
// output.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(""), &out, &errs)
	return code, out.String(), errs.String()
}

// writeFiles writes name → content files into a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestIngestStorePanic makes storing one source panic (storeHook) and
// checks that ingest reports that source and stores the others.
func TestIngestStorePanic(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.csv": "id,ttft\na,1\n",
		"b.csv": "id,ttft\nb,2\n",
		"c.csv": "id,ttft\nc,3\n",
	})
	a, b, c := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv"), filepath.Join(dir, "c.csv")
	db := filepath.Join(dir, "runs.db")
	storeHook = func(src string) {
		if src == b {
			panic("injected store failure")
		}
	}
	defer func() { storeHook = nil }()
	code, out, errs := run(t, "ingest", a, b, c, "--study", "s", "--store", db)
	if code != exitFailure {
		t.Errorf("exit status %d; want %d", code, exitFailure)
	}
	want := "internal error storing " + b + ": injected store failure"
	if !strings.Contains(out, want) || !strings.Contains(errs, want) || !strings.Contains(out, "2 added") {
		t.Errorf("stdout:\n%s\nstderr:\n%s\nwant %q reported and 2 trials added", out, errs, want)
	}
	storeHook = nil
	_, out, _ = run(t, "trials", "--store", db, "--study", "s", "--format", "csv")
	if n := strings.Count(out, "\n"); n != 3 || !strings.Contains(out, a) || !strings.Contains(out, c) || strings.Contains(out, b) {
		t.Errorf("stored trials:\n%s\nwant those of %s and %s only", out, a, c)
	}
	// The source is stored once the bug is gone.
	if code, out, errs := run(t, "ingest", a, b, c, "--study", "s", "--store", db); code != exitOK || !strings.Contains(out, "1 added, 2 already present") {
		t.Errorf("again: exit %d\n%s%s", code, out, errs)
	}
}

// TestTerminalEscapes checks that names and values read from inputs reach
// the terminal with their control characters escaped: table outputs,
// warnings and errors.
func TestTerminalEscapes(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"t.csv":            "id,ttft,engine\n\x1b[2Jred\x1b[0m,1,\x1b]0;owned\x07\nb,2,x\n",
		"bad\x1b[31m.json": "{\"completed\": \x1b}",
	})
	code, frontOut, frontErrs := run(t, "front", filepath.Join(dir, "t.csv"), "-o", "ttft:min", "--group-by", "engine")
	if code != exitOK || !strings.Contains(frontOut, `\x1b[2Jred\x1b[0m`) || !strings.Contains(frontOut, `== group \x1b]0;owned\x07 ==`) {
		t.Errorf("front: exit %d\n%s%s", code, frontOut, frontErrs)
	}
	bad := filepath.Join(dir, "bad\x1b[31m.json")
	code, out, errs := run(t, "ingest", bad)
	if code != exitFailure || !strings.Contains(out, `bad\x1b[31m.json`) || !strings.Contains(errs, `bad\x1b[31m.json`) {
		t.Errorf("ingest: exit %d\n%s%s", code, out, errs)
	}
	for name, s := range map[string]string{"front stdout": frontOut, "front stderr": frontErrs, "ingest stdout": out, "ingest stderr": errs} {
		if strings.ContainsRune(s, 0x1b) || strings.ContainsRune(s, 0x07) {
			t.Errorf("%s holds a raw control character: %q", name, s)
		}
	}
}

// TestTruncatedCSV is the measured case: an AIPerf CSV cut at byte 374,
// in its request count (50 read as 5), is an error at the cut.
func TestTruncatedCSV(t *testing.T) {
	full, err := os.ReadFile("../../examples/cloudai/results/test.disagg.single-node/0/aiperf_artifacts/round_1/profile_export_aiperf.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := writeFiles(t, map[string]string{"profile_export_aiperf.csv": string(full[:374])})
	code, out, _ := run(t, "ingest", filepath.Join(dir, "profile_export_aiperf.csv"))
	if want := "profile_export_aiperf.csv:8:16: the last line ends without a line end: the file is truncated"; code != exitFailure || !strings.Contains(out, want) {
		t.Errorf("exit %d\n%s\nwant %q", code, out, want)
	}
}

// TestControlCharsInNames: a file whose name holds a newline, a carriage
// return or an escape sequence is named on one line of standard error,
// escaped, in the note of each input and in the summary of the inputs
// that could not be read: no line can pass for another input's or the
// command's.
func TestControlCharsInNames(t *testing.T) {
	real, err := os.ReadFile("../../ingest/testdata/vllm/surajssd_llama33-70b_tp8_qps_04.json")
	if err != nil {
		t.Fatal(err)
	}
	cut := string(real[:600]) // a truncated vLLM result: an error at its place
	dir := writeFiles(t, map[string]string{
		"good.json":           string(real),
		"new\nline.json":      cut,
		"cr\rpareto: ok.json": cut,
		"esc\x1b[31mred.json": cut,
	})
	code, _, stderr := run(t, "front", dir, "-o", "ttft.p99:min", "-o", "output_token_throughput:max")
	if code != 1 {
		t.Fatalf("exit %d; want 1 (inputs could not be read); stderr:\n%s", code, stderr)
	}
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if !strings.HasPrefix(line, "pareto front: ") && !strings.HasPrefix(line, "  "+dir) {
			t.Errorf("stderr line %q starts neither with the command's name nor with an input's; stderr:\n%s", line, stderr)
		}
		if strings.ContainsAny(line, "\r\x1b") {
			t.Errorf("stderr line %q holds a raw control character", line)
		}
	}
	for _, want := range []string{`new\nline.json`, `cr\rpareto: ok.json`, `esc\x1b[31mred.json`} {
		if strings.Count(stderr, want) < 2 {
			t.Errorf("stderr names %q fewer than twice (its note and the summary); stderr:\n%s", want, stderr)
		}
	}
}
