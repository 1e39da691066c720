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
	hash, path, format, version       []byte
	line, index                       int64
	labels, params, warnings, problem []byte
	workload                          [8]sql.NullFloat64
	requests, succeeded, failed       int64
	dest                              []any
}

func newTrialRow() *trialRow {
	r := &trialRow{}
	r.dest = []any{&r.id, &r.hash, &r.path, &r.format, &r.version, &r.line, &r.index, &r.labels, &r.params}
	for i := range r.workload {
		r.dest = append(r.dest, &r.workload[i])
	}
	r.dest = append(r.dest, &r.requests, &r.succeeded, &r.failed, &r.problem, &r.warnings)
	return r
}

// decode scans one row into a trial; slim skips the JSON columns.
func (r *trialRow) decode(rs rowScanner, d *decoder, slim bool) (int64, trial.Trial, error) {
	if err := rs.Scan(r.dest...); err != nil {
		return 0, trial.Trial{}, err
	}
	var t trial.Trial
	var err error
	t.ID = string(r.hash)
	t.Source = trial.Source{Path: d.internBytes(r.path), Format: d.internBytes(r.format),
		FormatVersion: d.internBytes(r.version), Line: int(r.line), Index: int(r.index)}
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
	return r.id, t, nil
}

func orNaN(v sql.NullFloat64) float64 {
	if !v.Valid {
		return math.NaN()
	}
	return v.Float64
}

// measurementRow holds the scan targets of a measurements query:
// trial_id, metric, dims, value, unit, native, source_unit.
type measurementRow struct {
	trialID                                int64
	metric, dims, unit, native, sourceUnit []byte
	value                                  sql.NullFloat64
	dest                                   []any
}

func newMeasurementRow() *measurementRow {
	r := &measurementRow{}
	r.dest = []any{&r.trialID, &r.metric, &r.dims, &r.value, &r.unit, &r.native, &r.sourceUnit}
	return r
}

// decode scans one row into a measurement of trial row trialID.
func (r *measurementRow) decode(rs rowScanner, d *decoder) (int64, trial.Measurement, error) {
	if err := rs.Scan(r.dest...); err != nil {
		return 0, trial.Measurement{}, err
	}
	dims, err := d.decodeDims(r.dims)
	if err != nil {
		return 0, trial.Measurement{}, err
	}
	return r.trialID, trial.Measurement{Metric: d.internBytes(r.metric), Dims: dims, Value: orNaN(r.value),
		Unit: d.internBytes(r.unit), Native: d.internBytes(r.native), SourceUnit: d.internBytes(r.sourceUnit)}, nil
}

// collector assembles trials and their measurements read in row-id order.
type collector struct {
	q      Query
	trials []trial.Trial
	rowIDs []int64
	next   int // index in trials of the next measurement's trial
}

// addTrial keeps t if it passes the query's conditions and limit; it
// reports false once the limit is reached.
func (c *collector) addTrial(rowID int64, t trial.Trial) bool {
	if c.q.Limit > 0 && len(c.trials) >= c.q.Limit {
		return false
	}
	if MatchAll(&t, c.q.Where) {
		c.trials = append(c.trials, t)
		c.rowIDs = append(c.rowIDs, rowID)
	}
	return true
}

// addMeasurement appends m to its trial; measurements of trials that were
// filtered out are dropped. Measurements arrive ordered by trial row id.
func (c *collector) addMeasurement(rowID int64, m trial.Measurement) {
	for c.next < len(c.rowIDs) && c.rowIDs[c.next] < rowID {
		c.next++
	}
	if c.next < len(c.rowIDs) && c.rowIDs[c.next] == rowID {
		t := &c.trials[c.next]
		t.Measurements = append(t.Measurements, m)
	}
}

// maxRowID is the last kept trial's row id, or -1.
func (c *collector) maxRowID() int64 {
	if len(c.rowIDs) == 0 {
		return -1
	}
	return c.rowIDs[len(c.rowIDs)-1]
}
