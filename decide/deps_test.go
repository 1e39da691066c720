package decide

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDependencies checks that the decision library, the query pipeline,
// the comparisons and the report link no database driver, and the report,
// the comparisons and the query no reader; that decisions sit above the
// query and the vocabulary of repeats below both, and the store below the
// decisions: decisions take a store interface (Store), the query takes rows
// the source layer read, the report renders trials and results. It runs go list -deps on each package; store/all, which
// links both backends, shows that the check sees their drivers, and
// store itself links none (the backends are its subpackages).
func TestDependencies(t *testing.T) {
	drivers := []string{"github.com/jackc/pgx", "github.com/ncruces/go-sqlite3", "database/sql"}
	t.Run("store/all", func(t *testing.T) {
		deps := listDeps(t, "github.com/pareto-llm/pareto/store/all")
		for _, d := range drivers[:2] {
			if matching(deps, d) == "" {
				t.Errorf("store/all does not depend on %s; the check below could not see a driver", d)
			}
		}
	})
	for _, tt := range []struct {
		pkg       string
		forbidden []string
	}{
		{"github.com/pareto-llm/pareto/decide", append([]string{"github.com/pareto-llm/pareto/store", "github.com/pareto-llm/pareto/ingest"}, drivers...)},
		{"github.com/pareto-llm/pareto/report", append([]string{"github.com/pareto-llm/pareto/store", "github.com/pareto-llm/pareto/ingest",
			"github.com/pareto-llm/pareto/cloudai", "github.com/pareto-llm/pareto/source"}, drivers...)},
		{"github.com/pareto-llm/pareto/query", append([]string{"github.com/pareto-llm/pareto/store", "github.com/pareto-llm/pareto/ingest",
			"github.com/pareto-llm/pareto/cloudai", "github.com/pareto-llm/pareto/source", "github.com/pareto-llm/pareto/decide"}, drivers...)},
		{"github.com/pareto-llm/pareto/repeat", append([]string{"github.com/pareto-llm/pareto/store", "github.com/pareto-llm/pareto/ingest",
			"github.com/pareto-llm/pareto/query", "github.com/pareto-llm/pareto/decide"}, drivers...)},
		{"github.com/pareto-llm/pareto/store", append([]string{"github.com/pareto-llm/pareto/decide", "github.com/pareto-llm/pareto/query"}, drivers...)},
		{"github.com/pareto-llm/pareto/compare", append([]string{"github.com/pareto-llm/pareto/store", "github.com/pareto-llm/pareto/ingest",
			"github.com/pareto-llm/pareto/cloudai", "github.com/pareto-llm/pareto/source", "github.com/pareto-llm/pareto/report"}, drivers...)},
	} {
		t.Run(tt.pkg[strings.LastIndex(tt.pkg, "/")+1:], func(t *testing.T) {
			deps := listDeps(t, tt.pkg)
			for _, f := range tt.forbidden {
				if dep := matching(deps, f); dep != "" {
					t.Errorf("%s depends on %s (forbidden: %s)", tt.pkg, dep, f)
				}
			}
		})
	}
}

// TestInputsThroughSource checks that the commands and the MCP server
// read their inputs through package source: neither imports the readers
// (ingest) or CloudAI's configuration (cloudai) itself.
func TestInputsThroughSource(t *testing.T) {
	for _, pkg := range []string{"github.com/pareto-llm/pareto/internal/cli", "github.com/pareto-llm/pareto/mcpserver"} {
		imports := goList(t, "-f", "{{join .Imports \" \"}}", pkg)
		for _, f := range []string{"github.com/pareto-llm/pareto/ingest", "github.com/pareto-llm/pareto/cloudai"} {
			if slices.Contains(imports, f) {
				t.Errorf("%s imports %s: read inputs through package source", pkg, f)
			}
		}
		if !slices.Contains(imports, "github.com/pareto-llm/pareto/source") {
			t.Errorf("%s does not import source; the check could not see its imports", pkg)
		}
	}
}

// listDeps returns the packages pkg links (go list -deps, tests excluded).
func listDeps(t *testing.T, pkg string) []string {
	t.Helper()
	deps := goList(t, "-deps", pkg)
	if len(deps) == 0 || deps[len(deps)-1] != pkg {
		t.Fatalf("go list -deps %s listed %d packages, not ending with the package itself", pkg, len(deps))
	}
	return deps
}

// goList runs go list with args and returns the words it prints.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no go command in PATH: %v", err)
		}
		t.Skipf("SKIP: no go command in PATH (%v)", err)
	}
	out, err := exec.Command(goCmd, append([]string{"list"}, args...)...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return strings.Fields(string(out))
}

// matching returns the first of deps that is the package path prefix or
// lies under it ("github.com/jackc/pgx" matches ".../pgx/v5/pgconn"), or "".
func matching(deps []string, prefix string) string {
	for _, d := range deps {
		if d == prefix || strings.HasPrefix(d, prefix+"/") || strings.HasPrefix(d, prefix+"-") {
			return d
		}
	}
	return ""
}
