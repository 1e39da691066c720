package ingest

import (
	"github.com/pareto-llm/pareto/trial"
)

// readVLLM reads vLLM bench serve / benchmark_serving.py results: one
// object, several concatenated objects (--append-result), or a JSON array
// of objects (vllm bench sweep summary.json). Per-request arrays are
// skipped token by token and never held in memory.
func readVLLM(j *jreader) ([]trial.Trial, error) {
	var out []trial.Trial
	for index := 0; ; {
		switch j.d.PeekKind() {
		case 0:
			return out, j.expectEnd()
		case '[':
			err := j.array("summary", func(int) error {
				t, err := readVLLMRecord(j, index)
				t.Source.Line = 0 // array elements are identified by Index
				if err != nil {
					return err
				}
				index++
				out, err = j.pass(append(j.grow(out, len(out)), t))
				return err
			})
			if err != nil {
				return out, err
			}
		default:
			t, err := readVLLMRecord(j, index)
			if err != nil {
				return out, err
			}
			index++
			if out, err = j.pass(append(j.grow(out, len(out)), t)); err != nil {
				return out, err
			}
		}
	}
}

func readVLLMRecord(j *jreader, index int) (trial.Trial, error) {
	b := j.builder(trial.ToolVLLM, FormatVLLM)
	b.t.Source.Index = index
	start := j.src.base + j.d.InputOffset()
	s := &servingRecord{b: b}
	version := "benchmark_serving"
	n := 0
	err := j.object("vLLM result", func(name []byte) error {
		p := j.planAt(n, name, b)
		n++
		key := p.key
		switch key {
		case "endpoint_type", "failed":
			version = "bench-serve"
		case "run_number":
			version = "bench-sweep"
		}
		if p.isLabel {
			return vllmSetup(j, b, key, p.label)
		}
		if p.setupNum {
			_, err := s.setupNumber(j, key)
			return err
		}
		return s.member(j, p)
	})
	if err != nil {
		return trial.Trial{}, err
	}
	if index > 0 || j.src.base > 0 {
		b.t.Source.Line, _ = j.src.lineCol(start + 1)
	}
	b.t.Source.FormatVersion = version
	return s.finish(), nil
}

// vllmLabels maps setup keys to labels (the value is kept as a param too).
var vllmLabels = map[string]string{
	"model_id": trial.LabelModel, "backend": trial.LabelEngine, "endpoint_type": trial.LabelEndpoint,
	"date": trial.LabelDate, "label": "label", "version": trial.LabelToolVersion,
}

// vllmSetup reads the setup key, which sets label (vllmLabels).
func vllmSetup(j *jreader, b *builder, key, label string) error {
	s, ok, err := j.textOf(j.rec.memo, key)
	if ok {
		if label == trial.LabelEngine {
			b.setLabel(label, engineOf(s)) // the server, not the client backend
		} else {
			b.setLabel(label, s)
		}
		b.setParam(key, s)
	}
	return err
}
