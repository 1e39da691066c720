//go:build linux

package ingest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// memoryHelperEnv names the file TestMemoryHelper reads in a child
// process of the test binary.
const memoryHelperEnv = "PARETO_TEST_MEMORY_READ"

// TestMemoryHelper is the child process of TestMemoryWideRecords: it reads
// the file named by $PARETO_TEST_MEMORY_READ as pareto ingest does and
// prints the outcome.
func TestMemoryHelper(t *testing.T) {
	path := os.Getenv(memoryHelperEnv)
	if path == "" {
		t.Skip("run by TestMemoryWideRecords")
	}
	d, err := Load([]string{path}, LoadOptions{})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	for _, s := range d.Skipped {
		fmt.Println("skipped:", s.Reason)
	}
	fmt.Println("trials:", len(d.Trials))
}

// maxRSS reads path in a child process and returns its peak resident
// size in bytes and its output.
func maxRSS(t *testing.T, path string) (int64, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), memoryHelperEnv+"="+path, "GOGC=100")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage")
	}
	return ru.Maxrss << 10, string(out) // KiB on Linux
}

// TestMemoryWideRecords: reading a record of many members or columns
// peaks at no more than the process's baseline (reading a small table)
// plus 10 times the largest record: a 27 MB JSON object of 10⁶ keys (a
// JSON array is no table, refused before it is read) and a CSV header line
// of 300,000 columns are refused at the first member or
// column over Limits.MaxColumns, with the position, before the row is
// held (they peaked at 1.6 GB and 597 MB).
func TestMemoryWideRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 33 MB of inputs")
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var obj bytes.Buffer
	obj.WriteByte('{')
	for i := range 1_000_000 {
		if i > 0 {
			obj.WriteByte(',')
		}
		fmt.Fprintf(&obj, `"metric_%07d": %d.25`, i, i%1000)
	}
	obj.WriteString("}\n")
	var csv bytes.Buffer
	for i := range 300_000 {
		if i > 0 {
			csv.WriteByte(',')
		}
		fmt.Fprintf(&csv, "column_name_%06d", i)
	}
	header := csv.Len()
	csv.WriteByte('\n')
	for i := range 300_000 {
		if i > 0 {
			csv.WriteByte(',')
		}
		fmt.Fprintf(&csv, "%d.5", i%10)
	}
	csv.WriteByte('\n')
	base, out := maxRSS(t, write("small.csv", []byte("id,ttft_ms\na,1\n")))
	if !strings.Contains(out, "trials: 1") {
		t.Fatalf("baseline read: %s", out)
	}
	for _, c := range []struct {
		name   string
		data   []byte
		record int // the largest record, in bytes
		want   string
	}{
		{"wide.json", obj.Bytes(), obj.Len(), "wide.json:1:"},
		{"wide.csv", csv.Bytes(), header, "wide.csv:1:"},
	} {
		t.Run("file="+c.name, func(t *testing.T) {
			peak, out := maxRSS(t, write(c.name, c.data))
			if !strings.Contains(out, c.want) || !strings.Contains(out, "over the limit") {
				t.Errorf("output %q; want the positioned limit error %s…", out, c.want)
			}
			bound := base + 10*int64(c.record)
			t.Logf("%s: record %d B, peak %d MiB, baseline %d MiB, bound %d MiB", c.name, c.record, peak>>20, base>>20, bound>>20)
			if peak > bound {
				t.Errorf("peak RSS %d MiB over the baseline %d MiB + 10 × the record (%d B) = %d MiB", peak>>20, base>>20, c.record, bound>>20)
			}
		})
	}
}
