package testenv

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how Missing ended the test.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recorder) Skip(args ...any)                  { r.skip = fmt.Sprint(args...) }

func TestMissing(t *testing.T) {
	for _, tt := range []struct {
		ci        string
		wantFatal bool
	}{
		{"", false}, {"false", false}, {"0", false}, {"true", true}, {"1", true}, {"TRUE", true},
	} {
		t.Run("CI="+tt.ci, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			r := &recorder{TB: t}
			Missing(r, "no %s", "thing")
			if tt.wantFatal {
				if r.skip != "" || !strings.Contains(r.fatal, "CI=true but no thing") {
					t.Errorf("CI=%q: fatal %q, skip %q; want a failure naming the thing", tt.ci, r.fatal, r.skip)
				}
				return
			}
			if r.fatal != "" || r.skip != "no thing" {
				t.Errorf("CI=%q: fatal %q, skip %q; want a skip with the reason", tt.ci, r.fatal, r.skip)
			}
		})
	}
}

func TestPostgresURL(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv(PostgresEnv, "")
	r := &recorder{TB: t}
	PostgresURL(r)
	if !strings.Contains(r.skip, PostgresEnv+" is not set") {
		t.Errorf("unset %s: skip %q, fatal %q", PostgresEnv, r.skip, r.fatal)
	}
	t.Setenv(PostgresEnv, "postgres://h/db")
	if got := PostgresURL(t); got != "postgres://h/db" {
		t.Errorf("PostgresURL = %q; want postgres://h/db", got)
	}
}

// TestPythonModule checks that a folder named like the module in the
// working directory does not pass for it (this repository's optuna/ did).
func TestPythonModule(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("nosuchmodule_pareto", 0o755); err != nil {
		t.Fatal(err)
	}
	if v, err := PythonModule("nosuchmodule_pareto"); err == nil {
		t.Errorf("PythonModule(a folder in the working directory) = %q, nil; want an error", v)
	}
	if _, err := os.Stat(Python); err != nil {
		Missing(t, "no %s", Python)
	}
	v, err := PythonModule("json")
	if err != nil || v == "" {
		t.Errorf("PythonModule(json) = %q, %v; want its version", v, err)
	}
}

// TestAxeFromTarball reads axe.min.js out of an npm package tarball, and
// says which file it looked for when the tarball lacks it.
func TestAxeFromTarball(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
	}{{"package", "package/axe.min.js", "axe = {}"}, {"other", "package/README.md", ""}} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "axe-core-4.0.0.tgz")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			gz := gzip.NewWriter(f)
			tw := tar.NewWriter(gz)
			body := []byte("axe = {}")
			if err := tw.WriteHeader(&tar.Header{Name: tc.file, Mode: 0o644, Size: int64(len(body))}); err != nil {
				t.Fatal(err)
			}
			tw.Write(body)
			tw.Close()
			gz.Close()
			f.Close()
			got, err := axeFromTarball(path)
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), "package/axe.min.js") {
					t.Errorf("a tarball without axe.min.js: %q, %v", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("axeFromTarball = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
