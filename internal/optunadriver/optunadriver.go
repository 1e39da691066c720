// Package optunadriver runs Optuna's NSGAIISampler in a Python process
// (nsga2.py, through its ask-and-tell interface) for the tests that compare
// pareto's samplers with it: search's comparison and tune's through the
// tuning loop. Optuna is Debian's python3-optuna; testenv.Optuna finds the
// interpreter, or skips (fails under CI) when it is missing.
package optunadriver

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/search"
)

//go:embed nsga2.py
var driver []byte

// Options are the settings of one Optuna study.
type Options struct {
	// Seed seeds the NSGAIISampler.
	Seed uint64
	// Budget is the number of trials asked.
	Budget int
	// Population is the sampler's population size.
	Population int
	// Objectives give the directions of the values Evaluate returns, in
	// their order.
	Objectives []frontier.Objective
}

// Evaluate measures trial i (from 0), whose parameters Optuna suggested
// as c: the objective values to tell it, or ok = false for a failed trial.
type Evaluate func(i int, c search.Config) (values []float64, ok bool)

// Run asks Optuna's NSGAIISampler for opts.Budget configurations of space
// with python (the interpreter testenv.Optuna returns), measuring each
// with eval, and fails t when the driver does. Parameters are suggested in
// the space's order, a conditional one only when its conditions hold
// (define-by-run); Optuna knows nothing of the space's constraints.
func Run(t testing.TB, python string, space *search.Space, opts Options, eval Evaluate) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "nsga2.py")
	if err := os.WriteFile(script, driver, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), python, "-I", script)
	cmd.Dir = "/" // isolated from this repository's optuna package
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	send := func(v any) {
		b, _ := json.Marshal(v)
		if _, err := fmt.Fprintf(stdin, "%s\n", b); err != nil {
			t.Fatalf("writing to the Optuna driver: %v\n%s", err, stderr.String())
		}
	}
	send(spec(space, opts))
	sc := bufio.NewScanner(stdout)
	for i := range opts.Budget {
		if !sc.Scan() {
			t.Fatalf("the Optuna driver stopped after %d trials: %v\n%s", i, sc.Err(), stderr.String())
		}
		var msg struct {
			Params search.Config `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("the Optuna driver said %q: %v", sc.Text(), err)
		}
		// Optuna's booleans and numbers are JSON's, as search.Config's.
		if values, ok := eval(i, msg.Params); ok {
			send(map[string]any{"values": values})
		} else {
			send(map[string]any{"failed": true})
		}
	}
	stdin.Close()
	io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the Optuna driver: %v\n%s", err, stderr.String())
	}
}

// spec is the driver's first line: the study and the space's parameters.
func spec(space *search.Space, opts Options) map[string]any {
	var params []map[string]any
	for _, p := range space.Params {
		q := map[string]any{"name": p.Name, "kind": p.Kind.String()}
		if p.Kind == search.Categorical {
			q["values"] = p.Values
		} else {
			q["low"], q["high"], q["log"] = p.Low, p.High, p.Log
			if p.Step > 0 && !(p.Kind == search.Int && p.Log) {
				q["step"] = p.Step
			}
		}
		var when [][]any
		for _, c := range p.When {
			when = append(when, []any{c.Param, c.Values})
		}
		if when != nil {
			q["when"] = when
		}
		params = append(params, q)
	}
	var dirs []string
	for _, o := range opts.Objectives {
		dirs = append(dirs, o.Direction.String())
	}
	return map[string]any{"seed": opts.Seed, "budget": opts.Budget, "population": opts.Population, "directions": dirs, "params": params}
}
