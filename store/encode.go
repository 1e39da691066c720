package store

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/trial"
)

// EnvLabels maps each environment column of the trials table to the labels
// it is copied from, first present wins.
var EnvLabels = []struct {
	Column string
	Labels []string
}{
	{"engine", []string{trial.LabelEngine}},
	{"engine_version", []string{trial.LabelEngineVersion}},
	{"cuda", []string{"cuda", "cuda_version"}},
	{"driver", []string{"driver", "driver_version"}},
	{"gpu", []string{"gpu", "gpu_model", trial.LabelHardware}},
	{"host", []string{"host", "hostname"}},
}

// envColumns lists the environment columns in table order.
var envColumns = func() []string {
	out := make([]string, len(EnvLabels))
	for i, e := range EnvLabels {
		out[i] = e.Column
	}
	return out
}()

// env returns the environment column values of t.
func env(t *trial.Trial) [6]string {
	var out [6]string
	for i, e := range EnvLabels {
		for _, l := range e.Labels {
			if v := t.Labels[l]; v != "" {
				out[i] = v
				break
			}
		}
	}
	return out
}

// encodeMap renders a flat string map as a JSON object with sorted keys
// ("{}" when empty).
func encodeMap(m map[string]string) string {
	if len(m) == 0 {
		return "{}"
	}
	b, err := json.Marshal(m, json.Deterministic(true))
	if err != nil { // invalid UTF-8 is replaced, not rejected, below
		b, _ = json.Marshal(m, json.Deterministic(true), jsontext.AllowInvalidUTF8(true))
	}
	return string(b)
}

// encodeList renders warnings as a JSON array ("[]" when empty).
func encodeList(l []string) string {
	if len(l) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(l, jsontext.AllowInvalidUTF8(true))
	return string(b)
}

// encodeDims renders dims as a JSON object (keys already sorted).
func encodeDims(d trial.Dims) string {
	if len(d) == 0 {
		return ""
	}
	b, _ := d.MarshalJSON()
	return string(b)
}

// nullable maps NaN, which SQL engines store as NULL or reject, to nil.
func nullable(v float64) any {
	if math.IsNaN(v) {
		return nil
	}
	return v
}

// decoder turns stored text back into trial values, caching repeated
// values: a study has few distinct dims, units and label sets.
type decoder struct {
	dims    map[string]trial.Dims
	maps    map[string]map[string]string
	strs    map[string]string
	scratch []string
}

func newDecoder() *decoder {
	return &decoder{dims: map[string]trial.Dims{}, maps: map[string]map[string]string{}, strs: map[string]string{}}
}

// intern returns a shared copy of s.
func (d *decoder) intern(s string) string {
	if v, ok := d.strs[s]; ok {
		return v
	}
	if len(d.strs) > 1<<16 {
		return s
	}
	d.strs[s] = s
	return s
}

// internBytes is intern for a scanned byte slice, without allocating on hits.
func (d *decoder) internBytes(b []byte) string {
	if v, ok := d.strs[string(b)]; ok {
		return v
	}
	return d.intern(string(b))
}

// decodeDims parses the JSON object written by encodeDims; the result is
// shared between measurements, as trial.Dims allows.
func (d *decoder) decodeDims(b []byte) (trial.Dims, error) {
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

// decodeMap parses a JSON object of strings; nil for "{}". Each call
// returns a map of its own.
func (d *decoder) decodeMap(b []byte) (map[string]string, error) {
	if len(b) == 0 || string(b) == "{}" {
		return nil, nil
	}
	if v, ok := d.maps[string(b)]; ok {
		return maps.Clone(v), nil
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("decoding %q: %w", truncate(b), err)
	}
	for k, v := range m { // intern keys and values shared across trials
		delete(m, k)
		m[d.intern(k)] = d.intern(v)
	}
	if len(d.maps) < 1<<14 {
		d.maps[string(b)] = maps.Clone(m)
	}
	return m, nil
}

// decodeList parses a JSON array of strings; nil for "[]".
func decodeList(b []byte) ([]string, error) {
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

// prepared is a trial ready to be written: ID set, measurements sorted.
type prepared struct {
	t    *trial.Trial
	id   string
	dims []string
	row  int64 // row id reserved by the PostgreSQL store
}

// prepare computes missing IDs and encodes dims, dropping duplicates of a
// content hash within the source (counted as present).
func prepare(trials []trial.Trial) (out []prepared, dups int) {
	seen := make(map[string]bool, len(trials))
	out = make([]prepared, 0, len(trials))
	for i := range trials {
		t := &trials[i]
		id := t.ID
		if id == "" {
			id = trial.ComputeID(t)
		}
		if seen[id] {
			dups++
			continue
		}
		seen[id] = true
		p := prepared{t: t, id: id, dims: make([]string, len(t.Measurements))}
		for j := range t.Measurements {
			p.dims[j] = encodeDims(t.Measurements[j].Dims)
		}
		out = append(out, p)
	}
	return out, dups
}

// sortByID orders prepared trials by content hash, so that concurrent
// writers lock unique-index entries in one order.
func sortByID(ps []prepared) {
	slices.SortFunc(ps, func(a, b prepared) int { return strings.Compare(a.id, b.id) })
}
