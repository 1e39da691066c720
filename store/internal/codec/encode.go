package codec

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"hash/maphash"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/trial"
)

// EnvColumns lists the environment columns in table order.
var EnvColumns = func() []string {
	out := make([]string, len(trial.EnvLabels))
	for i, e := range trial.EnvLabels {
		out[i] = e.Column
	}
	return out
}()

// Env returns the environment column values of t.
func Env(t *trial.Trial) [6]string {
	var out [6]string
	for i, e := range trial.EnvLabels {
		for _, l := range e.Labels {
			if v := t.Labels[l]; v != "" {
				out[i] = v
				break
			}
		}
	}
	return out
}

// encodeList renders warnings as a JSON array ("[]" when empty).
func encodeList(l []string) string {
	if len(l) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(l, jsontext.AllowInvalidUTF8(true))
	return string(b)
}

// EncodeDims renders dims as a JSON object (keys already sorted), byte for
// byte as trial.Dims.MarshalJSON does: stored dims are matched as strings.
func EncodeDims(d trial.Dims) string {
	if len(d) == 0 {
		return ""
	}
	n := 2
	for _, x := range d {
		if !dimsSafe(x.Key) || !dimsSafe(x.Value) {
			b, _ := d.MarshalJSON()
			return string(b)
		}
		n += len(x.Key) + len(x.Value) + 6
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	for i, x := range d {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), x.Key...), '"', ':', '"')
		b = append(append(b, x.Value...), '"')
	}
	b = append(b, '}')
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Decoder turns stored text back into trial values, caching repeated
// values: a study has few distinct dims, units and label sets.
type Decoder struct {
	layouts map[string]*trial.Layout
	// canonical JSON of stored warnings and layouts, by stored text (see
	// canonicalWarnings, canonicalLayout)
	canonWarnings, canonLayouts map[string][]byte
	dims                        map[string]trial.Dims
	maps                        map[string]map[string]string
	strs                        map[string]string
	measurements                []trial.Measurement // UnpackMeasurements' scratch
	// slots is internBytes' cache, indexed by a hash of the bytes.
	slots *[internSlots]string
	seed  maphash.Seed
	// share hands out the maps of decodeMap's cache themselves, not
	// copies: the trials of a Scan share equal label (and parameter) maps,
	// which Scan's callers only read.
	share bool
}

// internSlots is the size of internBytes' cache.
const internSlots = 4096

// NewDecoder returns a Decoder for one read (not safe for concurrent use).
func NewDecoder() *Decoder {
	return &Decoder{dims: map[string]trial.Dims{}, maps: map[string]map[string]string{}, strs: map[string]string{},
		layouts: map[string]*trial.Layout{}, canonWarnings: map[string][]byte{}, canonLayouts: map[string][]byte{},
		slots: new([internSlots]string), seed: maphash.MakeSeed()}
}

// NewScanDecoder is the decoder of a Scan: equal maps are shared.
func NewScanDecoder() *Decoder {
	d := NewDecoder()
	d.share = true
	return d
}

// intern returns a shared copy of s.
func (d *Decoder) intern(s string) string {
	if v, ok := d.strs[s]; ok {
		return v
	}
	if len(d.strs) > 1<<16 {
		return s
	}
	d.strs[s] = s
	return s
}

// InternBytes is intern for a scanned byte slice, without allocating on hits.
//
// It keeps the strings in a small direct-mapped cache, not in the strs map:
// a read of a million trials meets a million distinct values (seeds,
// dates), which would fill a map whose lookups then miss the CPU caches
// (a tenth of the read); the values that repeat (engines, models, paths,
// parameter names) stay in their slots.
func (d *Decoder) InternBytes(b []byte) string {
	slot := &d.slots[maphash.Bytes(d.seed, b)&(internSlots-1)]
	if *slot == string(b) {
		return *slot
	}
	*slot = string(b)
	return *slot
}

// decodeDims parses the JSON object written by EncodeDims; the result is
// shared between measurements, as trial.Dims allows.
func (d *Decoder) decodeDims(b []byte) (trial.Dims, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if v, ok := d.dims[string(b)]; ok {
		return v, nil
	}
	var out trial.Dims
	if err := out.UnmarshalJSON(b); err != nil {
		return nil, fmt.Errorf("decoding dims %q: %w", b, err)
	}
	d.dims[string(b)] = out
	return out, nil
}

// DecodeMap parses a JSON object of strings; nil for "{}". Each call
// returns a map of its own.
func (d *Decoder) DecodeMap(b []byte) (map[string]string, error) {
	if len(b) == 0 || string(b) == "{}" {
		return nil, nil
	}
	if v, ok := d.maps[string(b)]; ok {
		if d.share {
			return v, nil
		}
		return maps.Clone(v), nil
	}
	m, ok := d.FlatMap(b)
	if !ok {
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("decoding %q: %w", truncate(b), err)
		}
		for k, v := range m { // intern keys and values shared across trials
			delete(m, k)
			m[d.intern(k)] = d.intern(v)
		}
	}
	if len(d.maps) < 1<<14 {
		if d.share {
			d.maps[string(b)] = m
		} else {
			d.maps[string(b)] = maps.Clone(m)
		}
	}
	return m, nil
}

// FlatMap parses a JSON object of strings without escapes, control
// characters, invalid UTF-8 or repeated keys, its keys and values
// interned, as json.Unmarshal would; it reports false for anything else
// (decodeMap then leaves it to json.Unmarshal). Parameters differ from
// trial to trial (a seed, a date), so that most of them miss decodeMap's
// cache: this is the common case of a read, and the cost of a million.
func (d *Decoder) FlatMap(b []byte) (map[string]string, bool) {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return nil, false
	}
	m := make(map[string]string, 1+bytes.Count(b, []byte{','}))
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return m, skipSpace(b, i+1) == len(b)
	}
	for {
		k, j, ok := plainString(b, i)
		if !ok {
			return nil, false
		}
		if i = skipSpace(b, j); i == len(b) || b[i] != ':' {
			return nil, false
		}
		v, j, ok := plainString(b, skipSpace(b, i+1))
		if !ok {
			return nil, false
		}
		key := d.InternBytes(k)
		if _, dup := m[key]; dup {
			return nil, false
		}
		m[key] = d.InternBytes(v)
		if i = skipSpace(b, j); i == len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return m, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

// plainString returns the contents of the JSON string at b[i:] and the
// index after it, or false when there is none or it needs unescaping.
func plainString(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	end := bytes.IndexByte(b[i+1:], '"')
	if end < 0 {
		return nil, 0, false
	}
	s := b[i+1 : i+1+end]
	ascii := true
	for _, c := range s {
		if c < 0x20 || c == '\\' {
			return nil, 0, false
		}
		ascii = ascii && c < utf8.RuneSelf
	}
	if !ascii && !utf8.Valid(s) {
		return nil, 0, false
	}
	return s, i + 2 + end, true
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// DecodeList parses a JSON array of strings; nil for "[]".
func DecodeList(b []byte) ([]string, error) {
	if len(b) == 0 || string(b) == "[]" {
		return nil, nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("decoding %q: %w", truncate(b), err)
	}
	return l, nil
}

func truncate(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// Prepared is a trial ready to be written: ID set, labels, params and
// dims encoded.
type Prepared struct {
	Trial          *trial.Trial // the trial as it will be stored (see AsStored)
	ID             string       // its ID, computed when it had none
	Labels, Params string       // its labels and params as JSON objects
	Dims           []string     // the encoded dims of each measurement
	Packed         []byte       // the measurements, see PackMeasurements
	Layout         string       // the deployment's layout as JSON, "" when none
	Warnings       string       // the warnings as JSON (encodeList)
	// ContentID is the content hash of the trial as stored (trial.ComputeID
	// of what a read returns) when it is not id: an ID the caller set, or a
	// trial the store keeps in its canonical form (see asStored).
	ContentID string
	Checksum  int64 // TrialChecksum of the row
	// ParamRefs are the parameters Params leaves out, given back by the
	// measurements (see "Parameter references").
	ParamRefs int64
	RepeatKey string // SketchKey of the trial as stored
	Row       int64  // row id reserved by the PostgreSQL store
}

// Prepare computes missing IDs and encodes labels, params and dims, in
// parallel, then drops duplicates of an ID within the source
// (counted as present).
func Prepare(trials []trial.Trial) (out []Prepared, dups int) {
	all := make([]Prepared, len(trials))
	workers := min(runtime.GOMAXPROCS(0), 1+len(trials)/512)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			encodeTrials(trials, all, len(trials)*w/workers, len(trials)*(w+1)/workers)
		}()
	}
	wg.Wait()
	seen := make(map[string]bool, len(trials))
	out = all[:0]
	for _, p := range all {
		if seen[p.ID] {
			dups++
			continue
		}
		seen[p.ID] = true
		out = append(out, p)
	}
	return out, dups
}

// encodeTrials fills out[from:to] from trials[from:to].
func encodeTrials(trials []trial.Trial, out []Prepared, from, to int) {
	type dimsKey struct {
		p *trial.Dim
		n int
	}
	encoded := map[dimsKey]string{} // dims slices are shared and immutable
	var enc JSONEncoder
	var names WorkloadNames
	dec := NewDecoder()
	for i := from; i < to; i++ {
		t := &trials[i]
		p := &out[i]
		p.Trial, p.ID = t, t.ID
		if p.ID == "" {
			p.ID = trial.ComputeID(t)
		}
		p.Labels = strings.Clone(enc.MapString(t.Labels))
		p.ParamRefs = ParamRefs(t)
		p.Params = strings.Clone(enc.mapString(t.Params, p.ParamRefs, t.Measurements))
		p.Dims = make([]string, len(t.Measurements))
		for j := range t.Measurements {
			d := t.Measurements[j].Dims
			if len(d) == 0 {
				continue
			}
			k := dimsKey{unsafe.SliceData(d), len(d)}
			e, ok := encoded[k]
			if !ok {
				e = EncodeDims(d)
				encoded[k] = e
			}
			p.Dims[j] = e
		}
		p.Packed = PackMeasurements(make([]byte, 0, 48*len(t.Measurements)), t.Measurements, p.Dims) // never nil: NULL is not allowed
		if t.Deployment != nil {
			p.Layout = encodeLayout(t.Deployment.Layout)
		}
		p.Warnings = encodeList(t.Warnings)
		p.seal(dec, &names)
	}
}

// seal computes what reads verify: the content hash of the trial as it
// will be read back, kept when it is not the trial's ID, and the row's
// checksum. A trial the store cannot keep exactly as given is replaced by
// its stored form (asStored).
func (p *Prepared) seal(d *Decoder, names *WorkloadNames) {
	content := p.ID
	if !storedExactly(p.Trial, p) {
		// Decoding the store's own encodings cannot fail; if it did, the
		// trial would be stored as given, and reported by its reads.
		if c, err := asStored(p.Trial, p, d); err == nil {
			p.Trial = c
		}
		content = trial.ComputeID(p.Trial)
	} else if p.Trial.ID != "" {
		content = trial.ComputeID(p.Trial) // an ID set by the caller need not be the content hash
	}
	if content != p.ID {
		p.ContentID = content
	}
	t := p.Trial
	p.RepeatKey = names.Key(t)
	var dep trial.Deployment
	if t.Deployment != nil {
		dep = *t.Deployment
	}
	p.Checksum = TrialChecksum(p.ID, t.Source.Path, t.Source.Format, t.Source.FormatVersion, int64(t.Source.Line), p.Packed, p.Warnings, p.Layout,
		int64(dep.AllocatedGPUs), dep.AllocatedGPUsUnknown, int64(dep.ServingGPUs), dep.ServingGPUsUnknown, dep.ConfigPath, dep.Config,
		t.Source.Session)
}

// SortByID orders prepared trials by ID, so that concurrent
// writers lock unique-index entries in one order.
func SortByID(ps []Prepared) {
	slices.SortFunc(ps, func(a, b Prepared) int { return strings.Compare(a.ID, b.ID) })
}

// JSONEncoder renders flat string maps as JSON objects with sorted keys,
// reusing its buffers; the result is valid until the next call.
type JSONEncoder struct {
	keys []string
	buf  []byte
}

// MapString renders m ("{}" when empty); the string shares the encoder's
// buffer and is only valid until the next call.
func (e *JSONEncoder) MapString(m map[string]string) string { return e.mapString(m, 0, nil) }

// mapString is MapString leaving out the parameters that refs references
// in ms (see "Parameter references").
func (e *JSONEncoder) mapString(m map[string]string, refs int64, ms []trial.Measurement) string {
	e.keys = e.keys[:0]
	for k := range m {
		if refs == 0 || !referenced(k, refs, ms) {
			e.keys = append(e.keys, k)
		}
	}
	if len(e.keys) == 0 {
		return "{}"
	}
	slices.Sort(e.keys)
	b := append(e.buf[:0], '{')
	for i, k := range e.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONString(b, m[k])
	}
	e.buf = append(b, '}')
	return unsafe.String(unsafe.SliceData(e.buf), len(e.buf))
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// dimsSafe reports whether Dims.MarshalJSON writes s unescaped.
func dimsSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= utf8.RuneSelf, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// encodeLayout renders a serving layout as JSON ("" for none), with
// encoding/json, as trial.Trial's JSON has it: a nil list stays null.
func encodeLayout(l *trial.Layout) string {
	if l == nil {
		return ""
	}
	b, _ := stdjson.Marshal(l) // strings, numbers and bools only
	return string(b)
}

// KnownWarnings reports whether canonicalWarnings has the stored text
// cached (its decoded value is then not needed).
func (d *Decoder) KnownWarnings(stored []byte) bool {
	_, ok := d.canonWarnings[string(stored)]
	return ok
}

// KnownLayout is knownWarnings for canonicalLayout.
func (d *Decoder) KnownLayout(stored []byte) bool { _, ok := d.canonLayouts[string(stored)]; return ok }

// CanonicalWarnings returns the warnings as the ingest encoded them
// (encodeList), from their stored text (the same text in SQLite;
// PostgreSQL's jsonb respells it) and decoded value (unused when the text
// is cached).
func (d *Decoder) CanonicalWarnings(stored []byte, ws []string) []byte {
	if len(stored) == 0 || string(stored) == "[]" {
		return []byte("[]")
	}
	return canonical(d.canonWarnings, stored, func() string { return encodeList(ws) })
}

// CanonicalLayout returns a deployment's layout as the ingest encoded it
// (encodeLayout), from its stored text and decoded value.
func (d *Decoder) CanonicalLayout(stored []byte, dep *trial.Deployment) []byte {
	if len(stored) == 0 {
		return nil
	}
	return canonical(d.canonLayouts, stored, func() string {
		if dep == nil {
			return ""
		}
		return encodeLayout(dep.Layout)
	})
}

// canonical caches encode's result in cache by stored text.
func canonical(cache map[string][]byte, stored []byte, encode func() string) []byte {
	if c, ok := cache[string(stored)]; ok {
		return c
	}
	c := []byte(encode())
	if len(cache) < 1<<12 {
		cache[string(stored)] = c
	}
	return c
}

// Deployment returns the stored deployment columns of a trial as
// trial.Deployment, nil when they are all empty; layouts are decoded once
// per distinct text and shared.
func (d *Decoder) Deployment(layout []byte, alloc int64, allocWhy []byte, serving int64, servingWhy, path, config []byte) (*trial.Deployment, error) {
	if len(layout) == 0 && alloc == 0 && serving == 0 && len(allocWhy) == 0 && len(servingWhy) == 0 && len(path) == 0 && len(config) == 0 {
		return nil, nil
	}
	dep := &trial.Deployment{AllocatedGPUs: int(alloc), AllocatedGPUsUnknown: d.InternBytes(allocWhy),
		ServingGPUs: int(serving), ServingGPUsUnknown: d.InternBytes(servingWhy), ConfigPath: string(path),
		Config: string(config)}
	if len(layout) > 0 {
		l, ok := d.layouts[string(layout)]
		if !ok {
			l = new(trial.Layout)
			if err := stdjson.Unmarshal(layout, l); err != nil {
				return nil, fmt.Errorf("decoding layout %q: %w", truncate(layout), err)
			}
			if len(d.layouts) < 1<<12 {
				d.layouts[string(layout)] = l
			}
		}
		dep.Layout = l
	}
	return dep, nil
}
