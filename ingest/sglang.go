package ingest

import (
	"github.com/pareto-llm/pareto/trial"
)

// readSGLang reads SGLang bench_serving JSONL: one trial per line (any
// whitespace-separated sequence of objects is accepted). Reading stops at
// the first bad record; the trials before it are returned with the error.
func readSGLang(j *jreader) ([]trial.Trial, error) {
	var out []trial.Trial
	for index := 0; j.d.PeekKind() != 0; index++ {
		t, err := readSGLangRecord(j, index)
		if err != nil {
			return out, err
		}
		if out, err = j.pass(append(j.grow(out, len(out)), t)); err != nil {
			return out, err
		}
	}
	return out, j.expectEnd()
}

func readSGLangRecord(j *jreader, index int) (trial.Trial, error) {
	b := j.builder(trial.ToolSGLang, FormatSGLang)
	b.t.Source.Index = index
	start := j.src.base + j.d.InputOffset()
	s := &sglangRecord{servingRecord: servingRecord{b: b}}
	n := 0
	err := j.object("SGLang result", func(name []byte) error {
		p := j.planAt(n, name, b)
		n++
		if ok, err := s.setup(j, p.key); ok || err != nil {
			return err
		}
		if p.setupNum {
			_, err := s.setupNumber(j, p.key)
			return err
		}
		return s.member(j, p)
	})
	if err != nil {
		return trial.Trial{}, err
	}
	b.t.Source.Line, _ = j.src.lineCol(start + 1)
	if start == 0 {
		b.t.Source.Line = 1
	}
	return s.finish(), nil
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

func (s *sglangRecord) setup(j *jreader, key string) (bool, error) {
	b := s.b
	switch key {
	case "backend", "dataset_name", "tag":
		v, ok, err := j.textOf(j.rec.memo, key)
		if ok {
			b.setParam(key, v)
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
		return true, err
	case "random_input_len", "random_output_len":
		v, ok, err := j.number(key)
		if ok {
			b.setParamNum(key, v)
			if key == "random_input_len" {
				s.inLen = v
			} else {
				s.outLen = v
			}
		}
		return true, err
	case "server_info":
		s.hasServerInfo = true
		return true, j.flatten("server_info", b.setParam)
	case "duration", "request_throughput":
		s.hasReqThrough = s.hasReqThrough || key == "request_throughput"
		if key == "duration" {
			v, ok, err := j.number(key)
			if ok {
				s.duration = v
				b.addNative(key, "", v, "s")
			}
			return true, err
		}
	case "mean_ttft_ms", "mean_tpot_ms":
		s.hasModernFields = true
	}
	return false, nil
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
