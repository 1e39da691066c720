package main

import (
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionOfBuiltBinary builds pareto as a user would (go build, VCS
// stamping on its default, auto) and checks that `pareto version` prints
// the revision the binary records, or "unknown revision" when it records
// none. From a clone (a .git directory and a working git) the record must
// be there and name the checked-out commit.
func TestVersionOfBuiltBinary(t *testing.T) {
	gobin, err := exec.LookPath("go") // go test puts GOROOT/bin first on PATH
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "pareto")
	// -buildvcs=auto on the command line overrides a GOFLAGS=-buildvcs=false
	// in the environment or go env: this is the default build.
	build := exec.Command(gobin, "build", "-buildvcs=auto", "-o", bin, "./cmd/pareto")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	rev := ""
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			rev = s.Value
		}
	}
	if head := cloneHead(repo); head != "" && rev != head {
		t.Errorf("built from a clone at %s, the binary records revision %q", head, rev)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("pareto version: %v", err)
	}
	got := strings.TrimSpace(string(out))
	want := "(unknown revision: built without version control information)"
	if rev != "" {
		want = "(revision " + rev + ", committed "
	}
	if !strings.HasPrefix(got, "pareto ") || !strings.Contains(got, want) {
		t.Errorf("pareto version = %q; want it to contain %q", got, want)
	}
	t.Log(got)
}

// cloneHead returns the commit checked out in repo when repo is a git
// clone Go stamps (a .git directory: Go does not stamp from a git
// worktree, whose .git is a file) and git can read it; otherwise "".
func cloneHead(repo string) string {
	if st, err := os.Stat(filepath.Join(repo, ".git")); err != nil || !st.IsDir() {
		return ""
	}
	cmd := exec.Command("git", "rev-parse", "HEAD")
	cmd.Dir = repo
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
