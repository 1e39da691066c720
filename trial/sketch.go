package trial

// Sketch is what a query keeps of a trial it reads column by column,
// besides the values: the key it shares with its repeats and what names
// it. A store computes it when the trial is ingested (store.Columns).
type Sketch struct {
	// Key is the trial's repeat key under the default configuration keys
	// (decide.RepeatKey), "" when the trial does not record its
	// configuration.
	Key string
	// Path and Format are the trial's Source.Path and Source.Format; Line
	// and Index its Source.Line and Source.Index.
	Path, Format string
	Line, Index  int
	// ID and Run are its "id" and "run" labels ("" when absent).
	ID, Run string
}

// SketchOf returns the sketch of t with the repeat key key.
func SketchOf(t *Trial, key string) Sketch {
	return Sketch{Key: key, Path: t.Source.Path, Format: t.Source.Format, Line: t.Source.Line, Index: t.Source.Index,
		ID: t.Labels["id"], Run: t.Labels["run"]}
}
