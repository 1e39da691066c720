package ingest

import (
	"math"
	"strconv"

	"github.com/pareto-llm/pareto/trial"
)

// readPerfFast reads an in-memory AIPerf or GenAI-Perf JSON document in one
// pass with scanner, doing exactly what readPerfJSON does through the
// jsontext decoder. It returns ok=false, and nothing else, for anything
// unusual (invalid JSON, a value of the wrong type, names with escapes,
// ...): the caller then uses readPerfJSON, which gives the same trials or
// the positioned error.
func readPerfFast(data []byte, src *source, f Format, r *reader) ([]trial.Trial, bool) {
	return readPerfFastMarks(data, src, f, r, nil)
}

// readPerfFastMarks is readPerfFast that also collects, when marks is not
// nil, the marks Detect needs of the strings it scans (readGuessed).
func readPerfFastMarks(data []byte, src *source, f Format, r *reader, marks *headMarks) ([]trial.Trial, bool) {
	tool := trial.ToolAIPerf
	if f == FormatGenAIPerfJSON {
		tool = trial.ToolGenAIPerf
	}
	p := &perfJSON{b: newBuilder(tool, src, f), names: r.names, dims: &r.dims, blocks: r.blocks, genai: f == FormatGenAIPerfJSON,
		stats: r.stats[:0], path: r.path[:0], with: r.with[:0]}
	p.b.t.Params = make(map[string]string, max(r.nparams, 16))
	r.recs.reset()
	p.b.recs = &r.recs
	s := &scanner{data: data, marks: marks, cols: r.lim.maxColumns()}
	if !s.enter('{') {
		return nil, false
	}
	for n := 0; ; n++ {
		more, ok := s.more(n == 0, '}')
		if !ok || n > s.cols {
			return nil, false
		}
		if !more {
			break
		}
		name, ok := s.name()
		if !ok || !p.fastMember(s, name) {
			return nil, false
		}
	}
	if s.ws(); s.pos != len(data) {
		return nil, false
	}
	r.stats, r.path, r.with = p.stats[:0], p.path[:0], p.with[:0]
	r.nparams = len(p.b.t.Params)
	if len(p.b.t.Params) == 0 { // as if SetParam was never called
		p.b.t.Params = nil
	}
	return []trial.Trial{p.finish()}, true
}

// object calls fn for each member of the object that follows, which must
// consume the member's value.
func (s *scanner) object(fn func(name []byte) bool) bool {
	if !s.enter('{') {
		return false
	}
	for n := 0; ; n++ {
		more, ok := s.more(n == 0, '}')
		if !ok || n > s.cols {
			return false
		}
		if !more {
			return true
		}
		name, ok := s.name()
		if !ok || !fn(name) {
			return false
		}
	}
}

// fastMember is member for the fast scanner.
func (p *perfJSON) fastMember(s *scanner, name []byte) bool {
	b := p.b
	switch string(name) {
	case "records":
		p.hasRecords = true
		return s.object(func(tag []byte) bool { return p.fastBlock(s, p.blockTag(tag), nil) })
	case "warmup_metrics":
		return s.object(func(tag []byte) bool { return p.fastBlock(s, p.blockTag(tag), warmupDims) })
	case "input_config":
		return p.fastFlatten(s, 0, b.t.SetParam)
	case "run_info":
		p.path = append(p.path[:0], "run_info"...)
		return p.fastFlatten(s, len(p.path), b.t.SetParam)
	case "telemetry_data":
		return p.fastTelemetry(s)
	case "telemetry_stats":
		p.genai = true
		return p.fastTelemetryStats(s)
	case "error_summary", "sessions", "branch_stats", "end_time":
		return s.skip()
	case "schema_version", "aiperf_version", "benchmark_id", "start_time", "was_cancelled":
		key := p.native(name)
		p.hasSchema = p.hasSchema || key == "schema_version"
		v, set, ok := s.text()
		if set {
			b.t.SetParam(key, v)
			switch key {
			case "aiperf_version":
				b.t.SetLabel(trial.LabelToolVersion, v)
			case "benchmark_id":
				b.t.SetLabel(trial.LabelBenchmarkID, v)
			case "start_time":
				b.t.SetLabel(trial.LabelDate, v)
			}
		}
		return ok
	}
	if s.ws() != '{' {
		p.path = append(p.path[:0], name...)
		return p.fastFlatten(s, len(p.path), b.t.SetParam)
	}
	return p.fastBlock(s, p.blockTag(name), nil)
}

// fastFlatten is jreader.flatten for the fast scanner; the prefix is
// p.path[:n].
func (p *perfJSON) fastFlatten(s *scanner, n int, set func(k, v string)) bool {
	switch s.ws() {
	case '{':
		return s.object(func(name []byte) bool {
			return p.fastFlatten(s, p.join(n, name), set)
		})
	case '[':
		if !s.enter('[') {
			return false
		}
		var joined []byte
		count := 0
		for i := 0; ; i++ {
			more, ok := s.more(i == 0, ']')
			if !ok {
				return false
			}
			if !more {
				break
			}
			if c := s.ws(); c == '{' || c == '[' {
				var num [20]byte
				if !p.fastFlatten(s, p.join(n, strconv.AppendInt(num[:0], int64(i), 10)), set) {
					return false
				}
				continue
			}
			v, isSet, ok := s.text()
			if !ok {
				return false
			}
			if isSet {
				if count > 0 {
					joined = append(joined, ',')
				}
				joined = append(joined, v...)
				count++
			}
		}
		if count > 0 {
			set(p.native(p.path[:n]), string(joined))
		}
		return true
	}
	v, isSet, ok := s.text()
	if isSet && v != "" {
		set(p.native(p.path[:n]), v)
	}
	return ok
}

// join appends ".name" (or name at the start) to the prefix p.path[:n]
// and returns the new length.
func (p *perfJSON) join(n int, name []byte) int {
	p.path = p.path[:n]
	if n > 0 {
		p.path = append(p.path, '.')
	}
	p.path = append(p.path, name...)
	return len(p.path)
}

// fastBlock is block for the fast scanner.
func (p *perfJSON) fastBlock(s *scanner, tag string, extra trial.Dims) bool {
	switch s.ws() {
	case '{':
	case 'n':
		return s.literal("null")
	default:
		return s.skip()
	}
	unit := ""
	p.stats = p.stats[:0]
	ok := s.object(func(name []byte) bool {
		switch string(name) {
		case "unit":
			if s.ws() == '"' {
				raw, plain, ok := s.str()
				if ok && !plain {
					var v string
					v, ok = unquote(raw, false)
					raw = []byte(v)
				}
				unit = p.native(raw)
				return ok
			}
			v, _, ok := s.text()
			unit = p.native([]byte(v))
			return ok
		case "tag", "header", "count":
			return s.skip()
		}
		return p.fastStat(s, tag, name)
	})
	if ok {
		p.emit(tag, unit, extra)
	}
	return ok
}

// fastStat reads one statistic of a block into p.stats.
func (p *perfJSON) fastStat(s *scanner, tag string, name []byte) bool {
	st, ok := lookupStat(name)
	c := s.ws()
	if !ok {
		p.statMiss(tag, name)
		return s.skip()
	}
	if c == '{' || c == '[' {
		return false // the wrong type: the full reader reports it at its position
	}
	var v float64
	switch c {
	case 'n':
		return s.literal("null")
	case '"':
		raw, plain, ok := s.str()
		if !ok || !plain {
			return false
		}
		if v, ok = parseFloatText(string(raw)); !ok {
			return false
		}
	case 't', 'f':
		return false
	default:
		var ok bool
		if v, ok = s.float(); !ok {
			return false
		}
	}
	if !(v >= 0 && v <= math.MaxFloat64) {
		return false // negative or non-finite: the full reader decides, at its position (valueOK)
	}
	p.stats = append(p.stats, statValue{stat: st.stat, v: v, dims: st.dims, id: st.id})
	return true
}

// fastTelemetry is telemetry for the fast scanner.
func (p *perfJSON) fastTelemetry(s *scanner) bool {
	if s.ws() != '{' {
		return s.skip()
	}
	return s.object(func(name []byte) bool {
		if string(name) != "endpoints" || s.ws() != '{' {
			return s.skip()
		}
		return s.object(func(ep []byte) bool {
			endpoint := string(ep)
			return s.object(func(name []byte) bool {
				if string(name) != "gpus" || s.ws() != '{' {
					return s.skip()
				}
				return s.object(func(gpu []byte) bool { return p.fastGPU(s, endpoint, string(gpu)) })
			})
		})
	})
}

func (p *perfJSON) fastGPU(s *scanner, endpoint, gpu string) bool {
	p.gpus++
	key := p.dims.key(keyGPU, trial.Dims{{Key: "endpoint", Value: endpoint}}, gpu)
	dims, ok := p.dims.get(key)
	if !ok {
		dims = trial.Dims{{Key: "endpoint", Value: endpoint}, {Key: trial.DimGPU, Value: gpu}}
		p.dims.put(key, dims)
	}
	return s.object(func(name []byte) bool {
		switch string(name) {
		case "gpu_name":
			v, set, ok := s.text()
			if set && p.b.t.Labels[trial.LabelGPU] == "" {
				p.b.t.SetLabel(trial.LabelGPU, v)
			}
			return ok
		case "metrics":
			return s.object(func(m []byte) bool { return p.fastBlock(s, p.native(m), dims) })
		}
		return s.skip()
	})
}

// fastTelemetryStats is telemetryStats for the fast scanner.
func (p *perfJSON) fastTelemetryStats(s *scanner) bool {
	if s.ws() != '{' {
		return s.skip()
	}
	return s.object(func(m []byte) bool {
		metric := p.native(m)
		unit := ""
		if s.ws() != '{' {
			return s.skip()
		}
		return s.object(func(k []byte) bool {
			if string(k) == "unit" {
				v, _, ok := s.text()
				unit = v
				return ok
			}
			if s.ws() != '{' {
				return s.skip()
			}
			dims := trial.Dims{{Key: trial.DimGPU, Value: string(k)}}
			p.stats = p.stats[:0]
			if !s.object(func(name []byte) bool { return p.fastStat(s, metric, name) }) {
				return false
			}
			p.emit(metric, unit, dims)
			return true
		})
	})
}
