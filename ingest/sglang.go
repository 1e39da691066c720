package ingest

import (
	"github.com/pareto-llm/pareto/trial"
)

// readSGLang reads SGLang bench_serving JSONL: one trial per line (any
// whitespace-separated sequence of objects is accepted). Reading stops at
// the first bad record; the trials before it are returned with the error.
// The first j.skip records, read before by the scanner (servingFast), are
// skipped.
func readSGLang(j *jreader) ([]trial.Trial, error) {
	var out []trial.Trial
	t := &jsonTokens{j: j}
	p := j.flattener(t)
	for index := 0; j.d.PeekKind() != 0; index++ {
		var err error
		if out, err = j.topRecord(out, index, t, p, readSGLangRecord); err != nil {
			return out, err
		}
	}
	return out, j.expectEnd()
}

// readSGLangRecord reads record index through t; ok is false when t
// stopped. The caller sets the record's line.
func readSGLangRecord(j *jreader, t perfTokens, p *perfJSON, index int) (tr trial.Trial, ok bool) {
	b := j.builder(trial.ToolSGLang, FormatSGLang)
	b.t.Source.Index = index
	s := &sglangRecord{servingRecord: servingRecord{b: b, j: j, t: t, p: p}}
	ok = s.members("SGLang result", func(p *servingPlan) bool {
		if done, ok := s.setup(p); done || !ok {
			return ok
		}
		if p.setupNum {
			return s.setupNumber(p.key)
		}
		return s.member(p)
	})
	if !ok {
		return trial.Trial{}, false
	}
	return s.finish(), true
}

type sglangRecord struct {
	servingRecord
	random          bool
	inLen, outLen   float64
	duration        float64
	hasReqThrough   bool
	hasServerInfo   bool
	hasModernFields bool
}

// setup handles the SGLang setup keys (done: p's key was one).
func (s *sglangRecord) setup(p *servingPlan) (done, ok bool) {
	b, key := s.b, p.key
	switch key {
	case "backend", "dataset_name", "tag":
		v, set, ok := s.paramText(key, true)
		if set {
			switch key {
			case "backend":
				b.setLabel(trial.LabelEngine, engineOf(v)) // the server, not the client backend
			case "dataset_name":
				b.setLabel(trial.LabelDataset, v)
			default:
				b.setLabel("tag", v)
			}
			s.random = s.random || (key == "dataset_name" && v == "random")
		}
		return true, ok
	case "random_input_len", "random_output_len":
		v, _, set, ok := s.t.number(key, nil)
		if set {
			b.setParamNum(key, v)
			if key == "random_input_len" {
				s.inLen = v
			} else {
				s.outLen = v
			}
		}
		return true, ok
	case "server_info":
		s.hasServerInfo = true
		return true, s.param(key)
	case "duration", "request_throughput":
		s.hasReqThrough = s.hasReqThrough || key == "request_throughput"
		if key == "duration" {
			v, _, set, ok := s.t.number(key, nil)
			if set {
				s.duration = v
				b.addUnitsIn(&p.tmpl, p.metric, nil, v, p.unit, key) // a result scalar (servingScalars) in s
			}
			return true, ok
		}
	case "mean_ttft_ms", "mean_tpot_ms":
		s.hasModernFields = true
	}
	return false, true
}

func (s *sglangRecord) finish() trial.Trial {
	b := s.b
	if s.random {
		b.t.Workload.InputTokens, b.t.Workload.OutputTokens = s.inLen, s.outLen
	}
	for _, k := range []string{"server_info.served_model_name", "server_info.model_path"} {
		if v := b.t.Params[k]; v != "" && b.t.Labels[trial.LabelModel] == "" {
			b.setLabel(trial.LabelModel, v)
		}
	}
	if v := b.t.Params["server_info.version"]; v != "" {
		b.setLabel(trial.LabelEngineVersion, v)
	}
	if s.hasServerInfo && b.t.Labels[trial.LabelEngine] == "" {
		b.setLabel(trial.LabelEngine, "sglang") // server_info is the SGLang server's own report, whatever the client backend
	}
	b.t.Source.FormatVersion = "lean-2024"
	if s.hasModernFields || s.hasServerInfo {
		b.t.Source.FormatVersion = "2025+"
	}
	if !s.hasReqThrough && s.duration > 0 && s.completed > 0 {
		b.add(trial.RequestThroughput, derivedThroughput, s.completed/s.duration, trial.UnitReqPerS, "")
	}
	return s.servingRecord.finish()
}

var derivedThroughput = trial.Dims{{Key: trial.DimDerived, Value: "completed/duration"}}
