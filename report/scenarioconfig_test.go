package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// paretoTable is a [reports.pareto] table appended to real CloudAI files
// (the variants are written in the test; the fixtures stay as they are).
const paretoTable = `
[reports.pareto]
enable = true

[[reports.pareto.plots]]
name = "from the system"
x = { metric = "tpot", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
frontiers = [{ name = "agg", cases = ["vllm.agg.1node"] }]
`

// TestReadScenarioConfig checks CloudAI's precedence for a scenario
// report, on CloudAI's own vllm scenario and system TOMLs: the scenario's
// table, else a Slurm system's, else disabled.
func TestReadScenarioConfig(t *testing.T) {
	const conf = "../cloudai/testdata/conf/"
	scenario := read(t, conf+"experimental/vllm/test_scenario/vllm.toml")
	slurm := read(t, conf+"common/system/example_slurm_cluster.toml")
	k8s := read(t, conf+"common/system/kubernetes_cluster.toml")
	own := paretoTable[:strings.Index(paretoTable, "[[")] + `
[[reports.pareto.plots]]
name = "from the scenario"
x = { metric = "ttft", match = { statistic = "p99" } }
y = { metric = "output_token_throughput" }
`
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("scenario.toml", scenario)
	withOwn := write("scenario-own.toml", scenario+own)
	slurmSys := write("slurm.toml", slurm+paretoTable)
	slurmOff := write("slurm-off.toml", slurm+strings.Replace(paretoTable, "enable = true", "", 1))
	slurmBare := write("slurm-bare.toml", slurm)
	k8sSys := write("k8s.toml", k8s+paretoTable)
	badCase := write("slurm-bad.toml", slurm+strings.Replace(paretoTable, `"vllm.agg.1node"`, `"nope"`, 1))

	tests := []struct {
		name, scenario, system string
		from                   ConfigFrom
		file                   string
		enable                 bool
		plot                   string // the first plot's name, "" for none
		note                   string
	}{
		{"scenario wins over the system", withOwn, slurmSys, FromScenario, withOwn, true, "from the scenario", ""},
		{"scenario alone", withOwn, "", FromScenario, withOwn, true, "from the scenario", ""},
		{"slurm system", plain, slurmSys, FromSystem, slurmSys, true, "from the system", ""},
		{"slurm system, enable unset", plain, slurmOff, FromSystem, slurmOff, false, "from the system", ""},
		{"slurm system without a table", plain, slurmBare, FromDefault, plain, false, "", ""},
		{"kubernetes system", plain, k8sSys, FromDefault, plain, false, "", `scheduler is "kubernetes", and CloudAI reads reports from Slurm systems only`},
		{"no system", plain, "", FromDefault, plain, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ReadScenarioConfig(tt.scenario, tt.system)
			if err != nil {
				t.Fatal(err)
			}
			plot := ""
			if len(cfg.Plots) > 0 {
				plot = cfg.Plots[0].Name
			}
			if cfg.From != tt.from || cfg.File != tt.file || cfg.Enable != tt.enable || plot != tt.plot || cfg.Title != "vllm" {
				t.Errorf("got from=%s file=%s enable=%v plot=%q title=%q; want from=%s file=%s enable=%v plot=%q title=vllm",
					cfg.From, cfg.File, cfg.Enable, plot, cfg.Title, tt.from, tt.file, tt.enable, tt.plot)
			}
			if len(cfg.Cases) != 5 || cfg.Cases[1] != "vllm.agg.1node" {
				t.Errorf("cases = %v; want the scenario's 5 test ids", cfg.Cases)
			}
			note := strings.Join(cfg.Notes, "\n")
			if (tt.note == "") != (note == "") || !strings.Contains(note, tt.note) {
				t.Errorf("notes = %q; want %q", note, tt.note)
			}
		})
	}

	t.Run("system table errors name the system TOML", func(t *testing.T) {
		_, err := ReadScenarioConfig(plain, badCase)
		want := badCase + `:71:39: unknown case id "nope" (scenario test ids: vllm.disagg.4nodes, vllm.agg.1node, vllm.agg.2nodes, vllm.disagg.sync, vllm.disagg.async)`
		if err == nil || err.Error() != want {
			t.Errorf("err = %v; want %s", err, want)
		}
	})
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
