package store

import (
	"database/sql"
	"math"

	"github.com/pareto-llm/pareto/trial"
)

// rowScanner is what *sql.Rows and pgx.Rows have in common.
type rowScanner interface {
	Scan(dest ...any) error
}

// trialRow holds the scan targets of readColumns.
type trialRow struct {
	id                                int64
	hash, path, format, version, key  []byte
	line, index                       int64
	labels, params, warnings, problem []byte
	workload                          [8]sql.NullFloat64
	requests, succeeded, failed       int64
	measurements                      []byte
	// the deployment columns
	layout, allocWhy, servingWhy, configPath, config []byte
	alloc, serving                                   int64
	dest                                             []any
}

func newTrialRow() *trialRow {
	r := &trialRow{}
	r.dest = []any{&r.id, &r.hash, &r.path, &r.format, &r.version, &r.line, &r.index, &r.key, &r.labels, &r.params}
	for i := range r.workload {
		r.dest = append(r.dest, &r.workload[i])
	}
	r.dest = append(r.dest, &r.requests, &r.succeeded, &r.failed, &r.problem, &r.warnings, &r.measurements,
		&r.layout, &r.alloc, &r.allocWhy, &r.serving, &r.servingWhy, &r.configPath, &r.config)
	return r
}

// decode scans one row into a trial with the measurements q asks for;
// slim skips the JSON columns.
func (r *trialRow) decode(rs rowScanner, d *decoder, q *Query, slim bool) (int64, trial.Trial, error) {
	if err := rs.Scan(r.dest...); err != nil {
		return 0, trial.Trial{}, err
	}
	var t trial.Trial
	var err error
	if q.Metrics == nil || len(q.Metrics) > 0 {
		if t.Measurements, err = unpackMeasurements(r.measurements, d, metricFilter(q.Metrics)); err != nil {
			return 0, t, err
		}
	}
	t.ID = string(r.hash)
	t.Source = trial.Source{Path: d.internBytes(r.path), Format: d.internBytes(r.format),
		FormatVersion: d.internBytes(r.version), Line: int(r.line), Index: int(r.index), Key: d.internBytes(r.key)}
	if slim {
		t.Source = trial.Source{Path: t.Source.Path}
		return r.id, t, nil
	}
	if t.Labels, err = d.decodeMap(r.labels); err != nil {
		return 0, t, err
	}
	if t.Params, err = d.decodeMap(r.params); err != nil {
		return 0, t, err
	}
	w := &t.Workload
	for i, p := range []*float64{&w.InputTokens, &w.OutputTokens, &w.MeanInputTokens, &w.MeanOutputTokens,
		&w.Concurrency, &w.AchievedConcurrency, &w.RequestRate, &w.Users} {
		*p = orNaN(r.workload[i])
	}
	w.Requests, t.Succeeded, t.Failed = r.requests, r.succeeded, r.failed
	t.Problem = d.internBytes(r.problem)
	if t.Warnings, err = decodeList(r.warnings); err != nil {
		return 0, t, err
	}
	if t.Deployment, err = d.deployment(r.layout, r.alloc, r.allocWhy, r.serving, r.servingWhy, r.configPath, r.config); err != nil {
		return 0, t, err
	}
	return r.id, t, nil
}

func orNaN(v sql.NullFloat64) float64 {
	if !v.Valid {
		return math.NaN()
	}
	return v.Float64
}

// metricFilter keeps the measurements whose metric or native name is in
// metrics; nil keeps all.
func metricFilter(metrics []string) func(metric, native []byte) bool {
	if metrics == nil {
		return nil
	}
	return func(metric, native []byte) bool {
		for _, m := range metrics {
			if m == string(metric) || m == string(native) {
				return true
			}
		}
		return false
	}
}

// collector keeps the trials read in row-id order that a query selects.
type collector struct {
	q      Query
	trials []trial.Trial
	rowIDs []int64
}

// addTrial keeps t if it passes the query's conditions and limit; it
// reports false once the limit is reached.
func (c *collector) addTrial(rowID int64, t trial.Trial) bool {
	if c.q.Limit > 0 && len(c.trials) >= c.q.Limit {
		return false
	}
	if trial.MatchAll(&t, c.q.Where) {
		c.trials = append(c.trials, t)
		c.rowIDs = append(c.rowIDs, rowID)
	}
	return true
}

// maxRowID is the last kept trial's row id, or -1.
func (c *collector) maxRowID() int64 {
	if len(c.rowIDs) == 0 {
		return -1
	}
	return c.rowIDs[len(c.rowIDs)-1]
}
