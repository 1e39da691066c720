package store

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// labelBatch is the number of trial IDs looked up per statement by
// SetLabels.
const labelBatch = 500

// checkLabels refuses an empty label key.
func checkLabels(labels map[string]string) error {
	if _, ok := labels[""]; ok {
		return errors.New("empty label key")
	}
	return nil
}

// uniqueIDs returns ids sorted, without duplicates and empty strings.
func uniqueIDs(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	return out
}

// labelUpdate is the new state of one stored trial after SetLabels.
type labelUpdate struct {
	row    int64
	labels string
	env    [6]string
	// contentID is the content hash of the relabelled trial, "" when it is
	// the trial's ID (see prepared.contentID).
	contentID string
	// sketch is the relabelled trial's (its repeat key and "id" and "run"
	// labels may change)
	sketch trial.Sketch
}

// relabel merges set into the labels of t, the verified trial of row row:
// a non-empty value sets the label, an empty one removes it. It reports
// false when the labels are unchanged.
func relabel(enc *codec.JSONEncoder, row int64, t *trial.Trial, set map[string]string) (labelUpdate, bool) {
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
		return labelUpdate{}, false
	}
	u := *t
	u.Labels = after
	content := trial.ComputeID(&u)
	if content == t.ID {
		content = ""
	}
	return labelUpdate{row: row, labels: strings.Clone(enc.MapString(after)), env: codec.Env(&u), contentID: content,
		sketch: trial.SketchOf(&u, codec.SketchKey(&u))}, true
}
