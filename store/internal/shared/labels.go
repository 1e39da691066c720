package shared

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// LabelBatch is the number of trial IDs looked up per statement by
// SetLabels.
const LabelBatch = 500

// CheckLabels refuses an empty label key.
func CheckLabels(labels map[string]string) error {
	if _, ok := labels[""]; ok {
		return errors.New("empty label key")
	}
	return nil
}

// UniqueIDs returns ids sorted, without duplicates and empty strings.
func UniqueIDs(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	return out
}

// LabelUpdate is the new state of one stored trial after SetLabels.
type LabelUpdate struct {
	Row    int64     // the trial's row id
	Labels string    // its labels as JSON
	Env    [6]string // its environment columns (codec.Env)
	// ContentID is the content hash of the relabelled trial, "" when it is
	// the trial's ID (see prepared.contentID).
	ContentID string
	// sketch is the relabelled trial's (its repeat key and "id" and "run"
	// labels may change)
	sketch trial.Sketch
}

// Relabel merges set into the labels of t, the verified trial of row row:
// a non-empty value sets the label, an empty one removes it. It reports
// false when the labels are unchanged.
func Relabel(enc *codec.JSONEncoder, row int64, t *trial.Trial, set map[string]string) (LabelUpdate, bool) {
	before := t.Labels
	after := maps.Clone(before)
	if after == nil {
		after = make(map[string]string, len(set))
	}
	for k, v := range set {
		if v == "" {
			delete(after, k)
		} else {
			after[k] = v
		}
	}
	if maps.Equal(before, after) {
		return LabelUpdate{}, false
	}
	u := *t
	u.Labels = after
	content := trial.ComputeID(&u)
	if content == t.ID {
		content = ""
	}
	return LabelUpdate{Row: row, Labels: strings.Clone(enc.MapString(after)), Env: codec.Env(&u), ContentID: content,
		sketch: trial.SketchOf(&u, codec.SketchKey(&u))}, true
}
