package shared

import (
	"github.com/pareto-llm/pareto/trial"
)

// Origin is what the trials of one file share, kept once in the origins
// table and referred to by each trial's origin_id.
type Origin struct {
	Path, Key, Format, Version, Session string
}

// originOf returns the origin of t.
func originOf(t *trial.Trial) Origin {
	s := &t.Source
	return Origin{Path: s.Path, Key: s.Key, Format: s.Format, Version: s.FormatVersion, Session: s.Session}
}

// Origins gives the trials of one ingest transaction their origin ids,
// writing a row of origins (through Insert) for each origin the first
// time one of its trials is written.
type Origins struct {
	// Insert writes the origin and returns its id.
	Insert func(Origin) (int64, error)
	ids    map[Origin]int64
	last   Origin // the origin of the previous call, with id lastID
	lastID int64
}

// ID returns the origin id of t.
func (o *Origins) ID(t *trial.Trial) (int64, error) {
	k := originOf(t)
	if o.lastID != 0 && k == o.last {
		return o.lastID, nil
	}
	id, ok := o.ids[k]
	if !ok {
		var err error
		if id, err = o.Insert(k); err != nil {
			return 0, err
		}
		if o.ids == nil {
			o.ids = map[Origin]int64{}
		}
		o.ids[k] = id
	}
	o.last, o.lastID = k, id
	return id, nil
}
