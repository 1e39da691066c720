package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCommands mutates real result files and generic tables and runs the
// reading commands on each mutant in-process: ingest, front with and
// without repeats, report and pick (the store's own tests cover storing). Whatever the bytes, a command
// must end with an exit status (0, 1, 2 or 3) and no panic; an exit status
// of 1 must say why on stderr.
func FuzzCommands(f *testing.F) {
	for _, p := range []string{
		"../../ingest/testdata/vllm/surajssd_llama33-70b_tp8_qps_04.json",
		"../../ingest/testdata/aiperf/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json",
		"../../examples/trials.csv",
	} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		in := filepath.Join(dir, "in")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"ingest", in, "--format", "json"},
			{"front", in, "-o", "ttft.p99", "-o", "output_token_throughput", "--format", "json"},
			{"front", in, "-o", "ttft_p99_ms:min", "-o", "output_tps:max", "--config-key", "engine", "--slo", "ttft_p99_ms<=400"},
			{"report", in, "-x", "ttft.p99", "-y", "output_token_throughput", "--out", filepath.Join(dir, "p.html")},
			{"pick", in, "--maximize", "output_token_throughput", "--slo", "ttft.p99<=500", "--format", "json"},
		} {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
			if code < 0 || code > 3 {
				t.Fatalf("pareto %s: exit status %d", strings.Join(args, " "), code)
			}
			if code == 1 && stderr.Len() == 0 {
				t.Fatalf("pareto %s: exit status 1 with nothing on stderr", strings.Join(args, " "))
			}
		}
	})
}
