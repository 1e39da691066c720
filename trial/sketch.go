package trial

// Sketch is what a query keeps of a trial it reads column by column,
// besides the values: the key it shares with its repeats and what names
// and places it. A store computes it when the trial is ingested
// (store.Columns).
type Sketch struct {
	// Key is the trial's repeat key under the default configuration keys
	// (repeat.RepeatKey), "" when the trial does not record its
	// configuration.
	Key string
	// Path and Format are the trial's Source.Path and Source.Format; Line
	// and Index its Source.Line and Source.Index.
	Path, Format string
	Line, Index  int
	// Labels are the trial's SketchLabels that it has, nil when none;
	// trials with equal ones may share the map, which is only read.
	Labels map[string]string
}

// SketchLabels are the labels a Sketch keeps: those that name a row
// ("id", "run") and those that place a trial in a CloudAI run or a
// benchmark's output (test case, iteration, step, phase, sub-benchmark).
var SketchLabels = []string{"id", "run", LabelTestCase, LabelIteration, LabelStep, LabelPhase, DimBenchmark}

// SketchOf returns the sketch of t with the repeat key key.
func SketchOf(t *Trial, key string) Sketch {
	s := Sketch{Key: key, Path: t.Source.Path, Format: t.Source.Format, Line: t.Source.Line, Index: t.Source.Index}
	for _, k := range SketchLabels {
		if v, ok := t.Labels[k]; ok {
			if s.Labels == nil {
				s.Labels = map[string]string{}
			}
			s.Labels[k] = v
		}
	}
	return s
}
