package report

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
)

func TestConfigErrors(t *testing.T) {
	files := readArchive(t, "testdata/config_errors.txtar")
	want := map[string]string{}
	for _, f := range files {
		if name, ok := strings.CutSuffix(f.Name, ".want"); ok {
			want[name] = strings.TrimSpace(string(f.Data))
		}
	}
	for _, f := range files {
		name, ok := strings.CutSuffix(f.Name, ".toml")
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			_, err := ParseConfig(f.Name, f.Data)
			if err == nil {
				t.Fatalf("ParseConfig(%s) = nil error; want\n%s", f.Name, want[name])
			}
			if got := err.Error(); got != want[name] {
				t.Errorf("ParseConfig(%s) error:\n%s\nwant:\n%s", f.Name, got, want[name])
			}
		})
	}
}

type archiveFile struct {
	Name string
	Data []byte
}

// readArchive reads a txtar archive: "-- name --" lines start files.
func readArchive(t *testing.T, path string) []archiveFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var files []archiveFile
	for _, line := range strings.SplitAfter(string(data), "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "-- ") && strings.HasSuffix(trim, " --") && len(trim) > 6 {
			files = append(files, archiveFile{Name: trim[3 : len(trim)-3]})
			continue
		}
		if len(files) > 0 {
			files[len(files)-1].Data = append(files[len(files)-1].Data, line...)
		}
	}
	return files
}

func TestParseConfig(t *testing.T) {
	src := `name = "scn"
[[Tests]]
id = "a"
test_name = "vllm"
[[Tests]]
id = "b"
test_name = "sglang"

[reports.pareto]
enable = true

[[reports.pareto.plots]]
name = "Streaming latency vs throughput"
x = { metric = "tpot", match = { statistic = "median" }, log = true, noise = "5%" }
y = { metric = "output_token_throughput", direction = "minimize", min_improve = 0.02 }
frontiers = [{ name = "A", cases = ["a"], match = { phase = "round_1" } }, { name = "All", cases = [] }]
slo = [{ metric = "ttft", match = { statistic = "p99" }, max = 400 }]
group_by = "engine"
`
	cfg, err := ParseConfig("s.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Enable || cfg.Title != "scn" || !cmp.Equal(cfg.Cases, []string{"a", "b"}) {
		t.Errorf("cfg = enable %v title %q cases %v", cfg.Enable, cfg.Title, cfg.Cases)
	}
	p := cfg.Plots[0]
	if got := p.X.Label(); got != "tpot.p50" {
		t.Errorf("x label = %q; want tpot.p50", got)
	}
	if !p.X.Log || p.X.Noise != 0.05 || p.X.Direction != frontier.Minimize {
		t.Errorf("x = %+v", p.X)
	}
	if p.Y.Direction != frontier.Minimize || p.Y.MinImprove != 0.02 {
		t.Errorf("y = %+v", p.Y)
	}
	wantF := []FrontierSpec{
		{Name: "A", Cases: []string{"a"}, CasePos: []Pos{{Line: 16, Col: 37}}, Match: trial.Dims{{Key: "phase", Value: "round_1"}}, At: Pos{Line: 16, Col: 14}},
		{Name: "All", At: Pos{Line: 16, Col: 76}},
	}
	if d := cmp.Diff(wantF, p.Frontiers); d != "" {
		t.Errorf("frontiers (-want +got):\n%s", d)
	}
	if len(p.SLOs) != 1 || p.SLOs[0].Label() != "ttft.p99" || p.SLOs[0].Bound != 400 || p.SLOs[0].Op != frontier.LE {
		t.Errorf("slos = %+v", p.SLOs)
	}
	if p.GroupBy != "engine" {
		t.Errorf("group_by = %q", p.GroupBy)
	}
}

func TestScenarioDefaultsDisabled(t *testing.T) {
	src := "[[Tests]]\nid = \"a\"\ntest_name = \"t\"\n[reports.pareto]\n[[reports.pareto.plots]]\nname = \"p\"\nx = { metric = \"ttft\", match = { statistic = \"p99\" } }\ny = { metric = \"request_throughput\" }\n"
	cfg, err := ParseConfig("s.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Enable {
		t.Errorf("scenario without enable: Enable = true; want false (CloudAI default)")
	}
	if cfg.Plots[0].Frontiers[0].Name != "All" {
		t.Errorf("default frontier = %+v", cfg.Plots[0].Frontiers)
	}
}
