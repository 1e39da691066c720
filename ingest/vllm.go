package ingest

import (
	"github.com/pareto-llm/pareto/trial"
)

// readVLLM reads vLLM bench serve / benchmark_serving.py results: one
// object, several concatenated objects (--append-result), or a JSON array
// of objects (vllm bench sweep summary.json). Per-request arrays are
// skipped token by token and never held in memory. The first j.skip
// records, read before by the scanner (servingFast), are skipped.
func readVLLM(j *jreader) ([]trial.Trial, error) {
	var out []trial.Trial
	t := &jsonTokens{j: j}
	p := j.flattener(t)
	for index := 0; ; {
		switch j.d.PeekKind() {
		case 0:
			return out, j.expectEnd()
		case '[':
			err := j.array("summary", func(int) error {
				if index < j.skip {
					index++
					return j.d.SkipValue()
				}
				tr, ok := readVLLMRecord(j, t, p, index)
				if !ok {
					return t.failure()
				}
				tr.Source.Line = 0 // array elements are identified by Index
				index++
				var err error
				out, err = j.pass(append(j.grow(out, len(out)), tr))
				return err
			})
			if err != nil {
				return out, err
			}
		default:
			var err error
			if out, err = j.topRecord(out, index, t, p, readVLLMRecord); err != nil {
				return out, err
			}
			index++
		}
	}
}

// readVLLMRecord reads record index through t; ok is false when t
// stopped. The caller sets the record's line.
func readVLLMRecord(j *jreader, t perfTokens, p *perfJSON, index int) (tr trial.Trial, ok bool) {
	b := j.builder(trial.ToolVLLM, FormatVLLM)
	b.t.Source.Index = index
	s := &servingRecord{b: b, j: j, t: t, p: p}
	version := "benchmark_serving"
	ok = s.members("vLLM result", func(p *servingPlan) bool {
		key := p.key
		switch key {
		case "endpoint_type", "failed":
			version = "bench-serve"
		case "run_number":
			version = "bench-sweep"
		}
		if p.isLabel {
			return s.vllmSetup(key, p.label)
		}
		if p.setupNum {
			return s.setupNumber(key)
		}
		return s.member(p)
	})
	if !ok {
		return trial.Trial{}, false
	}
	b.t.Source.FormatVersion = version
	return s.finish(), true
}

// vllmLabels maps setup keys to labels (the value is kept as a param too).
var vllmLabels = map[string]string{
	"model_id": trial.LabelModel, "backend": trial.LabelEngine, "endpoint_type": trial.LabelEndpoint,
	"date": trial.LabelDate, "label": "label", "version": trial.LabelToolVersion,
}

// vllmSetup reads the setup key, a parameter which sets label too
// (vllmLabels).
func (r *servingRecord) vllmSetup(key, label string) bool {
	b := r.b
	s, set, ok := r.paramText(key, true)
	if set {
		if label == trial.LabelEngine {
			b.setLabel(label, engineOf(s)) // the server, not the client backend
		} else {
			b.setLabel(label, s)
		}
	}
	return ok
}
