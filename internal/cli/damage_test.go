package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCloudAIDamagedAIPerfJSON damages the AIPerf JSON export of one phase
// of the example CloudAI tree in 15 ways and checks that the damage is
// reported, never replaced by the phase's CSV summary: ingest and front
// exit 1 and name the file (with its position when the JSON is cut short
// or malformed), --keep-going exits 0 with the other runs read; and that a
// phase whose JSON is absent is measured from its CSV with a warning.
func TestCloudAIDamagedAIPerfJSON(t *testing.T) {
	const rel = "results/test.disagg.single-node/0/aiperf_artifacts/round_1/profile_export_aiperf.json"
	orig, err := os.ReadFile(filepath.Join("..", "..", "examples", "cloudai", rel))
	if err != nil {
		t.Fatal(err)
	}
	n := len(orig)
	damages := map[string][]byte{"emptied": {}, "whitespace only": []byte("\n  \n"), "a lone brace": []byte("{"),
		"not JSON": []byte("Traceback (most recent call last):\n"), "an array": []byte("[1, 2, 3]\n"),
		"garbage after": append(append([]byte{}, orig...), []byte("}}garbage")...),
		"NUL bytes":     append(append([]byte{}, orig[:n/2]...), make([]byte, 64)...)}
	for _, frac := range []int{1, 5, 10, 25, 50, 75, 90, 99} {
		damages[fmt.Sprintf("cut at %d%%", frac)] = orig[:n*frac/100]
	}
	if len(damages) != 15 {
		t.Fatalf("%d damages; want 15", len(damages))
	}
	position := regexp.MustCompile(regexp.QuoteMeta("profile_export_aiperf.json") + `(:\d+:\d+)?`)
	for name, data := range damages {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, "examples/cloudai", dir)
			if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
				t.Fatal(err)
			}
			results, system := filepath.Join(dir, "results"), filepath.Join(dir, "system.toml")
			store := filepath.Join(t.TempDir(), "s.db")
			code, _, stderr := run(t, "ingest", results, "--system-config", system, "--store", store, "--study", "s")
			if code != 1 || !position.MatchString(stderr) || !strings.Contains(stderr, "round_1") {
				t.Errorf("ingest: exit %d, stderr:\n%s\nwant exit 1 naming round_1/profile_export_aiperf.json", code, stderr)
			}
			code, stdout, stderr := run(t, "front", results, "--system-config", system, "-o", "ttft.p50", "-o", "output_token_throughput", "--format", "json")
			if code != 1 || !strings.Contains(stderr, "profile_export_aiperf.json") || !strings.Contains(stdout, `"frontier"`) {
				t.Errorf("front: exit %d, stderr:\n%s\nwant exit 1 naming the file, with the other runs' frontier", code, stderr)
			}
			if code, _, stderr := run(t, "front", results, "--system-config", system, "-o", "ttft.p50", "-o", "output_token_throughput", "--keep-going"); code != 0 {
				t.Errorf("front --keep-going: exit %d, stderr:\n%s", code, stderr)
			}
		})
	}
	t.Run("absent", func(t *testing.T) {
		dir := t.TempDir()
		copyTree(t, "examples/cloudai", dir)
		if err := os.Remove(filepath.Join(dir, rel)); err != nil {
			t.Fatal(err)
		}
		store := filepath.Join(t.TempDir(), "s.db")
		if code, _, stderr := run(t, "ingest", filepath.Join(dir, "results"), "--system-config", filepath.Join(dir, "system.toml"), "--store", store, "--study", "s"); code != 0 {
			t.Fatalf("ingest: exit %d, stderr:\n%s", code, stderr)
		}
		code, stdout, stderr := run(t, "trials", "--store", store, "--study", "s", "--format", "jsonl")
		if code != 0 || !strings.Contains(stdout, "round_1/profile_export_aiperf.json absent: measured from") {
			t.Errorf("trials: exit %d, stderr:\n%s\nwant the CSV's trial with a warning that the JSON is absent", code, stderr)
		}
	})
}
