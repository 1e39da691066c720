package cli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/spf13/cobra"
)

// TestExitStatus checks the one mapping from how a command ended to the
// exit status, on a plain command and on gate, whose status 1 is a verdict.
func TestExitStatus(t *testing.T) {
	e := &env{}
	pick, gate := newPickCmd(e), newGateCmd(e)
	input := inputError{err: errors.New("bad.jsonl:2: invalid JSON")}
	for _, tt := range []struct {
		name string
		cmd  *cobra.Command
		err  error
		want int
	}{
		{"success", pick, nil, exitOK},
		{"usage", pick, usagef("--format: want text or json"), exitUsage},
		{"wrapped-usage", pick, fmt.Errorf("parsing: %w", usagef("bad")), exitUsage},
		{"cobra-usage", pick, errors.New("unknown flag: --bogus"), exitUsage},
		{"input", pick, input, exitFailure},
		{"untyped", pick, errors.New("disk full"), exitFailure},
		{"infeasible", pick, outcomeError{outcomeInfeasible, "no configuration meets every bound"}, exitFailure},
		{"no-command", nil, input, exitFailure},
		{"gate-admit", gate, nil, exitOK},
		{"gate-reject", gate, outcomeError{outcomeRejected, "candidate rejected"}, exitFailure},
		{"gate-inconclusive", gate, outcomeError{outcomeInconclusive, "inconclusive"}, exitInconclusive},
		{"gate-usage", gate, usagef("--study is required"), exitUsage},
		{"gate-input", gate, input, exitUsage},
		{"gate-untyped", gate, errors.New("disk full"), exitUsage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			name := "(no command)"
			if tt.cmd != nil {
				name = tt.cmd.Name()
			}
			if got := exitStatus(tt.cmd, tt.err); got != tt.want {
				t.Errorf("exitStatus(%s, %v) = %d; want %d", name, tt.err, got, tt.want)
			}
		})
	}
}
