package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/trial"
)

// copyFile copies src to dst for a test.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadTwins: a folder with the JSON and CSV export of each of two real
// AIPerf runs gives one trial per run, from the JSON, and lists each CSV
// as the duplicate of its JSON; so does a GenAI-Perf folder of two runs
// (one directory per run, or both in one directory); a CloudAI aiperf_report.csv copy is a twin
// too, while the CSV of another run beside a JSON is kept (added once its
// directory is done, after the JSON).
func TestLoadTwins(t *testing.T) {
	const twinDir = "testdata/twins"
	other := t.TempDir()
	copyFile(t, twinDir+"/bare/profile_export_aiperf.json", filepath.Join(other, "cloudai/profile_export_aiperf.json"))
	copyFile(t, twinDir+"/bare/profile_export_aiperf.csv", filepath.Join(other, "cloudai/aiperf_report.csv"))
	copyFile(t, twinDir+"/bare/profile_export_aiperf.json", filepath.Join(other, "mixed/profile_export_aiperf.json"))
	copyFile(t, twinDir+"/operator/profile_export_aiperf.csv", filepath.Join(other, "mixed/profile_export_aiperf.csv"))
	const gp = "testdata/twins-genai-perf/llama-3-8b-openai-chat-concurrency"
	for _, n := range []string{"32", "64"} {
		for _, ext := range []string{".json", ".csv"} {
			copyFile(t, gp+n+"/profile_export_genai_perf"+ext, filepath.Join(other, "genai-perf-one-folder/c"+n+"_genai_perf"+ext))
		}
	}
	for _, c := range []struct {
		name, dir string
		trials    []string // format of each trial, with its file
		skips     []string // code and path of each skip, and the kept file
	}{
		{"two runs", twinDir,
			[]string{"aiperf-json bare/profile_export_aiperf.json", "aiperf-json operator/profile_export_aiperf.json"},
			[]string{"not_a_result twins/README.md ", "duplicate_of bare/profile_export_aiperf.csv bare/profile_export_aiperf.json",
				"duplicate_of operator/profile_export_aiperf.csv operator/profile_export_aiperf.json"}},
		{"genai-perf runs", "testdata/twins-genai-perf",
			[]string{"genai-perf-json llama-3-8b-openai-chat-concurrency32/profile_export_genai_perf.json",
				"genai-perf-json llama-3-8b-openai-chat-concurrency64/profile_export_genai_perf.json"},
			[]string{"not_a_result twins-genai-perf/README.md ",
				"duplicate_of llama-3-8b-openai-chat-concurrency32/profile_export_genai_perf.csv llama-3-8b-openai-chat-concurrency32/profile_export_genai_perf.json",
				"duplicate_of llama-3-8b-openai-chat-concurrency64/profile_export_genai_perf.csv llama-3-8b-openai-chat-concurrency64/profile_export_genai_perf.json"}},
		{"genai-perf runs in one folder", filepath.Join(other, "genai-perf-one-folder"),
			[]string{"genai-perf-json genai-perf-one-folder/c32_genai_perf.json", "genai-perf-json genai-perf-one-folder/c64_genai_perf.json"},
			[]string{"duplicate_of genai-perf-one-folder/c32_genai_perf.csv genai-perf-one-folder/c32_genai_perf.json",
				"duplicate_of genai-perf-one-folder/c64_genai_perf.csv genai-perf-one-folder/c64_genai_perf.json"}},
		{"cloudai copy", filepath.Join(other, "cloudai"),
			[]string{"aiperf-json cloudai/profile_export_aiperf.json"},
			[]string{"duplicate_of cloudai/aiperf_report.csv cloudai/profile_export_aiperf.json"}},
		{"another run's csv", filepath.Join(other, "mixed"),
			[]string{"aiperf-json mixed/profile_export_aiperf.json", "aiperf-csv mixed/profile_export_aiperf.csv"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, workers := range []int{1, 4} {
				var streamed int
				for _, each := range []bool{false, true} {
					opts := LoadOptions{Workers: workers}
					if each {
						opts.Each = func(ts []trial.Trial, _ *cloudai.Run) error { streamed += len(ts); return nil }
					}
					d, err := Load([]string{c.dir}, opts)
					if err != nil {
						t.Fatal(err)
					}
					if each {
						if streamed != len(c.trials) {
							t.Errorf("workers=%d Each: %d trials, want %d", workers, streamed, len(c.trials))
						}
					} else {
						var got []string
						for _, tr := range d.Trials {
							got = append(got, tr.Source.Format+" "+tail(tr.Source.Path))
						}
						if strings.Join(got, "\n") != strings.Join(c.trials, "\n") {
							t.Errorf("workers=%d trials:\n%s\nwant\n%s", workers, strings.Join(got, "\n"), strings.Join(c.trials, "\n"))
						}
					}
					var skips []string
					for _, s := range d.Skipped {
						kept := ""
						if i := strings.Index(s.Reason, "same run as "); i >= 0 {
							kept = tail(strings.Fields(s.Reason[i+len("same run as "):])[0])
							kept = strings.TrimSuffix(kept, ",")
						}
						skips = append(skips, s.Code+" "+tail(s.Path)+" "+kept)
					}
					if strings.Join(skips, "\n") != strings.Join(c.skips, "\n") {
						t.Errorf("workers=%d each=%v skips:\n%s\nwant\n%s", workers, each, strings.Join(skips, "\n"), strings.Join(c.skips, "\n"))
					}
				}
			}
		})
	}
}

// tail is the last two elements of a slash path.
func tail(p string) string {
	p = filepath.ToSlash(p)
	parts := strings.Split(p, "/")
	if len(parts) < 2 {
		return p
	}
	return strings.Join(parts[len(parts)-2:], "/")
}

// TestTwinsKeep: a JSON export is kept for the CSV exports of its
// directory only while one is pending or a file there that may be one
// (not .json or .jsonl) is still to come.
func TestTwinsKeep(t *testing.T) {
	var w twins
	w.expect([]string{"d1/a.json", "d1/b.csv", "d2/a.json", "d2/b.JSONL", "d3/a.json", "d3/notes.txt"})
	for dir, want := range map[string]bool{"d1": true, "d2": false, "d3": true, "d4": false} {
		if got := w.keep(dir); got != want {
			t.Errorf("keep(%s) = %v; want %v", dir, got, want)
		}
	}
	d := &Dataset{}
	d.twins = w
	d.addFileTwins("d1/b.csv", nil, nil, true) // read (here: empty), so no longer to come
	if d.twins.keep("d1") {
		t.Error("keep(d1) after its CSV = true; want false")
	}
	d.twins.pending = []twinFile{{path: "d2/c.csv"}}
	if !d.twins.keep("d2") {
		t.Error("keep(d2) with a pending CSV = false; want true")
	}
}

// TestLoadTwinAfterJSON: a CSV export read after the JSON export of the
// same run in its directory is still its duplicate (the JSON was kept for
// it).
func TestLoadTwinAfterJSON(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, "testdata/twins/bare/profile_export_aiperf.json", filepath.Join(dir, "run/a_profile_export_aiperf.json"))
	copyFile(t, "testdata/twins/bare/profile_export_aiperf.csv", filepath.Join(dir, "run/z_report.csv"))
	d, err := Load([]string{filepath.Join(dir, "run")}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Trials) != 1 || len(d.Skipped) != 1 || d.Skipped[0].Code != SkipDuplicate {
		t.Fatalf("%d trials, skipped %+v; want the JSON's trial and the CSV as its duplicate", len(d.Trials), d.Skipped)
	}
}
