package executor

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
	"time"
)

// DefaultSlurmTemplate is the batch script Slurm submits a job as when
// SlurmConfig.Template names no file. A user template is a Go
// text/template over SlurmScript with the same functions (quote); it must
// run .Command in .Dir with .Env exported, as this one does. NewSlurm
// refuses a template that could let a value reach the shell as code:
// .Command and .Value must be printed with quote, the other text fields
// with quote or on a comment (#SBATCH) line, and quote's word must stand
// outside the template's own quotes, comments and here-documents.
const DefaultSlurmTemplate = `#!/bin/sh
#SBATCH --job-name={{.JobName}}
#SBATCH --chdir="{{.Dir}}"
#SBATCH --output="{{.Output}}"
#SBATCH --error="{{.Error}}"
{{- if .Nodes}}
#SBATCH --nodes={{.Nodes}}
{{- end}}
{{- if .GPUOption}}
#SBATCH {{.GPUOption}}
{{- end}}
{{- if .TimeLimit}}
#SBATCH --time={{.TimeLimit}}
{{- end}}
{{- if .Partition}}
#SBATCH --partition={{.Partition}}
{{- end}}
{{- if .Account}}
#SBATCH --account={{.Account}}
{{- end}}
# Written by pareto: trial {{.ID}}.
{{range .Env}}export {{.Name}}={{quote .Value}}
{{end -}}
cd {{quote .Dir}} || exit 1
exec /bin/sh -c {{quote .Command}}
`

// SlurmScript is what a batch script template is executed with. Values
// that go on #SBATCH lines hold no newline and no double quote (Start
// rejects such a job), so a template may put them in double quotes.
type SlurmScript struct {
	ID      string   // Job.ID
	JobName string   // the Slurm job name: JobNamePrefix and ID, letters, digits, '.', '_', '-'
	Dir     string   // Job.Dir, made absolute (the job may start in another folder)
	Output  string   // the stdout log: Dir/slurm-%j.out
	Error   string   // the stderr log: Dir/slurm-%j.err
	Command string   // Job.Command, to run with /bin/sh -c
	Env     []EnvVar // Job.Env, in order
	// Nodes and GPUsPerNode are the counts asked for, 0 when not.
	Nodes, GPUsPerNode int
	// GPUOption is the sbatch option asking for the GPUs
	// ("--gpus-per-node=4" or "--gres=gpu:4", after
	// SlurmConfig.GPUOption), empty when no GPU is asked for.
	GPUOption string
	// TimeLimit is the wall-clock limit in sbatch's --time format
	// (days-hours:minutes:seconds, whole minutes, rounded up), empty for
	// none; TimeLimitMinutes is the same in minutes.
	TimeLimit        string
	TimeLimitMinutes int
	Partition        string
	Account          string
}

// EnvVar is one environment variable a job's script exports.
type EnvVar struct{ Name, Value string }

var (
	envName       = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	jobNameUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]`)
)

// scriptFuncs are the functions a batch script template may call.
var scriptFuncs = template.FuncMap{"quote": ShellQuote}

// parseScriptTemplate parses a user's template file, or the default for
// an empty path.
func parseScriptTemplate(path string) (*template.Template, error) {
	if path == "" {
		t := template.Must(template.New("default").Funcs(scriptFuncs).Parse(DefaultSlurmTemplate))
		return t, checkScriptTemplate(t, "default")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("executor: slurm template: %w", err)
	}
	t, err := template.New(path).Funcs(scriptFuncs).Option("missingkey=error").Parse(string(b))
	if err != nil {
		return nil, fmt.Errorf("executor: slurm template: %w", err)
	}
	if err := checkScriptTemplate(t, path); err != nil {
		return nil, err
	}
	return t, nil
}

// slurmTime formats d as sbatch's --time: whole minutes rounded up, as
// days-hours:minutes:seconds.
func slurmTime(d time.Duration) (s string, minutes int) {
	if d <= 0 {
		return "", 0
	}
	minutes = int(math.Ceil(d.Minutes()))
	return fmt.Sprintf("%d-%02d:%02d:00", minutes/(24*60), minutes/60%24, minutes%60), minutes
}

// script builds the template's data for j with its resources r (the
// config's defaults already applied).
func (s *Slurm) script(j Job, r Resources) (SlurmScript, error) {
	if j.Dir == "" {
		return SlurmScript{}, fmt.Errorf("executor: slurm: job %s: no Dir", j.ID)
	}
	dir, err := filepath.Abs(j.Dir)
	if err != nil {
		return SlurmScript{}, fmt.Errorf("executor: slurm: job %s: %w", j.ID, err)
	}
	if r.Nodes < 0 || r.GPUsPerNode < 0 || r.TimeLimit < 0 {
		return SlurmScript{}, fmt.Errorf("executor: slurm: job %s: negative resources %+v", j.ID, r)
	}
	d := SlurmScript{
		ID:          j.ID,
		JobName:     jobNameUnsafe.ReplaceAllString(s.cfg.JobNamePrefix+j.ID, "_"),
		Dir:         dir,
		Command:     j.Command,
		Nodes:       r.Nodes,
		GPUsPerNode: r.GPUsPerNode,
		Partition:   r.Partition,
		Account:     r.Account,
	}
	d.Output = d.Dir + "/slurm-%j.out"
	d.Error = d.Dir + "/slurm-%j.err"
	d.TimeLimit, d.TimeLimitMinutes = slurmTime(r.TimeLimit)
	if r.GPUsPerNode > 0 {
		if s.cfg.GPUOption == "gres" {
			d.GPUOption = fmt.Sprintf("--gres=gpu:%d", r.GPUsPerNode)
		} else {
			d.GPUOption = fmt.Sprintf("--gpus-per-node=%d", r.GPUsPerNode)
		}
	}
	for field, v := range map[string]string{"ID": d.ID, "Dir": d.Dir, "Partition": d.Partition, "Account": d.Account} {
		if strings.ContainsAny(v, "\"\n\r\x00") {
			return SlurmScript{}, fmt.Errorf("executor: slurm: job %s: %s %q holds a newline or a double quote", j.ID, field, v)
		}
	}
	for _, kv := range j.Env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !envName.MatchString(name) {
			return SlurmScript{}, fmt.Errorf("executor: slurm: job %s: environment entry %q is not NAME=VALUE with a shell variable name", j.ID, kv)
		}
		d.Env = append(d.Env, EnvVar{name, value})
	}
	return d, nil
}

// render executes the template for d.
func (s *Slurm) render(d SlurmScript) ([]byte, error) {
	var b strings.Builder
	if err := s.tmpl.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("executor: slurm template: %w", err)
	}
	return []byte(b.String()), nil
}
