package ingest

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/pareto-llm/pareto/trial"
)

// sortMeasurements returns ms in the order trial.Finalize would give them
// (a stable sort by metric, dims and value), without sorting the 96-byte
// measurements themselves: every measurement gets a rank for its metric
// and one for its dims, the small pointer-free keys are sorted, and the
// measurements are copied once into a new, exactly sized slice. Swapping
// measurements in place is slow, all the more so while the garbage
// collector runs, when every pointer they hold needs a write barrier.
// ms is returned unchanged when it is already sorted; with a NaN value,
// whose comparisons are not a strict order, the stable sort itself is used.
func sortMeasurements(ms []trial.Measurement) []trial.Measurement {
	if len(ms) < 2 || slices.IsSortedFunc(ms, compareMeasurement) {
		return ms
	}
	s := sorters.Get().(*sorter)
	defer sorters.Put(s)
	out, ok := s.sort(ms)
	if !ok {
		slices.SortStableFunc(ms, compareMeasurement)
		return ms
	}
	return out
}

// compareMeasurement orders measurements as trial.Finalize does.
func compareMeasurement(a, b trial.Measurement) int {
	if c := strings.Compare(a.Metric, b.Metric); c != 0 {
		return c
	}
	if c := trial.CompareDims(a.Dims, b.Dims); c != 0 {
		return c
	}
	return compareValue(a.Value, b.Value)
}

func compareValue(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sorter is the reusable scratch state of sortMeasurements.
type sorter struct {
	metricID map[string]int32
	metrics  []string
	dimsID   map[dimsKey]int32
	dims     []trial.Dims
	mrank    []int32 // by metric id
	drank    []int32 // by dims id
	order    []int32
	keys     []sortKey
}

// dimsKey identifies a Dims slice: Dims are never modified in place, so
// one backing array and length always hold the same dims.
type dimsKey struct {
	p *trial.Dim
	n int
}

type sortKey struct {
	k uint64 // metric rank << 32 | dims rank
	v float64
	i int32
}

var sorters = sync.Pool{New: func() any {
	return &sorter{metricID: map[string]int32{}, dimsID: map[dimsKey]int32{}}
}}

func (s *sorter) sort(ms []trial.Measurement) ([]trial.Measurement, bool) {
	if len(ms) >= math.MaxInt32 {
		return nil, false
	}
	clear(s.metricID)
	clear(s.dimsID)
	s.metrics, s.dims, s.keys = s.metrics[:0], s.dims[:0], s.keys[:0]
	mid, did := int32(-1), int32(-1)
	for i := range ms {
		m := &ms[i]
		if math.IsNaN(m.Value) {
			return nil, false
		}
		if i == 0 || m.Metric != ms[i-1].Metric {
			mid = s.metricIndex(m.Metric)
		}
		if i == 0 || !sameDims(m.Dims, ms[i-1].Dims) {
			did = s.dimsIndex(m.Dims)
		}
		s.keys = append(s.keys, sortKey{k: uint64(mid)<<32 | uint64(did), v: m.Value, i: int32(i)})
	}
	s.mrank = s.ranks(s.mrank, len(s.metrics), func(a, b int32) int { return strings.Compare(s.metrics[a], s.metrics[b]) })
	s.drank = s.ranks(s.drank, len(s.dims), func(a, b int32) int { return trial.CompareDims(s.dims[a], s.dims[b]) })
	metricRank, dimsRank := s.mrank, s.drank
	for j := range s.keys {
		k := &s.keys[j]
		k.k = uint64(metricRank[k.k>>32])<<32 | uint64(dimsRank[uint32(k.k)])
	}
	slices.SortFunc(s.keys, func(a, b sortKey) int {
		if c := cmp.Compare(a.k, b.k); c != 0 {
			return c
		}
		if c := compareValue(a.v, b.v); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	out := make([]trial.Measurement, len(ms))
	for j, k := range s.keys {
		out[j] = ms[k.i]
	}
	clear(s.metrics) // do not pin the strings and dims in the pool
	clear(s.dims)
	return out, true
}

func sameDims(a, b trial.Dims) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func (s *sorter) metricIndex(name string) int32 { return intern(s.metricID, &s.metrics, name, name) }

func (s *sorter) dimsIndex(d trial.Dims) int32 { return intern(s.dimsID, &s.dims, keyOf(d), d) }

// intern returns the index of key in ids, first appending v to *vals and
// giving key its index there when key is new.
func intern[K comparable, V any](ids map[K]int32, vals *[]V, key K, v V) int32 {
	id, ok := ids[key]
	if !ok {
		id = int32(len(*vals))
		ids[key] = id
		*vals = append(*vals, v)
	}
	return id
}

// ranks sorts the ids 0..n-1 with cmp and returns each id's rank in dst,
// equal items sharing a rank.
func (s *sorter) ranks(dst []int32, n int, cmp func(a, b int32) int) []int32 {
	s.order = s.order[:0]
	for i := range n {
		s.order = append(s.order, int32(i))
	}
	slices.SortFunc(s.order, cmp)
	dst = slices.Grow(dst[:0], n)[:n]
	r := int32(0)
	for j, id := range s.order {
		if j > 0 && cmp(s.order[j-1], id) != 0 {
			r++
		}
		dst[id] = r
	}
	return dst
}

// sortCache remembers how the last records of a file were sorted: for
// each of up to four layouts, the metric and dims of each measurement in
// reading order, and the order sorting gave them. The records of a JSONL
// file or of appended results list the same members in the same order
// (or alternate between a few layouts), so a record with a known layout
// is put in order by one pass, without sorting.
type sortCache struct {
	layouts [4]sortLayout
	next    int // the layout to replace next
}

type sortLayout struct {
	metrics []string
	dims    []dimsKey
	order   []int32
	tmpls   []int32             // the templates of the records of this layout (recordScratch.measurements), when known
	sorted  []trial.Measurement // with tmpls: those templates in order, their values 0
	valid   bool
}

// sortCopy returns a sorted copy of ms, in the order sortMeasurements
// gives, reusing the order of an earlier call when ms has the same
// layout and no two of its measurements share a metric and dims (then the
// order does not depend on the values).
func sortCopy(ms []trial.Measurement, c *sortCache) []trial.Measurement {
	if l := c.find(ms); l != nil {
		out := make([]trial.Measurement, len(ms))
		for j, i := range l.order {
			out[j] = ms[i]
		}
		return out
	}
	s := sorters.Get().(*sorter)
	defer sorters.Put(s)
	out, ok := s.sort(ms)
	if !ok { // a NaN value
		out = slices.Clone(ms)
		slices.SortStableFunc(out, compareMeasurement)
		return out
	}
	for j := 1; j < len(s.keys); j++ {
		if s.keys[j].k == s.keys[j-1].k {
			return out // the order depends on the values
		}
	}
	l := &c.layouts[c.next]
	c.next = (c.next + 1) % len(c.layouts)
	l.metrics, l.dims, l.order, l.tmpls = l.metrics[:0], l.dims[:0], l.order[:0], l.tmpls[:0]
	clear(l.sorted)
	l.sorted = l.sorted[:0]
	for i := range ms {
		l.metrics = append(l.metrics, ms[i].Metric)
		l.dims = append(l.dims, keyOf(ms[i].Dims))
	}
	for _, k := range s.keys {
		l.order = append(l.order, k.i)
	}
	l.valid = true
	return out
}

// find returns the layout of ms, nil when none is known (or a value is
// NaN).
func (c *sortCache) find(ms []trial.Measurement) *sortLayout {
	for i := range c.layouts {
		if l := &c.layouts[i]; l.valid && l.matches(ms) {
			return l
		}
	}
	return nil
}

// matches reports whether ms has the layout l was made for and no NaN.
func (l *sortLayout) matches(ms []trial.Measurement) bool {
	if len(ms) != len(l.metrics) {
		return false
	}
	for i := range ms {
		m := &ms[i]
		if m.Metric != l.metrics[i] || keyOf(m.Dims) != l.dims[i] || math.IsNaN(m.Value) {
			return false
		}
	}
	return true
}

// keyOf identifies d by its backing array and length (see dimsKey).
func keyOf(d trial.Dims) dimsKey {
	if len(d) == 0 {
		return dimsKey{}
	}
	return dimsKey{&d[0], len(d)}
}
