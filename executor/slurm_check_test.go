package executor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSlurmTemplateChecked: a user template that could let a value reach
// the job's shell as code is refused when the executor is made, with the
// place named; one that quotes every value is accepted.
func TestSlurmTemplateChecked(t *testing.T) {
	const head = "#!/bin/sh\n#SBATCH --chdir=\"{{.Dir}}\"\n#SBATCH --partition={{or .Partition \"gpu\"}}\n"
	const tail = "{{range .Env}}export {{.Name}}={{quote .Value}}\n{{end}}cd {{quote .Dir}} || exit 1\n"
	for _, tt := range []struct {
		name, body, want string
	}{
		{"quoted", tail + "exec /bin/sh -c {{quote .Command}}\n", ""},
		{"piped to quote", tail + "exec /bin/sh -c {{.Command | quote}}\n", ""},
		{"id in a comment", "# trial {{.ID}}\n" + tail + "exec /bin/sh -c {{quote .Command}}\n", ""},
		{"command raw", tail + "exec /bin/sh -c {{.Command}}\n", ":6:18: {{.Command}} must be printed with quote"},
		{"command raw in a comment", "# {{.Command}}\n" + tail, "{{.Command}} must be printed with quote"},
		{"command through printf", tail + "{{printf \"%s\" .Command}}\n", "must be printed with quote"},
		{"value raw", "{{range .Env}}export {{.Name}}=\"{{.Value}}\"\n{{end}}", "{{.Value}} must be printed with quote"},
		{"dir raw", "cd \"{{.Dir}}\"\n", "{{.Dir}} must be printed with quote ({{quote .Dir}}) outside a comment"},
		{"dot in a range", "{{range .Env}}export {{.}}\n{{end}}", "prints a value that may be text"},
		{"quote inside double quotes", tail + "exec /bin/sh -c \"{{quote .Command}}\"\n", "a quoted value is inside double quotes"},
		{"quote in a here-document", tail + "sh <<EOF\n{{quote .Command}}\nEOF\n", "a quoted value is in a here-document"},
		{"raw field in a here-document", "cat <<EOF\n#{{.Dir}}\nEOF\n", "without quote is in a here-document"},
		{"unclosed quote", tail + "echo 'x\n", "' is not closed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "site.tmpl")
			if err := os.WriteFile(path, []byte(head+tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := NewSlurm(SlurmConfig{Template: path, Sbatch: "true", Squeue: "true", Sacct: "true", Scontrol: "true", Scancel: "true"})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("NewSlurm = %v; want it accepted", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path)):
				t.Errorf("NewSlurm = %v; want an error naming %s and %q", err, path, tt.want)
			}
		})
	}
}

// TestSlurmScriptHostile renders the default script for a job whose
// command, environment and ID hold shell syntax, and runs it with /bin/sh
// (as a batch job's shell would, #SBATCH lines being comments): nothing
// runs, the environment variable and the command arrive literally.
func TestSlurmScriptHostile(t *testing.T) {
	s := scriptOnly(t, SlurmConfig{})
	dir := t.TempDir()
	value := "a'b\"c $(touch PWN) `touch PWN`\n; touch PWN"
	script, err := s.Script(Job{ID: "7", Command: `printf '%s' "$V" > v.txt`, Dir: dir, Env: []string{"V=" + value}})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("/bin/sh", "-c", string(script)).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, script)
	}
	if _, err := os.Stat(filepath.Join(dir, "PWN")); err == nil {
		t.Errorf("the script ran a value:\n%s", script)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "v.txt")); string(b) != value {
		t.Errorf("the job got %q; want %q", b, value)
	}
	if _, err := s.Script(Job{ID: "7\ntouch PWN", Command: "true", Dir: dir}); err == nil {
		t.Errorf("a job ID with a newline was accepted")
	}
}
