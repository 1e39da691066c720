package source

import (
	"context"
	"errors"
	"strings"

	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// Front answers q over spec's inputs: their rows (Rows), then query.Run.
// It returns the inputs that could not be read, the others answered; the
// error is Rows' or Run's.
func Front(ctx context.Context, spec Spec, q *query.Query) (*query.Result, []trial.Skip, error) {
	rows := query.NewRows(q)
	bad, err := Rows(ctx, spec, q, rows)
	if err != nil {
		return nil, bad, err
	}
	res, err := query.Run(q, rows)
	return res, bad, err
}

// TrialFilter parses conditions on a study's stored trials: KEY OP VALUE
// on labels, params, workload or environment, session=NAME, and key=HEX
// for a configuration or repeat key (the key:HEX pareto gate prints),
// which is not a stored field and is matched by keep on the trials read.
// Errors are *field.Error on where.
func TrialFilter(where []string) (q store.Query, keep func(*trial.Trial) bool, err error) {
	conds, err := trial.ParseConditions(where)
	if err != nil {
		return q, nil, &field.Error{Field: "where", Err: err}
	}
	var keys []string
	for _, c := range conds {
		if c.Key != "key" {
			q.Where = append(q.Where, c)
			continue
		}
		v := strings.TrimPrefix(strings.ToLower(c.Value), "key:")
		if c.Op != trial.OpEq || len(v) < 4 {
			return q, nil, &field.Error{Field: "where", Value: "key=HEX", Err: errors.New("want = and at least 4 hex digits of a configuration or repeat key")}
		}
		keys = append(keys, v)
	}
	keep = func(t *trial.Trial) bool {
		for _, k := range keys {
			if !repeat.HasKey(t, nil, k) {
				return false
			}
		}
		return true
	}
	return q, keep, nil
}
