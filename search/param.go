package search

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pareto-llm/pareto/internal/position"
)

// A parameter's own checks, its values and its sampling coordinates.

type fieldMsg struct{ field, text string }

// check validates a parameter's own fields and prepares its grid.
func (p *Param) check() []fieldMsg {
	var out []fieldMsg
	bad := func(field, format string, args ...any) {
		out = append(out, fieldMsg{field, fmt.Sprintf(format, args...)})
	}
	if !validName(p.Name) {
		bad("", "a name is a letter or _, then letters, digits or _")
	}
	if p.Knob == 0 {
		p.Knob = Server
	}
	switch p.Kind {
	case Categorical:
		if len(p.Values) == 0 {
			bad("values", "a categorical parameter needs at least one value")
		}
		for i, v := range p.Values {
			if x, ok := v.Float(); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
				bad("values", "value %d is not finite", i+1)
			}
			if msg := textProblem(v); msg != "" {
				bad("values."+strconv.Itoa(i), "value %d %s", i+1, msg)
			}
			for _, w := range p.Values[:i] {
				if v.Equal(w) {
					bad("values", "value %s is listed twice", v)
				}
			}
		}
		if p.Log || p.Step != 0 || p.Low != 0 || p.High != 0 {
			bad("values", "a categorical parameter takes values, not low, high, step or log")
		}
	case Int, Float:
		out = append(out, p.checkRange()...)
	default:
		bad("", "unknown kind")
	}
	if p.HasDefault && !p.Contains(p.Default) {
		bad("default", "the default %s is not a value the parameter takes", p.Default)
	}
	return out
}

func (p *Param) checkRange() []fieldMsg {
	var out []fieldMsg
	bad := func(field, format string, args ...any) {
		out = append(out, fieldMsg{field, fmt.Sprintf(format, args...)})
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	if !finite(p.Low) || !finite(p.High) || !finite(p.Step) {
		bad("low", "low, high and step must be finite numbers")
		return out
	}
	if !(p.Low < p.High) {
		bad("high", "high (%g) must be greater than low (%g); use values = [%g] for a fixed value", p.High, p.Low, p.Low)
		return out
	}
	if p.Kind == Int {
		if p.Step == 0 {
			p.Step = 1
		}
		if p.Low != math.Trunc(p.Low) || p.High != math.Trunc(p.High) || p.Step != math.Trunc(p.Step) {
			bad("low", "an int parameter's low, high and step must be integers")
			return out
		}
	}
	if p.Step < 0 {
		bad("step", "step must be positive")
		return out
	}
	if p.Log {
		if p.Low <= 0 {
			bad("low", "a log-scale parameter needs low > 0")
		}
		if p.Step != 0 && !(p.Kind == Int && p.Step == 1) {
			bad("step", "a log-scale parameter cannot have a step")
		}
	}
	if p.Step > 0 {
		n := (p.High - p.Low) / p.Step
		if math.Abs(n-math.Round(n)) > 1e-9*math.Max(1, n) {
			bad("step", "high - low (%g) is not a multiple of step %g", p.High-p.Low, p.Step)
		}
		if n+1 > MaxGrid {
			bad("step", "%g values are more than %d", n+1, MaxGrid)
		}
		p.n = int(math.Round(n)) + 1
		p.decimals = max(decimals(p.Low), decimals(p.Step))
	}
	return out
}

// decimals returns the number of decimal places of v's shortest form.
func decimals(v float64) int {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

func (p *Param) pos(field string) position.Pos {
	if at, ok := p.fieldPos[field]; ok {
		return at
	}
	return p.At
}

// numeric reports whether every value of p is a number.
func (p *Param) numeric() bool {
	if p.Kind != Categorical {
		return true
	}
	for _, v := range p.Values {
		if !v.IsNum() {
			return false
		}
	}
	return true
}

// Contains reports whether p takes the value v.
func (p *Param) Contains(v Value) bool {
	if p.Kind == Categorical {
		return slices.ContainsFunc(p.Values, v.Equal)
	}
	x, ok := v.Float()
	if !ok || !(x >= p.Low && x <= p.High) {
		return false
	}
	if p.Kind == Int && x != math.Trunc(x) {
		return false
	}
	if p.Step > 0 {
		k := (x - p.Low) / p.Step
		return math.Abs(k-math.Round(k)) <= 1e-9*math.Max(1, k)
	}
	return true
}

// gridValue returns the i-th of p's n grid points.
func (p *Param) gridValue(i int) Value {
	v := p.Low + float64(i)*p.Step
	if p.Kind == Float {
		v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'f', p.decimals, 64), 64)
	}
	return Num(min(v, p.High))
}

// count returns how many values p takes on a grid, or 0 when it is
// continuous.
func (p *Param) count() int {
	switch {
	case p.Kind == Categorical:
		return len(p.Values)
	case p.Step > 0:
		return p.n
	}
	return 0
}

// bounds returns the interval of p's internal coordinate: a category's
// index in [0, len), a grid point's index in [-0.5, n-0.5], the
// logarithm of a log-scale value, or the value itself.
func (p *Param) bounds() (lo, hi float64) {
	switch {
	case p.Kind == Categorical:
		return 0, float64(len(p.Values))
	case p.Log && p.Kind == Int:
		return math.Log(p.Low - 0.5), math.Log(p.High + 0.5)
	case p.Log:
		return math.Log(p.Low), math.Log(p.High)
	case p.Step > 0:
		return -0.5, float64(p.n) - 0.5
	}
	return p.Low, p.High
}

// fromCoord returns the value at internal coordinate x (clamped to the
// bounds).
func (p *Param) fromCoord(x float64) Value {
	switch {
	case p.Kind == Categorical:
		return p.Values[clampIndex(math.Floor(x), len(p.Values))]
	case p.Log && p.Kind == Int:
		return Num(math.Min(math.Max(math.Round(math.Exp(x)), p.Low), p.High))
	case p.Log:
		return Num(math.Min(math.Max(math.Exp(x), p.Low), p.High))
	case p.Step > 0:
		return p.gridValue(clampIndex(math.Round(x), p.n))
	}
	return Num(math.Min(math.Max(x, p.Low), p.High))
}

// toCoord returns the internal coordinate of a value p takes.
func (p *Param) toCoord(v Value) float64 {
	x, _ := v.Float()
	switch {
	case p.Kind == Categorical:
		return float64(slices.IndexFunc(p.Values, v.Equal))
	case p.Log:
		return math.Log(x)
	case p.Step > 0:
		return math.Round((x - p.Low) / p.Step)
	}
	return x
}

// fromUnit returns the value at u in [0, 1): uniform over p's values, or
// log-uniform with Log.
func (p *Param) fromUnit(u float64) Value {
	lo, hi := p.bounds()
	return p.fromCoord(lo + u*(hi-lo))
}

func clampIndex(x float64, n int) int {
	switch {
	case !(x >= 0):
		return 0
	case x >= float64(n):
		return n - 1
	}
	return int(x)
}

// active reports whether p's conditions hold in c (which must already
// hold the values of the parameters before p).
func (p *Param) active(c Config) bool {
	for _, cond := range p.When {
		v, ok := c[cond.Param]
		if !ok || !slices.ContainsFunc(cond.Values, v.Equal) {
			return false
		}
	}
	return true
}

// parse reads one of p's values from its text.
func (p *Param) parse(t string) (Value, error) {
	if p.Kind == Categorical {
		for _, v := range p.Values {
			if v.String() == t {
				return v, nil
			}
		}
		var names []string
		for _, v := range p.Values {
			names = append(names, v.String())
		}
		return Value{}, fmt.Errorf("parameter %s: %q is not one of %s", p.Name, t, strings.Join(names, ", "))
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || !p.Contains(Num(x)) {
		return Value{}, fmt.Errorf("parameter %s: %q is not a value it takes", p.Name, t)
	}
	return Num(x), nil
}

// MaxTextValue is the longest text value a categorical parameter may take,
// in bytes: a value is passed to a run in its command line and its
// environment (PARETO_PARAM_<NAME>), and Linux refuses an argument or
// variable over 128 KiB; a setting is far shorter.
const MaxTextValue = 4096

// textProblem says why the text value v cannot be passed to a run as an
// argument or an environment variable, or "" when it can: a NUL byte
// (which ends a C string: the run would get a shorter value than the one
// recorded), invalid UTF-8 (stored and exported as JSON, it would not be
// the value the run got), more than MaxTextValue bytes.
func textProblem(v Value) string {
	if v.kind != textKind {
		return ""
	}
	s := v.text
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return fmt.Sprintf("holds a NUL byte at byte %d, which no command line or environment variable can pass", strings.IndexByte(s, 0)+1)
	case !utf8.ValidString(s):
		return "is not valid UTF-8"
	case len(s) > MaxTextValue:
		return fmt.Sprintf("has %d bytes, more than %d", len(s), MaxTextValue)
	}
	return ""
}
