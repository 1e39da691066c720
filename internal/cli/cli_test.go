package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/pareto-llm/pareto/internal/testenv"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"pareto": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
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
	})
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
