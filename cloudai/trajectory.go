package cloudai

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DSE trajectory files CloudAI writes in an iteration directory: one record
// per executed step with the action (the swept values of that step).
const (
	trajectoryCSV   = "trajectory.csv"   // step,action,reward,observation; action is Python's str(dict)
	trajectoryJSONL = "trajectory.jsonl" // one JSON object per step with an "action" object
)

// Trajectory action keys that are not cmd_args paths (CloudAI
// TestRun.apply_params_set).
const (
	actionNumNodes     = "NUM_NODES"
	actionExtraEnvVars = "extra_env_vars."
)

// readTrajectory returns the action of every step recorded in iterDir, from
// trajectory.jsonl or else trajectory.csv. Both missing is not an error (nil
// map); an unreadable or malformed file is, naming file and line.
func readTrajectory(iterDir string) (map[int]map[string]any, error) {
	for _, name := range []string{trajectoryJSONL, trajectoryCSV} {
		path := filepath.Join(iterDir, name)
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading DSE trajectory: %w", err)
		}
		defer f.Close()
		if name == trajectoryJSONL {
			return trajectoryFromJSONL(path, f)
		}
		return trajectoryFromCSV(path, f)
	}
	return nil, nil
}

// trajectoryFromJSONL reads {"step": N, "action": {...}, ...} lines.
func trajectoryFromJSONL(path string, r io.Reader) (map[int]map[string]any, error) {
	out := map[int]map[string]any{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var rec struct {
			Step   *int           `json:"step"`
			Action map[string]any `json:"action"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, &PosError{File: path, Line: line, Msg: fmt.Sprintf("not a trajectory record: %v", err)}
		}
		if rec.Step == nil {
			return nil, &PosError{File: path, Line: line, Msg: "trajectory record has no step"}
		}
		out[*rec.Step] = fromJSON(rec.Action)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return out, nil
}

// fromJSON converts decoded JSON to the value types TOML decoding gives
// (int64 for whole numbers).
func fromJSON(v map[string]any) map[string]any {
	out := make(map[string]any, len(v))
	for k, x := range v {
		out[k] = jsonValue(x)
	}
	return out
}

func jsonValue(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case map[string]any:
		return fromJSON(x)
	}
	return v
}

// trajectoryFromCSV reads CloudAI's trajectory.csv: a header naming at least
// step and action, then one row per step.
func trajectoryFromCSV(path string, r io.Reader) (map[int]map[string]any, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, &PosError{File: path, Line: 1, Msg: fmt.Sprintf("no trajectory header: %v", err)}
	}
	stepCol, actionCol := -1, -1
	for i, h := range header {
		switch strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")) {
		case "step":
			stepCol = i
		case "action":
			actionCol = i
		}
	}
	if stepCol < 0 || actionCol < 0 {
		return nil, &PosError{File: path, Line: 1, Msg: fmt.Sprintf("trajectory header %q lacks step or action", strings.Join(header, ","))}
	}
	out := map[int]map[string]any{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, &PosError{File: path, Line: line, Msg: err.Error()}
		}
		if len(rec) <= max(stepCol, actionCol) {
			return nil, &PosError{File: path, Line: line, Msg: fmt.Sprintf("trajectory row has %d fields", len(rec))}
		}
		step, err := strconv.Atoi(strings.TrimSpace(rec[stepCol]))
		if err != nil {
			return nil, &PosError{File: path, Line: line, Msg: fmt.Sprintf("step %q is not an integer", rec[stepCol])}
		}
		action, err := parsePyDict(rec[actionCol])
		if err != nil {
			return nil, &PosError{File: path, Line: line, Msg: fmt.Sprintf("action: %v", err)}
		}
		out[step] = action
	}
}

// applyAction sets the swept values of one DSE step on def (cmd_args paths
// such as "decode.tp", "extra_env_vars.NAME") and returns the step's node
// count when the action sets NUM_NODES (else 0).
func applyAction(def *TestDefinition, action map[string]any) (int, error) {
	nodes := 0
	for _, k := range slices.Sorted(maps.Keys(action)) {
		v := action[k]
		switch {
		case k == actionNumNodes:
			n, err := intValue(v)
			if err != nil || n <= 0 {
				return 0, fmt.Errorf("action %s = %s is not a node count", k, renderValue(v))
			}
			nodes = n
		case strings.HasPrefix(k, actionExtraEnvVars):
			if def.ExtraEnvVars == nil {
				def.ExtraEnvVars = map[string]any{}
			}
			setPath(def.ExtraEnvVars, []string{strings.TrimPrefix(k, actionExtraEnvVars)}, v)
		default:
			if def.CmdArgs == nil {
				def.CmdArgs = map[string]any{}
			}
			if err := setPath(def.CmdArgs, strings.Split(k, "."), v); err != nil {
				return 0, fmt.Errorf("action %s: %v", k, err)
			}
		}
	}
	return nodes, nil
}

// setPath stores v at path in m, matching either key spelling and creating
// missing tables.
func setPath(m map[string]any, path []string, v any) error {
	for i, p := range path[:len(path)-1] {
		k, cur, ok := matchKey(m, p)
		if !ok {
			next := map[string]any{}
			m[p] = next
			m = next
			continue
		}
		next, isTable := cur.(map[string]any)
		if !isTable {
			return fmt.Errorf("%s is not a table", strings.Join(path[:i+1], "."))
		}
		m[k] = next
		m = next
	}
	last := path[len(path)-1]
	if k, _, ok := matchKey(m, last); ok {
		last = k
	}
	m[last] = v
	return nil
}

// parsePyDict parses the Python repr of a dict with string keys, as
// csv.writer renders CloudAI's action ({'decode.tp': 2, 'NUM_NODES': 1}).
// Values are None, True/False, integers, floats (inf, nan), strings, and
// lists or tuples of them.
func parsePyDict(s string) (map[string]any, error) {
	p := &pyParser{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if p.skipSpace(); p.i < len(p.s) {
		return nil, p.errorf("unexpected %q after the value", p.rest())
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%q is not a dict", s)
	}
	return m, nil
}

// pyParser is a recursive-descent parser for Python literals.
type pyParser struct {
	s     string
	i     int
	depth int
}

func (p *pyParser) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *pyParser) rest() string {
	r := p.s[p.i:]
	if len(r) > 20 {
		r = r[:20] + "…"
	}
	return r
}

func (p *pyParser) skipSpace() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// value parses one literal.
func (p *pyParser) value() (any, error) {
	if p.depth++; p.depth > 32 {
		return nil, p.errorf("nested too deeply")
	}
	defer func() { p.depth-- }()
	p.skipSpace()
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.dict()
	case c == '[':
		return p.list(']')
	case c == '(':
		return p.list(')')
	case c == '\'' || c == '"':
		return p.str()
	}
	return p.word()
}

// dict parses {key: value, ...} with string keys.
func (p *pyParser) dict() (any, error) {
	p.i++
	out := map[string]any{}
	for {
		p.skipSpace()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return out, nil
		}
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		key, ok := k.(string)
		if !ok {
			return nil, p.errorf("dict key %s is not a string", renderValue(k))
		}
		if p.skipSpace(); p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errorf("want ':' after dict key %q", key)
		}
		p.i++
		if out[key], err = p.value(); err != nil {
			return nil, err
		}
		if err := p.separator('}'); err != nil {
			return nil, err
		}
	}
}

// list parses [a, b] or (a, b).
func (p *pyParser) list(end byte) (any, error) {
	p.i++
	out := []any{}
	for {
		p.skipSpace()
		if p.i < len(p.s) && p.s[p.i] == end {
			p.i++
			return out, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if err := p.separator(end); err != nil {
			return nil, err
		}
	}
}

// separator consumes a ',' or leaves the closing end for the caller.
func (p *pyParser) separator(end byte) error {
	p.skipSpace()
	switch {
	case p.i < len(p.s) && p.s[p.i] == ',':
		p.i++
		return nil
	case p.i < len(p.s) && p.s[p.i] == end:
		return nil
	}
	return p.errorf("want ',' or %q", end)
}

// str parses a quoted string with Python's common escapes.
func (p *pyParser) str() (any, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			break
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if p.i+n > len(p.s) {
				return nil, p.errorf("short \\%c escape", e)
			}
			r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
			if err != nil || !utf8.ValidRune(rune(r)) {
				return nil, p.errorf("bad \\%c escape %q", e, p.s[p.i:p.i+n])
			}
			b.WriteRune(rune(r))
			p.i += n
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return nil, p.errorf("unterminated string")
}

// word parses None, True, False, inf, nan or a number.
func (p *pyParser) word() (any, error) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte(",:]})} \t\r\n", p.s[p.i]) < 0 {
		p.i++
	}
	w := p.s[start:p.i]
	switch w {
	case "None":
		return nil, nil
	case "True":
		return true, nil
	case "False":
		return false, nil
	case "":
		return nil, p.errorf("unexpected %q", p.rest())
	}
	if n, err := strconv.ParseInt(w, 10, 64); err == nil {
		return n, nil
	}
	if f, err := strconv.ParseFloat(w, 64); err == nil {
		return f, nil
	}
	return nil, fmt.Errorf("offset %d: %q is not a Python literal", start, w)
}
