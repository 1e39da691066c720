package frontier

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Op is the comparison of an SLO bound.
type Op int8

const (
	// LE requires value <= bound.
	LE Op = iota
	// LT requires value < bound.
	LT
	// GE requires value >= bound.
	GE
	// GT requires value > bound.
	GT
)

var opText = [...]string{LE: "<=", LT: "<", GE: ">=", GT: ">"}

// String returns the operator as written: <=, <, >= or >.
func (o Op) String() string { return opText[o] }

// SLO is a feasibility bound on a numeric column, objective or not.
type SLO struct {
	// Name is the column or metric selector the bound applies to.
	Name string
	// Op is the comparison.
	Op Op
	// Bound is the threshold.
	Bound float64
}

// String renders the bound as NAME<=VALUE.
func (s SLO) String() string {
	return s.Name + s.Op.String() + strconv.FormatFloat(s.Bound, 'g', -1, 64)
}

// Holds reports whether v satisfies the bound.
func (s SLO) Holds(v float64) bool {
	switch s.Op {
	case LE:
		return v <= s.Bound
	case LT:
		return v < s.Bound
	case GE:
		return v >= s.Bound
	default:
		return v > s.Bound
	}
}

// ParseSLO parses NAME<=VALUE, NAME<VALUE, NAME>=VALUE or NAME>VALUE. The
// operator is the last comparison in the text, so selectors containing
// braces or dots are kept whole.
func ParseSLO(s string) (SLO, error) {
	i := strings.LastIndexAny(s, "<>")
	if i <= 0 {
		return SLO{}, fmt.Errorf("slo %q: want NAME<=VALUE, NAME<VALUE, NAME>=VALUE or NAME>VALUE", s)
	}
	name, rest, op := s[:i], s[i+1:], LT
	if s[i] == '>' {
		op = GT
	}
	if strings.HasPrefix(rest, "=") {
		rest = rest[1:]
		op-- // LE and GE precede LT and GT
	}
	name = strings.TrimSpace(name)
	if strings.HasSuffix(name, "<") || strings.HasSuffix(name, ">") || name == "" {
		return SLO{}, fmt.Errorf("slo %q: missing or malformed column name", s)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
	if err != nil || math.IsNaN(v) {
		return SLO{}, fmt.Errorf("slo %q: bound %q is not a number", s, strings.TrimSpace(rest))
	}
	return SLO{Name: name, Op: op, Bound: v}, nil
}
