package field_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/field"
)

// TestPhrase checks each shape of message in the fields' own names and
// in a caller's (flag words: --NAME).
func TestPhrase(t *testing.T) {
	flag := func(f string) string { return "--" + strings.ReplaceAll(f, "_", "-") }
	for _, tt := range []struct {
		name      string
		err       *field.Error
		own, flag string
	}{
		{"required", field.Required("candidate"), "candidate is required", "--candidate is required"},
		{"one of", field.Required("maximize", "minimize"), "maximize or minimize is required", "--maximize or --minimize is required"},
		{"reason", &field.Error{Field: "min_repeats", Reason: "must be at least 1"}, "min_repeats must be at least 1", "--min-repeats must be at least 1"},
		{"others", &field.Error{Field: "max_runs", Reason: "must be at least %s", Others: []string{"min_repeats"}},
			"max_runs must be at least min_repeats", "--max-runs must be at least --min-repeats"},
		{"quoted value", field.Wrap("noise", "5percent", errors.New("not a percentage")), `noise "5percent": not a percentage`, `--noise "5percent": not a percentage`},
		{"invalid", field.Invalid("relax", "-3%", "is negative"), `relax "-3%" is negative`, `--relax "-3%" is negative`},
		{"plain value", &field.Error{Field: "baseline", Value: "role=x", Reason: "selects no trial"}, "baseline role=x selects no trial", "--baseline role=x selects no trial"},
		{"wrapped", &field.Error{Field: "where", Err: errors.New("bad condition")}, "where: bad condition", "--where: bad condition"},
		{"named err", &field.Error{Field: "slo", Value: "a<=x", Err: errors.New(`SLO "a<=x": bad bound`), Named: true}, `SLO "a<=x": bad bound`, `SLO "a<=x": bad bound`},
		{"named reason", &field.Error{Field: "command", Named: true, Reason: "pass 100%% of it with %s NAME", Others: []string{"pass_env"}},
			"pass 100% of it with pass_env NAME", "pass 100% of it with --pass-env NAME"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.own {
				t.Errorf("Error() = %q; want %q", got, tt.own)
			}
			if got := tt.err.Phrase(flag); got != tt.flag {
				t.Errorf("Phrase(flag) = %q; want %q", got, tt.flag)
			}
		})
	}
}

// TestAs finds a field error through wrapping, and its cause through it.
func TestAs(t *testing.T) {
	cause := errors.New("cause")
	err := fmt.Errorf("tune: %w", field.Wrap("pass_env", "X", cause))
	fe, ok := field.As(err)
	if !ok || fe.Field != "pass_env" || !errors.Is(err, cause) {
		t.Errorf("As(%v) = %+v, %v; want the pass_env error wrapping its cause", err, fe, ok)
	}
	if _, ok := field.As(cause); ok {
		t.Errorf("As(%v) found a field error", cause)
	}
}

// TestNamer keeps a field's own name without a Namer and spells it as
// the caller does with one.
func TestNamer(t *testing.T) {
	var own field.Namer
	flag := field.Namer(func(f string) string { return "--" + strings.ReplaceAll(f, "_", "-") })
	if got := own.Name("allow_cross_scope"); got != "allow_cross_scope" {
		t.Errorf("nil Namer: %q", got)
	}
	if got := flag.Name("allow_cross_scope"); got != "--allow-cross-scope" {
		t.Errorf("flag Namer: %q", got)
	}
}
