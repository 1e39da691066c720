package search

import (
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/pareto-llm/pareto/internal/position"
)

// ReadSpace reads a search space from a TOML file (see ParseSpace).
func ReadSpace(path string) (*Space, error) {
	s, _, err := ReadSpaceText(path)
	return s, err
}

// ReadSpaceText reads a search space from a TOML file as ReadSpace does,
// and returns the file's text with it (what a tuning study keeps).
func ReadSpaceText(path string) (*Space, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("reading search space: %w", err)
	}
	s, err := ParseSpace(path, data)
	if err != nil {
		return nil, "", err
	}
	return s, string(data), nil
}

// ParseSpace decodes a search space from TOML; file names it in errors.
// Every problem is reported with its file:line:col (a position.List, or a
// *position.Error for TOML syntax):
//
//	constraints = ["tp * pp * dp <= gpus"]   # before the first [table]
//	result = ["results/*.json"]   # a run's result files (default: every benchmark result it leaves)
//
//	[constants]
//	gpus = 8
//
//	[params.tp]                   # categorical: values
//	values = [1, 2, 4, 8]
//	default = 1
//
//	[params.max_num_seqs]         # int: integer low and high
//	low = 8
//	high = 512
//	log = true
//
//	[params.gpu_memory_utilization]
//	type = "float"                # float: any number low..high
//	low = 0.7
//	high = 0.95
//	step = 0.05
//
//	[params.max_concurrency]
//	values = [8, 32, 128]
//	knob = "client"               # no restart needed (default "server")
//
//	[params.max_num_batched_tokens]
//	values = [512, 2048, 8192]
//	when = { enable_chunked_prefill = true }   # only when ... (or [v1, v2])
//
// Parameters keep the order of the file; a condition names an earlier
// parameter.
func ParseSpace(file string, data []byte) (*Space, error) {
	var doc map[string]any
	if err := position.DecodeTOML(file, data, &doc); err != nil {
		return nil, err
	}
	d := &spaceDecoder{file: file, data: data, ix: position.IndexTOML(data)}
	s := d.document(doc)
	errs := d.errs
	if err := s.compile(); err != nil {
		errs = append(errs, err.(position.List)...)
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return s, nil
}

type spaceDecoder struct {
	file string
	data []byte
	ix   position.TOMLIndex
	errs position.List
}

func (d *spaceDecoder) errorf(path, format string, args ...any) {
	at := d.ix[path]
	d.errs = append(d.errs, &position.Error{File: d.file, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(format, args...)})
}

// keys reports every key of m that is not allowed.
func (d *spaceDecoder) keys(path string, m map[string]any, allowed ...string) {
	for k := range m {
		if !slices.Contains(allowed, k) {
			hint := ""
			if path != "" && slices.Contains([]string{"constraints", "params", "constants", "result"}, k) {
				hint = " (top-level keys go before the first [table])"
			}
			where := path
			if where == "" {
				where = "the top level"
			}
			d.errorf(position.JoinKey(path, k), "unknown key %q in %s (want %s)%s", k, where, strings.Join(allowed, ", "), hint)
		}
	}
}

func (d *spaceDecoder) document(doc map[string]any) *Space {
	s := &Space{File: d.file, Constants: map[string]float64{}}
	d.keys("", doc, "params", "constants", "constraints", "result")
	if v, ok := doc["constants"]; ok {
		m, ok := v.(map[string]any)
		if !ok {
			d.errorf("constants", "constants must be a table of numbers")
		}
		for k, x := range m {
			if f, ok := number(x); ok {
				s.Constants[k] = f
			} else {
				d.errorf("constants."+k, "constant %s must be a number", k)
			}
		}
	}
	params, ok := doc["params"].(map[string]any)
	if !ok {
		if _, has := doc["params"]; has {
			d.errorf("params", "params must be a table of [params.NAME] tables")
		}
		return s // compile reports a space without parameters
	}
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { // file order
		return d.ix["params."+names[i]].Compare(d.ix["params."+names[j]]) < 0
	})
	for _, name := range names {
		path := "params." + name
		m, ok := params[name].(map[string]any)
		if !ok {
			d.errorf(path, "parameter %s must be a table ([params.%s])", name, name)
			s.Params = append(s.Params, Param{Name: name, At: d.ix[path], broken: true})
			continue
		}
		before := len(d.errs)
		p := d.param(path, name, m)
		p.broken = len(d.errs) > before
		s.Params = append(s.Params, p)
	}
	d.stringArray(doc, "result", "result must be an array of glob patterns such as [\"results/*.json\"]", "result pattern", func(path, text string) {
		if err := CheckResultPattern(text); err != nil {
			d.errorf(path, "%v", err)
			return
		}
		at, _ := d.stringStart(d.ix[path], text)
		s.Results = append(s.Results, ResultPattern{Pattern: text, At: at})
	})
	d.stringArray(doc, "constraints", "constraints must be an array of strings such as [\"tp * pp <= gpus\"]", "constraint", func(path, text string) {
		at, exact := d.stringStart(d.ix[path], text)
		s.Constraints = append(s.Constraints, Constraint{Text: text, At: at, exact: exact})
	})
	return s
}

// stringArray decodes the array of strings doc[key], when present, giving
// add each string and its key path; notArray is the error of a value
// that is no array, item names an element in the error of one that is
// no string.
func (d *spaceDecoder) stringArray(doc map[string]any, key, notArray, item string, add func(path, text string)) {
	v, ok := doc[key]
	if !ok {
		return
	}
	list, ok := v.([]any)
	if !ok {
		d.errorf(key, "%s", notArray)
	}
	for i, x := range list {
		path := position.JoinKey(key, fmt.Sprint(i))
		text, ok := x.(string)
		if !ok {
			d.errorf(path, "%s %d must be a string", item, i+1)
			continue
		}
		add(path, text)
	}
}

// param decodes one [params.NAME] table.
func (d *spaceDecoder) param(path, name string, m map[string]any) Param {
	d.keys(path, m, "type", "values", "low", "high", "step", "log", "knob", "when", "default")
	p := Param{Name: name, At: d.ix[path], fieldPos: map[string]position.Pos{}}
	for k := range m {
		p.fieldPos[k] = d.ix[position.JoinKey(path, k)]
	}
	if list, ok := m["values"].([]any); ok { // each value's own position
		for i := range list {
			k := position.JoinKey("values", fmt.Sprint(i))
			p.fieldPos[k] = d.ix[position.JoinKey(path, k)]
		}
	}
	field := func(k string) string { return position.JoinKey(path, k) }
	_, hasValues := m["values"]
	_, hasLow := m["low"]
	_, hasHigh := m["high"]
	kind, _ := m["type"].(string)
	switch {
	case m["type"] != nil && kindByName(kind) == 0:
		d.errorf(field("type"), "parameter %s: type must be \"categorical\", \"int\" or \"float\"", name)
		return p
	case kind != "":
		p.Kind = kindByName(kind)
	case hasValues:
		p.Kind = Categorical
	case hasLow || hasHigh:
		p.Kind = Int
		for _, k := range []string{"low", "high", "step"} {
			if _, isFloat := m[k].(float64); isFloat {
				p.Kind = Float
			}
		}
	default:
		d.errorf(path, "parameter %s needs values = [...] or low and high", name)
		return p
	}
	switch p.Kind {
	case Categorical:
		if hasLow || hasHigh {
			d.errorf(path, "parameter %s: give values or low and high, not both", name)
		}
		p.Values = d.values(field("values"), m["values"])
	default:
		if hasValues {
			d.errorf(field("values"), "parameter %s: an %s parameter takes low and high, not values", name, p.Kind)
		}
		for _, k := range []string{"low", "high"} {
			if _, ok := m[k]; !ok {
				d.errorf(path, "parameter %s: %s is missing", name, k)
			}
		}
		p.Low = d.num(field("low"), m["low"])
		p.High = d.num(field("high"), m["high"])
		if v, ok := m["step"]; ok {
			p.Step = d.num(field("step"), v)
			if p.Step <= 0 {
				d.errorf(field("step"), "parameter %s: step must be positive", name)
			}
		}
		if v, ok := m["log"]; ok {
			b, ok := v.(bool)
			if !ok {
				d.errorf(field("log"), "parameter %s: log must be true or false", name)
			}
			p.Log = b
		}
	}
	if v, ok := m["knob"]; ok {
		switch v {
		case "server":
			p.Knob = Server
		case "client":
			p.Knob = Client
		default:
			d.errorf(field("knob"), "parameter %s: knob must be \"server\" (a restart is needed) or \"client\"", name)
		}
	}
	if v, ok := m["default"]; ok {
		p.Default, p.HasDefault = d.value(field("default"), v)
	}
	if v, ok := m["when"]; ok {
		p.When = d.conditions(field("when"), name, v)
	}
	return p
}

func kindByName(s string) Kind {
	for k, n := range kindNames {
		if n == s {
			return k
		}
	}
	return 0
}

// conditions decodes when = { other = value | [values] }.
func (d *spaceDecoder) conditions(path, name string, v any) []Condition {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		d.errorf(path, "parameter %s: when must be a table such as { other = value }", name)
		return nil
	}
	keys := slices.Sorted(maps.Keys(m))
	var out []Condition
	for _, k := range keys {
		c := Condition{Param: k, At: d.ix[position.JoinKey(path, k)]}
		if list, isList := m[k].([]any); isList {
			c.Values = d.values(position.JoinKey(path, k), list)
		} else if x, ok := d.value(position.JoinKey(path, k), m[k]); ok {
			c.Values = []Value{x}
		}
		out = append(out, c)
	}
	return out
}

// values decodes a non-empty array of values.
func (d *spaceDecoder) values(path string, v any) []Value {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		d.errorf(path, "values must be a non-empty array such as [1, 2, 4]")
		return nil
	}
	var out []Value
	for i, x := range list {
		if val, ok := d.value(position.JoinKey(path, fmt.Sprint(i)), x); ok {
			out = append(out, val)
		}
	}
	return out
}

// value decodes one number, string or boolean.
func (d *spaceDecoder) value(path string, v any) (Value, bool) {
	if f, ok := number(v); ok {
		return Num(f), true
	}
	switch x := v.(type) {
	case string:
		return Text(x), true
	case bool:
		return Bool(x), true
	}
	d.errorf(path, "want a number, a string or a boolean")
	return Value{}, false
}

func (d *spaceDecoder) num(path string, v any) float64 {
	f, ok := number(v)
	if !ok && v != nil {
		d.errorf(path, "want a number")
	}
	return f
}

// number converts a TOML integer or float.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return 0, false
}

// stringStart returns the position of the first character of the string
// text whose literal starts at p, and whether it is exact: a single-line
// string without escapes maps each byte of text to one column.
func (d *spaceDecoder) stringStart(p position.Pos, text string) (position.Pos, bool) {
	if p.Line == 0 {
		return p, false
	}
	line := 1
	start := 0
	for i := 0; i < len(d.data) && line < p.Line; i++ {
		if d.data[i] == '\n' {
			line++
			start = i + 1
		}
	}
	off := start + p.Col - 1
	if off < 0 || off >= len(d.data) {
		return p, false
	}
	q := d.data[off]
	if q != '"' && q != '\'' {
		return p, false
	}
	lit := string(q) + text + string(q)
	if off+len(lit) > len(d.data) || string(d.data[off:off+len(lit)]) != lit {
		return p, false // escapes or a multi-line string
	}
	return position.Pos{Line: p.Line, Col: p.Col + 1}, true
}
