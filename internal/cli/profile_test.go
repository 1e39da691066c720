package cli

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileFlags runs front with the hidden --cpuprofile and
// --memprofile and reads both back as gzipped pprof profiles of the kind
// asked for; a profile that cannot be written fails the command before
// it runs, naming the flag and the path; --help does not list them.
func TestProfileFlags(t *testing.T) {
	dir := writeFiles(t, map[string]string{"t.csv": "id,ttft,tps\na,1,5\nb,2,9\nc,3,1\n"})
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	code, out, errs := run(t, "front", filepath.Join(dir, "t.csv"), "-o", "ttft:min", "-o", "tps:max",
		"--cpuprofile", cpu, "--memprofile", mem)
	if code != exitOK || !strings.Contains(out, "2 on the frontier") {
		t.Fatalf("front with profiles: status %d, stdout %q, stderr %q", code, out, errs)
	}
	for path, want := range map[string]string{cpu: "nanoseconds", mem: "inuse_space"} {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: not a gzipped pprof profile: %v", path, err)
		}
		pb, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !bytes.Contains(pb, []byte(want)) { // the profile's sample type, in its string table
			t.Errorf("%s: %d bytes of profile without %q", path, len(pb), want)
		}
	}

	bad := filepath.Join(dir, "no-such-dir", "cpu.pprof")
	code, out, errs = run(t, "front", filepath.Join(dir, "t.csv"), "-o", "ttft:min", "--cpuprofile", bad)
	if code != exitFailure || out != "" || !strings.Contains(errs, "--cpuprofile") || !strings.Contains(errs, bad) {
		t.Errorf("unwritable --cpuprofile: status %d, stdout %q, stderr %q; want 1, nothing, the flag and path", code, out, errs)
	}
	code, out, errs = run(t, "front", filepath.Join(dir, "t.csv"), "-o", "ttft:min", "--memprofile", bad)
	if code != exitFailure || !strings.Contains(out, "on the frontier") || !strings.Contains(errs, "--memprofile") || !strings.Contains(errs, bad) {
		t.Errorf("unwritable --memprofile: status %d, stdout %q, stderr %q; want 1 after the frontier, the flag and path", code, out, errs)
	}

	_, out, _ = run(t, "--help")
	if strings.Contains(out, "profile") {
		t.Errorf("--help lists the hidden profile flags:\n%s", out)
	}
}
