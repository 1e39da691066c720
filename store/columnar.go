package store

import (
	"github.com/pareto-llm/pareto/trial"
)

// ColumnSpec selects one measurement of each trial for Columns: the
// measurement whose Metric is Metric (the canonical key; the Native name is
// not consulted) and whose Dims equal Dims exactly (no containment, no
// fallback to fewer dimensions).
//
// A trial.Selector such as "ttft.p99" maps to {Metric: "ttft", Dims:
// trial.StatDims("p99")} when the study's measurements use canonical
// metric names; selectors that Resolve would satisfy through a Native name
// or by dims containment (a selector without dims matching a measurement
// with dims) must be resolved per trial with Trials instead.
type ColumnSpec struct {
	Metric string
	Dims   trial.Dims
}

// String renders the spec as a selector.
func (c ColumnSpec) String() string {
	return trial.Measurement{Metric: c.Metric, Dims: c.Dims}.String()
}

// Columns is a columnar read of a study: for each trial, in ingest order,
// its ID and the value of every ColumnSpec.
type Columns struct {
	// IDs are the trials' IDs (trial.Trial.ID), in ingest order.
	IDs []string
	// Values[k][i] is the value of spec k for trial IDs[i]. It is
	// frontier.Missing when the trial has no measurement matching the spec,
	// has several (ambiguous, as Resolve says), or has a Problem (unusable);
	// a stored NaN reads as a plain NaN.
	Values [][]float64
	// Problems maps the index in IDs of each trial with a Problem to it.
	Problems map[int]string
	// Sketches[i] is the sketch of trial IDs[i] (its repeat key and what
	// names it), computed when it was ingested; nil when a block of the
	// study has none of the version this pareto reads (see Sketches in
	// the package documentation): a query of repeats then reads the
	// trials.
	Sketches []trial.Sketch
}
