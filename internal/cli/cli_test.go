package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/pareto-llm/pareto/internal/schematest"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/report"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"pareto": func() { os.Exit(Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the command-line scenarios in testdata/script.
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", repo)             // scripts copy real fixtures from the repository's testdata
			env.Setenv("PYTHON", testenv.Python) // Debian's interpreter, the one python3-optuna installs into
			return nil
		},
		Condition: condition,
		Cmds:      map[string]func(*testscript.TestScript, bool, []string){"pagepoints": pagePoints, "schema": schemaCmd},
	})
}

// schemaCmd is the script command "schema NAME FILE": FILE (a JSON
// document, or one per line) must satisfy docs/schema/NAME.schema.json
// (internal/schematest), and be what enc.Write encodes of the typed
// result decoded from it (roundTrip).
func schemaCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: schema NAME FILE")
	}
	check := schematest.Check
	if !neg {
		check = roundTrip
	}
	err := check(args[0], []byte(ts.ReadFile(args[1])))
	switch {
	case err != nil && !neg:
		ts.Fatalf("%v", err)
	case err == nil && neg:
		ts.Fatalf("%s satisfies %s.schema.json", args[1], args[0])
	}
}

// pagePoints is the script command "pagepoints PAGE.html OUT": it writes
// the points a pareto.html embeds to OUT, one JSON object per line (the
// page stores them column by column), so that scripts can grep a point's
// fields together.
func pagePoints(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: pagepoints PAGE.html OUT")
	}
	html := ts.ReadFile(args[0])
	_, rest, ok := strings.Cut(html, `<script type="application/json" id="pareto-data">`)
	data, _, ok2 := strings.Cut(rest, "</script>")
	if !ok || !ok2 {
		ts.Fatalf("%s embeds no pareto-data", args[0])
	}
	var page report.Page
	if err := json.Unmarshal([]byte(data), &page); err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	var out strings.Builder
	for _, p := range page.Points {
		b, err := json.Marshal(p)
		ts.Check(err)
		out.Write(b)
		out.WriteByte('\n')
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(out.String()), 0o644))
}

// condition evaluates the scripts' own conditions. [optuna] holds when
// Debian's python3-optuna is installed; under CI its absence fails the
// script instead of skipping it.
func condition(cond string) (bool, error) {
	switch cond {
	case "optuna":
		if _, err := testenv.PythonModule("optuna"); err != nil {
			if testenv.CI() {
				return false, fmt.Errorf("CI=true but python3-optuna is not installed (scripts/deps.sh installs it): %v", err)
			}
			return false, nil
		}
		return true, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}
