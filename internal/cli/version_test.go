package cli

import (
	"bytes"
	"context"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLine(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	const rev = "aa04956d793a3241d8506608c73d0ebd8421ef3a"
	for _, tt := range []struct {
		name    string
		ldflags string // Version set with -ldflags -X
		bi      *debug.BuildInfo
		ok      bool
		want    string
	}{
		{"no build info", "", nil, false, "pareto devel (unknown revision: built without version control information)"},
		{"buildvcs=false", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true,
			"pareto devel (unknown revision: built without version control information)"},
		{"go install @v1.2.3", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true,
			"pareto v1.2.3 (unknown revision: built without version control information)"},
		{"clean clone", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201074920-aa04956d793a"},
			Settings: vcs("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-12-01T07:49:20Z", "vcs.modified", "false")}, true,
			"pareto v0.0.0-20261201074920-aa04956d793a (revision " + rev + ", committed 2026-12-01T07:49:20Z)"},
		{"modified tree", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201074920-aa04956d793a+dirty"},
			Settings: vcs("vcs.revision", rev, "vcs.time", "2026-12-01T07:49:20Z", "vcs.modified", "true")}, true,
			"pareto v0.0.0-20261201074920-aa04956d793a+dirty (revision " + rev + ", committed 2026-12-01T07:49:20Z, with uncommitted changes)"},
		{"ldflags version wins", "v2.0.0", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", rev)}, true, "pareto v2.0.0 (revision " + rev + ")"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			old := Version
			Version = tt.ldflags
			t.Cleanup(func() { Version = old })
			if got := versionLine(tt.bi, tt.ok); got != tt.want {
				t.Errorf("versionLine = %q; want %q", got, tt.want)
			}
		})
	}
}

// TestVersionFlag: pareto --version (and -v) prints what pareto version
// prints.
func TestVersionFlag(t *testing.T) {
	run := func(args ...string) string {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("pareto %s: exit status %d: %s", strings.Join(args, " "), code, stderr.String())
		}
		return stdout.String()
	}
	want := run("version")
	if !strings.HasPrefix(want, "pareto ") || !strings.HasSuffix(want, ")\n") {
		t.Fatalf("pareto version = %q", want)
	}
	for _, flag := range []string{"--version", "-v"} {
		if got := run(flag); got != want {
			t.Errorf("pareto %s = %q; want %q (pareto version)", flag, got, want)
		}
	}
	js := run("version", "--format", "json")
	validateOutput(t, "version", []byte(js))
	if !strings.HasPrefix(js, `{"version":"`) {
		t.Errorf("pareto version --format json = %q", js)
	}
}

// TestCompletion: pareto completion writes cobra's script for each shell,
// and the script's completion request names pareto's commands and flags.
func TestCompletion(t *testing.T) {
	for shell, want := range map[string]string{
		"bash":       "__start_pareto",
		"zsh":        "#compdef pareto",
		"fish":       "complete -c pareto",
		"powershell": "Register-ArgumentCompleter",
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), []string{"completion", shell}, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("pareto completion %s: exit status %d: %s", shell, code, stderr.String())
		}
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("pareto completion %s: no %q in\n%.300s", shell, want, stdout.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"__complete", "front", "--for"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("pareto __complete: exit status %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "--format\t") {
		t.Errorf("pareto __complete front --for = %q; want --format", stdout.String())
	}
}
