package cloudai

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// Where a run's configuration comes from (Run.ConfigFrom).
const (
	// ConfigFromTestRun: the executed configuration CloudAI stored in the
	// run directory's test-run.toml.
	ConfigFromTestRun = "test-run.toml"
	// ConfigFromScenario: no test-run.toml; the scenario's test case merged
	// over the test TOML it names, with a DSE step's action from the
	// iteration's trajectory applied.
	ConfigFromScenario = "scenario"
)

// testRunFile is the executed configuration CloudAI writes per run.
const testRunFile = "test-run.toml"

// errTestUnknown marks a scenario case whose test TOML was not given.
var errTestUnknown = errors.New("which is not among the given test TOMLs (CloudAI's --tests-dir)")

// errNoScenario marks a run without test-run.toml in a walk without a
// scenario.
var errNoScenario = errors.New("test-run.toml not found, and no test scenario given: the executed configuration is unknown (CloudAI's reporter takes it from --test-scenario and --tests-dir)")

// damageError is a run file that is present but cannot be read (an
// unreadable, malformed or emptied test-run.toml): the run is excluded
// as damaged (ExcludeDamaged), which makes a reading command exit 1,
// not as a run that did not produce results.
type damageError struct{ err error }

func (e *damageError) Error() string { return e.err.Error() }
func (e *damageError) Unwrap() error { return e.err }

// runConfig is the configuration of one run and where it came from.
type runConfig struct {
	def TestDefinition
	// path is the test-run.toml, "" when the configuration comes from the
	// scenario.
	path string
	// caseID names the scenario case for messages when path is "".
	caseID string
	// nodes is the node count, 0 when unknown.
	nodes    int
	warnings []string
}

// source names the configuration in messages.
func (c *runConfig) source() string {
	if c.path != "" {
		return c.path
	}
	return fmt.Sprintf("scenario test %q", c.caseID)
}

// from returns the ConfigFrom* value of c.
func (c *runConfig) from() string {
	if c.path != "" {
		return ConfigFromTestRun
	}
	return ConfigFromScenario
}

// runConfig reads the run's test-run.toml, or without one builds the
// configuration from the scenario (when the walk has one).
func (w *walker) runConfig(p runPos) (*runConfig, error) {
	path := filepath.Join(p.dir, testRunFile)
	trd, err := ReadTestRun(path)
	switch {
	case err == nil:
		return fromTestRun(p, path, trd), nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, &damageError{err}
	case p.test == nil:
		return nil, errNoScenario
	}
	if ref := p.test.Ref(); ref != "" && w.opts.Tests[ref] == nil {
		return nil, fmt.Errorf("test-run.toml not found, and test case %q names test_name %q, %w", p.caseID, ref, errTestUnknown)
	}
	c, err := w.fromScenario(p)
	if err != nil {
		return nil, fmt.Errorf("test-run.toml not found, and the scenario's configuration is unusable: %w", err)
	}
	return c, nil
}

// fromTestRun is the executed configuration of a run.
func fromTestRun(p runPos, path string, trd *TestRunDetails) *runConfig {
	c := &runConfig{def: trd.TestDefinition, path: path, caseID: p.caseID}
	switch {
	case trd.NNodes > 0:
		c.nodes = trd.NNodes
	case len(trd.Nodes) > 0:
		c.nodes = len(trd.Nodes)
	default:
		if n, src, err := defaultNodes(&trd.TestDefinition); err == nil {
			c.nodes = n
			c.warnings = append(c.warnings, fmt.Sprintf("test-run.toml has no nnodes; using %d from %s", n, src))
		}
	}
	if p.step > 0 && trd.Step != 0 && trd.Step != p.step {
		c.warnings = append(c.warnings, fmt.Sprintf("test-run.toml says step %d but the directory is step %d", trd.Step, p.step))
	}
	return c
}

// fromScenario builds a run's configuration as CloudAI's reporter does
// without test-run.toml: the scenario entry merged over its test TOML; for
// a DSE step the step number comes from the directory and its swept values
// from the iteration's trajectory.
func (w *walker) fromScenario(p runPos) (*runConfig, error) {
	def, err := resolveDefinition(p.test, w.opts.Tests)
	if err != nil {
		return nil, err
	}
	c := &runConfig{def: def, caseID: p.caseID,
		warnings: []string{"no test-run.toml: parameters are the scenario's, not a record of the executed run"}}
	rt := ResolvedTest{ID: p.test.ID, Definition: def, NumNodes: p.test.NumNodes, Nodes: p.test.Nodes}
	if p.step > 0 {
		if n := w.applyStep(p, c); n > 0 {
			rt.NumNodes = int64(n)
		}
		rt.Definition = c.def
	}
	n, _, err := rt.ConfigNodes()
	if err != nil {
		c.warnings = append(c.warnings, fmt.Sprintf("node count unknown: %v", err))
		return c, nil
	}
	c.nodes = n
	return c, nil
}

// applyStep applies the trajectory action of p's DSE step to c and returns
// the step's NUM_NODES (0 when the action does not set it). A step that
// cannot be found keeps the scenario's sweep values, with a warning.
func (w *walker) applyStep(p runPos, c *runConfig) int {
	tr, ok := w.trajectories[p.iterDir]
	if !ok {
		tr.actions, tr.err = readTrajectory(p.iterDir)
		w.trajectories[p.iterDir] = tr
	}
	var reason string
	switch action, found := tr.actions[p.step]; {
	case tr.err != nil:
		reason = tr.err.Error()
	case tr.actions == nil:
		reason = "the iteration has no " + trajectoryCSV
	case !found:
		reason = fmt.Sprintf("%s has no step %d", trajectoryCSV, p.step)
	default:
		def := c.def
		def.CmdArgs, def.ExtraEnvVars = mergeTables(def.CmdArgs, nil), mergeTables(def.ExtraEnvVars, nil)
		n, err := applyAction(&def, action)
		if err == nil {
			c.def = def
			return n
		}
		reason = err.Error()
	}
	c.warnings = append(c.warnings, fmt.Sprintf("DSE step %d: swept values unknown (%s)", p.step, reason))
	return 0
}
