package ingest

import (
	"bytes"
	"strconv"

	"github.com/pareto-llm/pareto/trial"
)

// AIPerf layouts (FORMATS.md §2.3), recorded in trial.Source.FormatVersion.
const (
	aiperfG0 = "G0" // top-level "records" object (v0.1.x)
	aiperfG1 = "G1" // top-level metric blocks, no schema_version
	aiperfG2 = "G2" // schema_version + legacy UserConfig
	aiperfG3 = "G3" // v2 BenchmarkConfig: input_config.phases / models.items
)

// perfJSON reads one AIPerf profile_export_aiperf.json or GenAI-Perf
// profile_export_genai_perf.json document through t: the fast scanner over
// an in-memory file (readPerfFast) or the jsontext reader (readPerfJSON,
// which streams and positions its errors). The reading is written once,
// here and in aiperf_config.go; only the tokenizing differs
// (aiperf_tokens.go).
type perfJSON struct {
	t     perfTokens
	b     *builder
	names map[string]string // interned names
	// seq, when set, holds the names interned in the file before, in
	// their order; seqAt is where the next name should be (native).
	seq        *[]string
	seqAt      int
	stats      []statValue // scratch for one block
	hasRecords bool
	hasSchema  bool
	genai      bool
	reqCount   float64
	hasReq     bool
	gpus       int        // GPU blocks in the telemetry: the gpu_count label
	withFor    trial.Dims // the extra dims that with caches statistics for
	withForID  uint32
	with       []statValue
	dims       *dimsCache              // dims shared between files; nil: build them every time
	blocks     map[blockKey]blockUnits // metricUnits cache shared between files; nil: none
	// bseq, when set, holds the blocks of the file before, in their
	// order, as seq the names; bseqAt is where the next block should be.
	bseq   *[]blockMemo
	bseqAt int
	path   []byte // dotted key of flattened config
	named  bool   // t reports errors: name config values (what)
}

// statValue is one statistic of a block; dims, when set, are the shared
// StatDims(stat), and id, when not 0, their fixed records dims index.
type statValue struct {
	stat string
	v    float64
	dims trial.Dims
	id   uint32
	pos  numPos // where the file holds v (the jsontext reader and CSV)
}

// perfTopLevel lists the top-level keys that are not metric blocks.
var perfTopLevel = map[string]bool{
	"schema_version": true, "aiperf_version": true, "benchmark_id": true, "input_config": true,
	"run_info": true, "telemetry_data": true, "was_cancelled": true, "error_summary": true,
	"start_time": true, "end_time": true, "warmup_metrics": true, "branch_stats": true,
	"records": true, "telemetry_stats": true, "sessions": true,
}

// readPerfJSON reads an AIPerf or GenAI-Perf JSON document through the
// jsontext reader j: files too large to hold in memory, and those the fast
// scanner gave up on (readPerfFast), for the positioned error.
func readPerfJSON(j *jreader, f Format) ([]trial.Trial, error) {
	tool := trial.ToolAIPerf
	if f == FormatGenAIPerfJSON {
		tool = trial.ToolGenAIPerf
	}
	t := &jsonTokens{j: j}
	p := &perfJSON{t: t, b: newBuilder(tool, j.src, f), names: j.names, genai: f == FormatGenAIPerfJSON, named: true}
	if !p.document() {
		return nil, t.failure()
	}
	return []trial.Trial{p.finish()}, nil
}

// document reads the whole document: one object of members.
func (p *perfJSON) document() bool {
	return p.object("AIPerf summary", p.member) && p.t.end()
}

// member reads one top-level member: a metric block, a config section,
// the telemetry, or a scalar kept as a parameter.
func (p *perfJSON) member(name []byte) bool {
	t, b := p.t, p.b
	switch string(name) {
	case "records":
		p.hasRecords = true
		return p.object("records", func(tag []byte) bool { return p.block(p.blockTag(tag), nil) })
	case "warmup_metrics":
		return p.object("warmup_metrics", func(tag []byte) bool { return p.block(p.blockTag(tag), warmupDims) })
	case "input_config":
		return p.flatten(0, b.setParam)
	case "run_info":
		p.path = append(p.path[:0], "run_info"...)
		return p.flatten(len(p.path), b.setParam)
	case "telemetry_data":
		return p.telemetry()
	case "telemetry_stats":
		p.genai = true
		return p.telemetryStats()
	case "error_summary", "sessions", "branch_stats", "end_time":
		return t.skip()
	case "schema_version", "aiperf_version", "benchmark_id", "start_time", "was_cancelled":
		key := p.native(name)
		p.hasSchema = p.hasSchema || key == "schema_version"
		v, set, ok := t.text()
		if set {
			b.setParam(key, v)
			switch key {
			case "aiperf_version":
				b.setLabel(trial.LabelToolVersion, v)
			case "benchmark_id":
				b.setLabel(trial.LabelBenchmarkID, v)
			case "start_time":
				b.setLabel(trial.LabelDate, v)
			}
		}
		return ok
	}
	if t.kind() != '{' {
		p.path = append(p.path[:0], name...)
		return p.flatten(len(p.path), b.setParam)
	}
	return p.block(p.blockTag(name), nil)
}

// flatten reads any value into dotted params under the prefix p.path[:n]:
// objects add ".key", arrays of scalars are joined with ",", arrays of
// objects add ".index". Empty strings and nulls are dropped (GenAI-Perf
// writes "" for None).
func (p *perfJSON) flatten(n int, set func(k, v string)) bool {
	t := p.t
	switch t.kind() {
	case '{':
		return p.object(p.what(n), func(name []byte) bool {
			return p.flatten(p.join(n, name), set)
		})
	case '[':
		var joined []byte
		count := 0
		ok := p.array(p.what(n), func(i int) bool {
			if c := t.kind(); c == '{' || c == '[' {
				var num [20]byte
				return p.flatten(p.join(n, strconv.AppendInt(num[:0], int64(i), 10)), set)
			}
			v, isSet, ok := t.text()
			if isSet {
				if count > 0 {
					joined = append(joined, ',')
				}
				joined = append(joined, v...)
				count++
			}
			return ok
		})
		if count > 0 {
			set(p.native(p.path[:n]), string(joined))
		}
		return ok
	}
	v, isSet, ok := t.text()
	if isSet && v != "" {
		set(p.native(p.path[:n]), v)
	}
	return ok
}

// what names the config value under p.path[:n] in errors; the fast
// scanner, which reports none, gets "" without an allocation.
func (p *perfJSON) what(n int) string {
	if !p.named {
		return ""
	}
	return string(p.path[:n])
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

var warmupDims = trial.Dims{{Key: trial.DimPhase, Value: "warmup"}}

// native interns a metric tag. Files of one layout name their blocks,
// statistics and settings in the same order: the name the file before had
// at this place is tried first, before the map.
func (p *perfJSON) native(name []byte) string {
	seq := p.seq
	if seq == nil {
		return internIn(p.names, name)
	}
	k := p.seqAt
	p.seqAt++
	if k < len(*seq) && (*seq)[k] == string(name) {
		return (*seq)[k]
	}
	s := internIn(p.names, name)
	rememberAt(seq, k, s)
	return s
}

// maxPlaces bounds what a reader remembers of the file before by place
// (native's names, metricUnits' blocks).
const maxPlaces = 4096

// rememberAt records e as what the file being read has at place k of seq,
// the memory of the file before by place: over what that file had there,
// or at the end, up to maxPlaces.
func rememberAt[E any](seq *[]E, k int, e E) {
	if k < len(*seq) {
		(*seq)[k] = e
	} else if k == len(*seq) && k < maxPlaces {
		*seq = append(*seq, e)
	}
}

// blockTag is the native name of a metric block keyed name: the key, or
// for a key that is a display name (early AIPerf builds wrote "Time to
// First Token" where later ones write time_to_first_token) the tag the
// CSV exports derive from the same display name (splitMetricCell).
func (p *perfJSON) blockTag(name []byte) string {
	if bytes.IndexByte(name, ' ') < 0 {
		return p.native(name)
	}
	tag, _ := splitMetricCell(string(name), "")
	return p.native([]byte(tag))
}

// block reads one metric block {unit, avg, p50, ...}. A block with only avg
// (derived and aggregate metrics, or all other statistics null) becomes a
// scalar measurement; otherwise every statistic is a measurement.
func (p *perfJSON) block(tag string, extra trial.Dims) bool {
	t := p.t
	if t.kind() != '{' { // null, or a block of the wrong type
		return t.skip()
	}
	unit := ""
	p.stats = p.stats[:0]
	ok := p.object(tag, func(name []byte) bool {
		switch string(name) {
		case "unit":
			raw, _, ok := t.textBytes()
			unit = p.native(raw)
			return ok
		case "tag", "header", "count":
			return t.skip()
		}
		st, ok := lookupStat(name)
		if !ok {
			p.statMiss(tag, name)
			return t.skip()
		}
		// A statistic that is an array or an object is the wrong type:
		// the tokenizer says so at its position (never a trial without it).
		return p.stat(st, tag, name)
	})
	if ok {
		p.emit(tag, unit, extra)
	}
	return ok
}

// stat reads the value of statistic st into p.stats; tag.name names it
// in errors (tag alone when name is nil).
func (p *perfJSON) stat(st statInfo, tag string, name []byte) bool {
	var v float64
	var pos numPos
	var set, ok bool
	if s, fast := p.t.(*scanner); fast { // a direct call, not one through perfTokens for every statistic
		v, pos, set, ok = s.number(tag, name)
	} else {
		v, pos, set, ok = p.t.number(tag, name)
	}
	if set {
		p.stats = append(p.stats, statValue{stat: st.stat, v: v, dims: st.dims, id: st.id, pos: pos})
	}
	return ok
}

// statMiss warns of a statistic name the reader does not know that is a
// near miss of one it does (p9y beside p99).
func (p *perfJSON) statMiss(tag string, name []byte) {
	if near := statNearMiss(string(name)); near != "" {
		p.b.t.Warnings = append(p.b.t.Warnings, nearWarning(tag+"."+string(name), tag+"."+near))
	}
}

// emit adds the measurements of one block read into p.stats.
func (p *perfJSON) emit(tag, unit string, extra trial.Dims) {
	if unit == "" && len(p.stats) == 0 {
		return
	}
	if tag == "output_token_throughput" && unit == "per sec" { // GenAI-Perf before 2025-04
		unit = "tokens/sec"
	}
	metric, u, near := p.metricUnits(tag, unit)
	if near != "" {
		p.b.t.Warnings = append(p.b.t.Warnings, nearWarning(tag, near))
	}
	scalar := len(p.stats) == 1 && p.stats[0].stat == "mean"
	rs := p.b.recs
	var blk uint32
	if rs != nil {
		blk = rs.block(metric, tag, u)
	}
	for _, s := range p.stats {
		var dims trial.Dims
		id := uint32(noDims)
		switch {
		case scalar:
			if len(extra) > 0 {
				dims, id = extra, p.extraID(extra)
			}
		case len(extra) > 0:
			dims, id = p.withStat(extra, s.stat)
		case s.id != 0:
			dims, id = s.dims, s.id
		default:
			dims = trial.StatDims(s.stat)
			if rs != nil {
				id = rs.dimsIndex(dims)
			}
		}
		if rs != nil {
			rs.add(blk, id, s.v)
		} else {
			p.b.src.num = s.pos
			p.b.addUnits(metric, dims, s.v, u, tag)
		}
		if scalar && len(extra) == 0 {
			p.count(tag, s.v)
		}
	}
}

// metricUnits returns the canonical metric of a block's tag and its unit
// conversion, and the known tag it is a near miss of (perfNearMiss), from
// the reader's cache when there is one.
func (p *perfJSON) metricUnits(tag, unit string) (string, unitConv, string) {
	k := blockKey{p.b.tool, tag, unit}
	at := -1
	if seq := p.bseq; seq != nil { // the block the file before had at this place, first
		at = p.bseqAt
		p.bseqAt++
		if at < len(*seq) && (*seq)[at].key == k {
			mu := &(*seq)[at].mu
			return mu.metric, mu.u, mu.near
		}
	}
	mu, ok := p.blocks[k]
	if !ok {
		mu = p.deriveUnits(k)
	}
	if at >= 0 {
		rememberAt(p.bseq, at, blockMemo{k, mu})
	}
	return mu.metric, mu.u, mu.near
}

// deriveUnits works out the blockUnits of k and keeps them in the
// reader's cache, when there is one.
func (p *perfJSON) deriveUnits(k blockKey) blockUnits {
	tag, unit := k.tag, k.unit
	metric := tag
	if c, ok := trial.Canonical(p.b.tool, tag); ok {
		metric = c
	}
	u := p.b.units(metric, unit)
	near := perfNearMiss(p.b.tool, tag)
	mu := blockUnits{metric, u, near}
	if p.blocks != nil {
		if len(p.blocks) >= maxBlockCache {
			clear(p.blocks)
		}
		p.blocks[k] = mu
	}
	return mu
}

// blockKey identifies a metric block for metricUnits: tool, tag and unit.
type blockKey struct{ tool, tag, unit string }

// blockMemo is a blockKey with its blockUnits, at its place among the
// blocks of a file (perfJSON.bseq).
type blockMemo struct {
	key blockKey
	mu  blockUnits
}

// blockUnits is what metricUnits derives from a blockKey.
type blockUnits struct {
	metric string
	u      unitConv
	near   string // perfNearMiss
}

// maxBlockCache bounds the reader's cache of blockUnits.
const maxBlockCache = 4096

// extraID switches the withStat cache to extra and returns the records
// dims index of extra itself (0 without records).
func (p *perfJSON) extraID(extra trial.Dims) uint32 {
	if !sameDims(extra, p.withFor) {
		p.withFor, p.with, p.withForID = extra, p.with[:0], 0
		if p.b.recs != nil {
			p.withForID = p.b.recs.dimsIndex(extra)
		}
	}
	return p.withForID
}

// withStat returns extra.With(statistic, stat), shared between the blocks
// of one set of extra dims, and its records dims index.
func (p *perfJSON) withStat(extra trial.Dims, stat string) (trial.Dims, uint32) {
	p.extraID(extra)
	for _, w := range p.with {
		if w.stat == stat {
			return w.dims, w.id
		}
	}
	var key []byte
	if p.dims != nil {
		key = p.dims.key(keyStatistic, extra, stat)
	}
	d, ok := p.dims.get(key)
	if !ok {
		if d, ok = withStatistic(make(trial.Dims, 0, len(extra)+1), extra, stat); !ok {
			d = extra.With(trial.DimStatistic, stat)
		}
		p.dims.put(key, d)
	}
	w := statValue{stat: stat, dims: d}
	if p.b.recs != nil {
		w.id = p.b.recs.dimsIndex(w.dims)
	}
	p.with = append(p.with, w)
	return w.dims, w.id
}

// withStatistic appends extra.With(trial.DimStatistic, stat) to out
// (empty, with room for len(extra)+1 dims) without the general sort. It
// reports false, and the caller must use With, unless extra is sorted by
// key without duplicates and has no statistic.
func withStatistic(out, extra trial.Dims, stat string) (trial.Dims, bool) {
	st := trial.Dim{Key: trial.DimStatistic, Value: stat}
	for i, x := range extra {
		if x.Key == st.Key || i > 0 && extra[i-1].Key >= x.Key {
			return nil, false
		}
		if x.Key > st.Key && len(out) == i {
			out = append(out, st)
		}
		out = append(out, x)
	}
	if len(out) == len(extra) {
		out = append(out, st)
	}
	return out, true
}

// count picks up request counts from scalar blocks.
func (p *perfJSON) count(tag string, v float64) {
	switch tag {
	case "request_count":
		p.reqCount, p.hasReq = v, true
		p.b.setSucceeded(v)
	case "error_request_count":
		p.b.setFailed(v)
		if !p.hasReq {
			p.b.known = true
		}
	}
}
