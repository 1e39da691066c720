package ingest

import (
	"cmp"
	"math"
	"slices"

	"github.com/pareto-llm/pareto/trial"
)

// records collects the measurements of the fast AIPerf reader in a compact,
// pointer-free form: a value, the block it belongs to (metric, native name
// and units, shared by all of a block's statistics) and the index of its
// dims. They are sorted as small integers and turned into
// trial.Measurements once, in their final order, in an exactly sized
// slice. Building, filtering and sorting 96-byte measurements full of
// pointers (which need write barriers whenever the garbage collector is
// marking) is what made the reader slow.
type records struct {
	recs   []rec
	blocks []recBlock
	dims   []trial.Dims // by dims index; starts with noDims and commonDims
	// appended says a measurement was added (and later perhaps dropped):
	// the result is then an empty slice rather than nil, as with append.
	appended bool
	order    []int32 // scratch for sort
	tmp      []int32
	count    []int32
	mrank    []int32 // by block
	drank    []int32 // by dims index
	mkey     []int32 // by record: mrank, drank of its block and dims
	dkey     []int32
	// memos keeps the sort orders (and more) of the last few layouts;
	// memo is the one of the current file.
	memos [layoutMemos]sortMemo
	memo  *sortMemo
	tick  uint64
	spare *spares // where measurements takes its slice from, when it can
}

// spares holds the measurement slices, and the parameter and label maps,
// of trials whose Each is done with them (LoadOptions.Transient), to be
// filled again; a nil *spares holds none.
type spares struct {
	ms   chan []trial.Measurement
	maps chan map[string]string
}

// newSpares returns spares for the files a few readers have under way,
// and for a batch of streamed records (streamBatch), two maps each.
func newSpares() *spares {
	return &spares{ms: make(chan []trial.Measurement, 2*streamBatch), maps: make(chan map[string]string, 4*streamBatch)}
}

// take returns a slice of n measurements, spare when one is large enough,
// else new. Every measurement of it is to be set: a spare one holds the
// values of a trial before.
func (s *spares) take(n int) []trial.Measurement {
	if s != nil {
		select {
		case ms := <-s.ms:
			if cap(ms) >= n {
				return ms[:n]
			}
		default:
		}
	}
	return make([]trial.Measurement, n)
}

// give keeps ms to be taken again, if there is room.
func (s *spares) give(ms []trial.Measurement) {
	if s == nil || cap(ms) == 0 {
		return
	}
	select {
	case s.ms <- ms[:0]:
	default:
	}
}

// takeMap returns an empty map, spare when there is one, else new with
// room for n.
func (s *spares) takeMap(n int) map[string]string {
	if s != nil {
		select {
		case m := <-s.maps:
			return m
		default:
		}
	}
	return make(map[string]string, n)
}

// giveMap empties m and keeps it to be taken again, if there is room.
func (s *spares) giveMap(m map[string]string) {
	if s == nil || m == nil {
		return
	}
	clear(m)
	select {
	case s.maps <- m:
	default:
	}
}

// layoutMemos is how many layouts a reader remembers: a directory may
// interleave the results of a few tool versions or configurations.
const layoutMemos = 4

// sortMemo is the key order of a layout (see sameLayout).
type sortMemo struct {
	used    uint64           // r.tick when last used
	id      trial.IDTemplate // the IDs of this layout's files
	keys    []uint64         // block<<32 | dims of every record
	metrics []string         // by block
	dims    []trial.Dims
	order   []int32 // records by (metric, dims), stable
	runs    []int32 // [lo, hi) pairs: runs of order with equal keys, longer than one
	// The measurements built for this layout and the blocks they were
	// built from (template).
	tmpl   []trial.Measurement
	blocks []recBlock
	// neighbours says whether two measurements next to each other in
	// this layout's order render the same metric and dims (mayRepeat): 0
	// not yet known, 1 no, 2 yes.
	neighbours int8
}

type rec struct {
	v    float64
	blk  uint32
	dims uint32
}

type recBlock struct {
	metric, native string
	u              unitConv
}

// Dims indexes fixed for every file: nil, then commonStatList's.
const noDims = 0

// reset prepares r for a new file.
func (r *records) reset() {
	clear(r.blocks) // do not pin the last file's strings
	clear(r.dims)
	r.recs, r.blocks, r.appended = r.recs[:0], r.blocks[:0], false
	r.dims = append(r.dims[:0], fixedDims...)
}

// block registers the metric, native name and unit of a block's records.
func (r *records) block(metric, native string, u unitConv) uint32 {
	r.blocks = append(r.blocks, recBlock{metric, native, u})
	return uint32(len(r.blocks) - 1)
}

// long reports whether a name, unit or dims value of the records'
// measurements may be over its bound (measurementLong): each measurement
// takes its metric, native name and units from a block and its dims from
// dims, and a template is used only for the same blocks and dims.
func (r *records) long() bool {
	for i := range r.blocks {
		b := &r.blocks[i]
		if len(b.metric)|len(b.native)|len(b.u.unit)|len(b.u.src) >= MaxNameLen {
			return true
		}
	}
	for _, d := range r.dims {
		for _, x := range d {
			if len(x.Key) > MaxNameLen || len(x.Value) > MaxLabelLen {
				return true
			}
		}
	}
	return false
}

// dimsIndex registers d and returns its index.
func (r *records) dimsIndex(d trial.Dims) uint32 {
	r.dims = append(r.dims, d)
	return uint32(len(r.dims) - 1)
}

// add is builder.addUnits for records.
func (r *records) add(blk, dims uint32, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	if u := &r.blocks[blk].u; !u.same {
		v, _ = trial.NormalizeUnit(v, u.src)
	}
	r.recs = append(r.recs, rec{v, blk, dims})
	r.appended = true
}

// addPerGPU is trial.AddPerGPU for records, its warnings appended to
// warn: each derived record follows the records it is derived from, so
// that, sorted, the measurements are those trial.AddPerGPU adds to the
// measurements of the other records once sorted, provided no record is
// of a per-GPU metric already (then it adds nothing and returns false)
// and the measurements hold no repeat for dedupe (the caller checks).
func (r *records) addPerGPU(d *trial.Deployment, warn *[]string) bool {
	for i := range r.blocks {
		if _, ok := trial.PerGPU(r.blocks[i].metric); ok {
			return false
		}
	}
	n, nb := len(r.recs), len(r.blocks)
	trial.EachPerGPU(d, func(p trial.PerGPUMetric, gpus int, native string) {
		of, several := -1, false // the block of p.Of (an export has one)
		for i := range nb {
			if r.blocks[i].metric == p.Of {
				several = of >= 0
				of = i
			}
		}
		if of < 0 {
			return
		}
		blk, made := uint32(0), false
		for i := range n {
			x := r.recs[i]
			if several && r.blocks[x.blk].metric != p.Of || !several && x.blk != uint32(of) || !trial.PerGPUDims(r.dims[x.dims]) {
				continue
			}
			if !made {
				blk, made = r.block(p.Metric, native, unitConv{unit: trial.UnitTokPerSGPU, same: true}), true
			}
			r.add(blk, x.dims, x.v/float64(gpus))
		}
	}, func(w string) { *warn = append(*warn, w) })
	return true
}

// measuredLengths is measuredLengths for records.
func (r *records) measuredLengths(w *trial.Workload) {
	for _, x := range r.recs {
		if d := r.dims[x.dims]; len(d) != 1 || d[0].Value != "mean" {
			continue
		}
		switch r.blocks[x.blk].metric {
		case trial.InputSequenceLength:
			w.MeanInputTokens = x.v
		case trial.OutputSequenceLength:
			w.MeanOutputTokens = x.v
		}
	}
}

// keepCounts is keepCounts for records.
func (r *records) keepCounts() {
	r.recs = keepCountsOf(r.recs, func(x rec) string { return r.blocks[x.blk].metric })
}

// measurements returns the records as measurements in the order of
// trial.Finalize: a stable sort by metric, dims and value.
func (r *records) measurements() []trial.Measurement {
	if len(r.recs) == 0 {
		if r.appended {
			return []trial.Measurement{}
		}
		return nil
	}
	n := len(r.recs)
	r.findLayout()
	tmpl := r.template()
	// Stable insertion sort by value inside each run of equal keys, from
	// the key order.
	r.order = append(r.order[:0], r.memo.order...)
	for k := 0; k < len(r.memo.runs); k += 2 {
		lo, hi := int(r.memo.runs[k]), int(r.memo.runs[k+1])
		for i := lo + 1; i < hi; i++ {
			for j := i; j > lo && compareValue(r.recs[r.order[j-1]].v, r.recs[r.order[j]].v) > 0; j-- {
				r.order[j-1], r.order[j] = r.order[j], r.order[j-1]
			}
		}
	}
	if tmpl != nil { // all but the values as in the last file
		out := r.spare.take(n)
		copy(out, tmpl)
		for j, i := range r.order {
			out[j].Value = r.recs[i].v
		}
		return out
	}
	out := r.spare.take(n)
	for j, i := range r.order {
		x := &r.recs[i]
		b := &r.blocks[x.blk]
		m := &out[j]
		m.Metric, m.Dims, m.Value, m.Unit, m.Native, m.SourceUnit = b.metric, r.dims[x.dims], x.v, b.u.unit, b.native, b.u.src
	}
	m := r.memo
	m.tmpl = append(m.tmpl[:0], out...)
	m.blocks = append(m.blocks[:0], r.blocks...)
	return out
}

// mayRepeat is hasRepeats(ms) for the measurements just built: when no
// two records of the layout have the same key (metric, dims), their order
// does not depend on their values, and two neighbours render the same
// metric and dims in every file of the layout or in none, which is found
// out once.
func (r *records) mayRepeat(ms []trial.Measurement) bool {
	m := r.memo
	if len(ms) < 2 || m == nil || len(m.runs) > 0 {
		return hasRepeats(ms)
	}
	if m.neighbours == 0 {
		m.neighbours = 1
		for i := 1; i < len(ms); i++ {
			if ms[i-1].Metric == ms[i].Metric && sameDimsString(ms[i-1].Dims, ms[i].Dims) {
				m.neighbours = 2
				break
			}
		}
	}
	return m.neighbours == 2 && hasRepeats(ms)
}

// template returns the measurements last built for the memoised layout
// when the blocks (metric, native name, units) are also the same, so that
// only the values differ; nil otherwise. Dims need not be checked:
// sameLayout compared their contents.
func (r *records) template() []trial.Measurement {
	m := r.memo
	if len(m.tmpl) != len(r.recs) || len(m.blocks) != len(r.blocks) {
		return nil
	}
	for i := range r.blocks {
		if r.blocks[i] != m.blocks[i] {
			return nil
		}
	}
	return m.tmpl
}

// findLayout sets r.memo to the memo of the records' layout, computing it
// in place of the least recently used one when it is not remembered.
func (r *records) findLayout() {
	r.tick++
	lru := &r.memos[0]
	for i := range r.memos {
		m := &r.memos[i]
		if r.sameLayout(m) {
			m.used, r.memo = r.tick, m
			return
		}
		if m.used < lru.used {
			lru = m
		}
	}
	r.sortKeys(lru)
	lru.used, r.memo = r.tick, lru
}

// idTemplate returns the ID template of the current layout.
func (r *records) idTemplate() *trial.IDTemplate {
	if r.memo == nil {
		r.memo = &r.memos[0]
	}
	return &r.memo.id
}

// sortKeys computes, and keeps in m with the layout it is for, the stable
// order of the records by (metric, dims) and the runs of records with
// equal keys.
func (r *records) sortKeys(m *sortMemo) {
	r.mrank = rank(r.mrank, &r.order, len(r.blocks), func(a, b int32) int {
		return cmp.Compare(r.blocks[a].metric, r.blocks[b].metric)
	})
	r.drank = rank(r.drank, &r.order, len(r.dims), func(a, b int32) int { return trial.CompareDims(r.dims[a], r.dims[b]) })
	// Stable LSD radix sort on (metric rank, dims rank).
	n := len(r.recs)
	r.mkey, r.dkey = zeros(r.mkey, n), zeros(r.dkey, n)
	for i, x := range r.recs {
		r.mkey[i], r.dkey[i] = r.mrank[x.blk], r.drank[x.dims]
	}
	r.order, r.tmp = zeros(r.order, n), zeros(r.tmp, n)
	for i := range r.order {
		r.order[i] = int32(i)
	}
	r.countSort(r.order, r.tmp, len(r.dims), r.dkey)
	r.countSort(r.tmp, r.order, len(r.blocks), r.mkey)
	m.tmpl, m.blocks, m.neighbours = m.tmpl[:0], m.blocks[:0], 0
	m.order, m.runs = append(m.order[:0], r.order...), m.runs[:0]
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && r.mkey[r.order[hi]] == r.mkey[r.order[lo]] && r.dkey[r.order[hi]] == r.dkey[r.order[lo]] {
			hi++
		}
		if hi-lo > 1 {
			m.runs = append(m.runs, int32(lo), int32(hi))
		}
		lo = hi
	}
	m.keys = m.keys[:0]
	for _, x := range r.recs {
		m.keys = append(m.keys, uint64(x.blk)<<32|uint64(x.dims))
	}
	clear(m.metrics)
	m.metrics = m.metrics[:0]
	for _, b := range r.blocks {
		m.metrics = append(m.metrics, b.metric)
	}
	clear(m.dims)
	m.dims = append(m.dims[:0], r.dims...)
}

// sameLayout reports whether the records have the layout m was computed
// for: the same (block, dims) for every record, the same metric
// for every block and the same dims for every dims index. Files written by
// one tool version for one configuration share their layout, so the order
// is computed once for a directory of them.
func (r *records) sameLayout(m *sortMemo) bool {
	if m.used == 0 || len(m.keys) != len(r.recs) || len(m.metrics) != len(r.blocks) || len(m.dims) != len(r.dims) {
		return false
	}
	for i, x := range r.recs {
		if m.keys[i] != uint64(x.blk)<<32|uint64(x.dims) {
			return false
		}
	}
	for i := range r.blocks {
		if m.metrics[i] != r.blocks[i].metric {
			return false
		}
	}
	for i, d := range r.dims {
		if !slices.Equal(m.dims[i], d) {
			return false
		}
	}
	return true
}

// countSort stably sorts the indexes src into dst by key[index], whose
// values are in [0, k).
func (r *records) countSort(src, dst []int32, k int, key []int32) {
	r.count = zeros(r.count, k+1)
	for _, i := range src {
		r.count[key[i]+1]++
	}
	for j := 1; j <= k; j++ {
		r.count[j] += r.count[j-1]
	}
	for _, i := range src {
		c := &r.count[key[i]]
		dst[*c] = i
		*c++
	}
}

// rank returns in dst the rank of each of the items 0..n-1 ordered by cmp,
// equal items sharing a rank; order is scratch.
func rank(dst []int32, order *[]int32, n int, cmp func(a, b int32) int) []int32 {
	o := (*order)[:0]
	for i := range n {
		o = append(o, int32(i))
	}
	slices.SortFunc(o, cmp)
	dst = zeros(dst, n)
	r := int32(0)
	for j, id := range o {
		if j > 0 && cmp(o[j-1], id) != 0 {
			r++
		}
		dst[id] = r
	}
	*order = o
	return dst
}

// zeros returns s resized to n zeros.
func zeros(s []int32, n int) []int32 {
	s = slices.Grow(s[:0], n)[:n]
	clear(s)
	return s
}
