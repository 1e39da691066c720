package executor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// scriptOnly returns a Slurm executor whose commands are /bin/true: it
// renders scripts and never submits.
func scriptOnly(t *testing.T, cfg SlurmConfig) *Slurm {
	t.Helper()
	cfg.Sbatch, cfg.Squeue, cfg.Sacct, cfg.Scontrol, cfg.Scancel = "true", "true", "true", "true", "true"
	s, err := NewSlurm(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSlurmScript(t *testing.T) {
	s := scriptOnly(t, SlurmConfig{Defaults: Resources{Partition: "gpu", Account: "llm", TimeLimit: 2 * time.Hour}})
	job := Job{
		ID:      "study/7",
		Command: `vllm serve --tp "$PARETO_PARAM_TP" && echo it's done`,
		Dir:     "/scratch/trials/7/",
		Env:     []string{"PARETO_PARAM_TP=4", "PARETO_TRIAL=it's 7", "EMPTY="},
		Resources: Resources{
			Nodes: 2, GPUsPerNode: 4, TimeLimit: 90*time.Minute + time.Second, Account: "other",
		},
	}
	got, err := s.Script(job)
	if err != nil {
		t.Fatal(err)
	}
	want := `#!/bin/sh
#SBATCH --job-name=pareto-study_7
#SBATCH --chdir="/scratch/trials/7"
#SBATCH --output="/scratch/trials/7/slurm-%j.out"
#SBATCH --error="/scratch/trials/7/slurm-%j.err"
#SBATCH --nodes=2
#SBATCH --gpus-per-node=4
#SBATCH --time=0-01:31:00
#SBATCH --partition=gpu
#SBATCH --account=other
# Written by pareto: trial study/7.
export PARETO_PARAM_TP='4'
export PARETO_TRIAL='it'\''s 7'
export EMPTY=''
cd '/scratch/trials/7' || exit 1
exec /bin/sh -c 'vllm serve --tp "$PARETO_PARAM_TP" && echo it'\''s done'
`
	if string(got) != want {
		t.Errorf("script:\n%s\nwant:\n%s", got, want)
	}
	// The script is valid sh and exports what it says.
	if out, err := exec.Command("/bin/sh", "-n", "-c", string(got)).CombinedOutput(); err != nil {
		t.Errorf("sh -n: %v: %s", err, out)
	}

	// A relative Dir is made absolute.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := scriptOnly(t, SlurmConfig{}).Script(Job{ID: "r", Command: "true", Dir: "trials/r"})
	if want := "#SBATCH --chdir=\"" + filepath.Join(wd, "trials/r") + "\"\n"; err != nil || !strings.Contains(string(rel), want) {
		t.Errorf("script for a relative Dir = %s, %v; want %q", rel, err, want)
	}

	// No resources: no #SBATCH line for them.
	bare, err := scriptOnly(t, SlurmConfig{}).Script(Job{ID: "1", Command: "true", Dir: "/tmp/x"})
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []string{"--nodes", "--gpus-per-node", "--gres", "--time", "--partition", "--account"} {
		if strings.Contains(string(bare), opt) {
			t.Errorf("script without resources asks for %s:\n%s", opt, bare)
		}
	}
}

func TestSlurmScriptOptions(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  SlurmConfig
		res  Resources
		want string
	}{
		{"gres", SlurmConfig{GPUOption: "gres"}, Resources{GPUsPerNode: 8}, "#SBATCH --gres=gpu:8\n"},
		{"gpus-per-node", SlurmConfig{GPUOption: "gpus-per-node"}, Resources{GPUsPerNode: 1}, "#SBATCH --gpus-per-node=1\n"},
		{"seconds round up to a minute", SlurmConfig{}, Resources{TimeLimit: time.Second}, "#SBATCH --time=0-00:01:00\n"},
		{"days", SlurmConfig{}, Resources{TimeLimit: 49 * time.Hour}, "#SBATCH --time=2-01:00:00\n"},
		{"prefix", SlurmConfig{JobNamePrefix: "tune."}, Resources{}, "#SBATCH --job-name=tune.j\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := scriptOnly(t, tt.cfg).Script(Job{ID: "j", Command: "true", Dir: "/tmp/j", Resources: tt.res})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(got), tt.want) {
				t.Errorf("script:\n%s\nwant a line %q", got, tt.want)
			}
		})
	}
}

func TestSlurmScriptErrors(t *testing.T) {
	s := scriptOnly(t, SlurmConfig{})
	for _, tt := range []struct {
		name string
		job  Job
		want string
	}{
		{"no dir", Job{ID: "a"}, "no Dir"},
		{"quote in dir", Job{ID: "b", Dir: `/tmp/"b`}, "holds a newline or a double quote"},
		{"newline in partition", Job{ID: "c", Dir: "/tmp/c", Resources: Resources{Partition: "gpu\n#SBATCH --x"}}, "Partition"},
		{"bad env name", Job{ID: "d", Dir: "/tmp/d", Env: []string{"A-B=1"}}, `environment entry "A-B=1"`},
		{"env without =", Job{ID: "e", Dir: "/tmp/e", Env: []string{"PATH"}}, `environment entry "PATH"`},
		{"negative", Job{ID: "f", Dir: "/tmp/f", Resources: Resources{Nodes: -1}}, "negative resources"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Script(tt.job)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "job "+tt.job.ID) {
				t.Errorf("Script = %v; want an error naming job %s and %q", err, tt.job.ID, tt.want)
			}
		})
	}
}

func TestNewSlurmErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tmpl")
	if err := os.WriteFile(bad, []byte("#!/bin/sh\n\n{{if .Nodes}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(dir, "unknown.tmpl")
	if err := os.WriteFile(unknown, []byte("#!/bin/sh\n{{.GPUs}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tools := SlurmConfig{Sbatch: "true", Squeue: "true", Sacct: "true", Scontrol: "true", Scancel: "true"}
	for _, tt := range []struct {
		name string
		cfg  func(c *SlurmConfig)
		want string
	}{
		{"missing sbatch", func(c *SlurmConfig) { c.Sbatch = filepath.Join(dir, "sbatch") }, "sbatch"},
		{"template syntax", func(c *SlurmConfig) { c.Template = bad }, bad + ":3:"},
		{"no template", func(c *SlurmConfig) { c.Template = filepath.Join(dir, "none.tmpl") }, "none.tmpl"},
		{"gpu option", func(c *SlurmConfig) { c.GPUOption = "gpu" }, `GPU option "gpu"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tools
			tt.cfg(&cfg)
			if _, err := NewSlurm(cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewSlurm = %v; want an error containing %q", err, tt.want)
			}
		})
	}
	// A field the data does not have fails at Start (Script), naming it.
	cfg := tools
	cfg.Template = unknown
	s, err := NewSlurm(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Script(Job{ID: "x", Dir: "/tmp/x"}); err == nil || !strings.Contains(err.Error(), "GPUs") {
		t.Errorf("Script with {{.GPUs}} = %v; want an error naming the field", err)
	}
}

// TestReadmeTemplate renders the site template docs/SLURM.md shows.
func TestReadmeTemplate(t *testing.T) {
	b, err := os.ReadFile("../docs/SLURM.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```text\n#!/bin/bash\n#SBATCH --job-name")
	tmpl, _, ok2 := strings.Cut(rest, "```\n")
	if !ok || !ok2 {
		t.Fatal("docs/SLURM.md: no site template (a text block starting #!/bin/bash, #SBATCH --job-name)")
	}
	path := filepath.Join(t.TempDir(), "site.sbatch.tmpl")
	if err := os.WriteFile(path, []byte("#!/bin/bash\n#SBATCH --job-name"+tmpl), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := scriptOnly(t, SlurmConfig{Template: path}).Script(Job{ID: "t1", Command: "run it", Dir: "/tmp/t1", Env: []string{"PARETO_TRIAL=t1"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--partition=gpu\n", "--gres=gpu:h100:8\n", "export PARETO_TRIAL='t1'\n", "exec /bin/sh -c 'run it'\n"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("docs/SLURM.md template renders:\n%s\nwant %q", got, want)
		}
	}
	if strings.Contains(string(got), "--time") {
		t.Errorf("docs/SLURM.md template asks for a time limit it was not given:\n%s", got)
	}
}

func TestSlurmBatchResources(t *testing.T) {
	s := scriptOnly(t, SlurmConfig{Defaults: Resources{Partition: "gpu"}})
	dir := t.TempDir()
	_, err := s.StartBatch(t.Context(), []Job{
		{ID: "a", Command: "true", Dir: filepath.Join(dir, "a")},
		{ID: "b", Command: "true", Dir: filepath.Join(dir, "b"), Resources: Resources{Partition: "gpu"}},
		{ID: "c", Command: "true", Dir: filepath.Join(dir, "c"), Resources: Resources{GPUsPerNode: 2}},
	})
	if err == nil || !strings.Contains(err.Error(), "job c") || !strings.Contains(err.Error(), "one set of resources") {
		t.Errorf("StartBatch with different resources = %v; want an error naming job c", err)
	}
	if hs, err := s.StartBatch(t.Context(), nil); hs != nil || err != nil {
		t.Errorf("StartBatch(nil) = %v, %v; want nothing", hs, err)
	}
}
