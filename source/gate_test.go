package source

import (
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/field"
)

// optunaFixture is the shipped study of the newest Optuna schema
// (optuna/testdata/README.md).
var optunaFixture = filepath.Join("..", "optuna", "testdata", "optuna-5.0.0.dev-serving-study.db")

// TestGateSpecOptuna checks that with an Optuna storage each side of a
// gate is its selection plus, to record, the study's trials of every
// configuration the selection matches (by trial number, parameter or
// user attribute), and that a path is no side.
func TestGateSpecOptuna(t *testing.T) {
	for _, tt := range []struct {
		name, candidate, baseline string
		// cand and base are the Optuna trial numbers of each side's source.
		cand, base []string
		field      string // the field at fault, when the spec is refused
	}{
		{name: "trial numbers", candidate: "optuna_trial=12", baseline: "optuna_trial=21",
			cand: []string{"12", "17", "18"}, base: []string{"1", "21", "22"}},
		{name: "params", candidate: "params.max_num_seqs=112", baseline: "params.max_num_seqs=48",
			cand: []string{"5", "12", "13", "17", "18", "19", "31", "39"}, base: []string{"35", "38"}},
		{name: "user attribute", candidate: "engine_version=0.11.0", baseline: "labels.engine_version=none",
			cand: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19",
				"20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32", "33", "34", "35", "36", "37", "38", "39"}},
		{name: "candidate is a path", candidate: optunaFixture, baseline: "optuna_trial=1", field: "candidate"},
		{name: "baseline is no selection", candidate: "optuna_trial=1", baseline: "tp", field: "baseline"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			spec := DefaultGate
			spec.Study, spec.Objectives, spec.Optuna = "judged", []string{"output_tps:max"}, optunaFixture
			spec.Candidate, spec.Baseline = []string{tt.candidate}, tt.baseline
			req, err := spec.Request(t.Context())
			if tt.field != "" {
				var fe *field.Error
				if !errors.As(err, &fe) || fe.Field != tt.field {
					t.Fatalf("Request = %v; want a field error on %s", err, tt.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, side := range []struct {
				sel  string
				got  []string
				want []string
			}{{req.Candidate.Selection.Raw, numbers(t, req.Candidate.Sources), tt.cand},
				{req.Baseline.Selection.Raw, numbers(t, req.Baseline.Sources), tt.base}} {
				if !slices.Equal(side.got, side.want) {
					t.Errorf("%s: trials %v; want %v", side.sel, side.got, side.want)
				}
			}
			if req.Candidate.Selection.Raw != tt.candidate || req.Baseline.Selection.Raw != tt.baseline {
				t.Errorf("selections %q, %q; want %q, %q", req.Candidate.Selection.Raw, req.Baseline.Selection.Raw, tt.candidate, tt.baseline)
			}
		})
	}
}

// numbers returns the Optuna trial numbers of a side's one source, in
// numeric order.
func numbers(t *testing.T, srcs []decide.Source) []string {
	t.Helper()
	if len(srcs) != 1 {
		t.Fatalf("%d sources; want 1", len(srcs))
	}
	var ns []int
	for _, tr := range srcs[0].Trials {
		n, err := strconv.Atoi(tr.Labels["optuna_trial"])
		if err != nil {
			t.Fatal(err)
		}
		ns = append(ns, n)
	}
	slices.Sort(ns)
	var out []string
	for _, n := range ns {
		out = append(out, strconv.Itoa(n))
	}
	return out
}
