package search

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/internal/position"
)

// Kind is a parameter's type.
type Kind int8

const (
	// Categorical parameters take one of a list of values.
	Categorical Kind = iota + 1
	// Int parameters take the integers Low, Low+Step, ..., High.
	Int
	// Float parameters take any number in [Low, High], or Low, Low+Step,
	// ..., High with a Step.
	Float
)

var kindNames = map[Kind]string{Categorical: "categorical", Int: "int", Float: "float"}

// String returns "categorical", "int" or "float".
func (k Kind) String() string { return kindNames[k] }

// Knob says what changing a parameter needs.
type Knob int8

const (
	// Server parameters need the server restarted (the default).
	Server Knob = iota + 1
	// Client parameters change only the benchmark client's load.
	Client
)

// String returns "server" or "client".
func (k Knob) String() string {
	if k == Client {
		return "client"
	}
	return "server"
}

// MaxGrid is the most values a parameter may take on a grid, and the most
// configurations a grid may have.
const MaxGrid = 10_000_000

// Param is one dimension of a search space.
type Param struct {
	// Name is how configurations, constraints and command templates refer
	// to the parameter: a letter or _, then letters, digits or _.
	Name string
	Kind Kind
	// Values are a categorical parameter's values, at least one, distinct.
	Values []Value
	// Low and High bound an int or float parameter (Low < High).
	Low, High float64
	// Step is the spacing of an int (default 1) or a float parameter (0:
	// continuous); High - Low must be a multiple of it.
	Step float64
	// Log samples an int or float parameter uniformly in log space
	// (Low > 0; not with a Step other than 1).
	Log bool
	// Knob is Server (restart needed; the default) or Client.
	Knob Knob
	// When lists the conditions under which the parameter exists; every
	// one must hold. A parameter whose conditions fail (inactive) has no
	// value in the configuration.
	When []Condition
	// Default, when HasDefault, is the parameter's value in the baseline
	// configuration (Space.Defaults).
	Default    Value
	HasDefault bool
	// At is the position of the parameter's definition, if read from a
	// file.
	At position.Pos

	fieldPos map[string]position.Pos // positions of its fields, for errors
	broken   bool                    // its definition could not be decoded (already reported)
	n        int                     // number of grid points (Int, stepped Float)
	decimals int                     // decimal places of Low and Step
}

// Condition holds when the parameter Param is active and has one of
// Values.
type Condition struct {
	Param  string
	Values []Value
	At     position.Pos
}

// Constraint is a relation between parameters that every configuration
// must satisfy, such as "tp * pp * dp <= gpus" (the language is described
// at parseComparison). A constraint that names an inactive parameter
// holds.
type Constraint struct {
	// Text is the constraint as written.
	Text string
	// At is the position of its first character, if read from a file.
	At position.Pos

	cmp   *comparison
	exact bool // At is the first character, so offsets map to columns
}

// Space is a search space: parameters, constraints between them and the
// constants the constraints use.
type Space struct {
	// File names the file the space was read from ("" if built in Go).
	File        string
	Params      []Param
	Constraints []Constraint
	// Constants are named numbers for the constraints (gpus = 8).
	Constants map[string]float64
	// Results name a run's result files (the space's result = [...]):
	// glob patterns relative to the run's folder (CheckResultPattern).
	// They say where a run's output is, not what is searched: the
	// Fingerprint leaves them out.
	Results []ResultPattern

	index map[string]int
}

// ResultPattern is one pattern of Space.Results, with its position.
type ResultPattern struct {
	Pattern string
	At      position.Pos
}

// CheckResultPattern checks a pattern that names a run's result files:
// a glob (path.Match syntax, '/' between folders) relative to the run's
// folder that stays inside it (not absolute, no ".." element, no empty
// pattern).
func CheckResultPattern(p string) error {
	switch {
	case strings.TrimSpace(p) == "":
		return errors.New("an empty result pattern")
	case strings.ContainsRune(p, 0):
		return fmt.Errorf("result pattern %q holds a NUL byte", p)
	case filepath.IsAbs(p) || strings.HasPrefix(p, "/"):
		return fmt.Errorf("result pattern %q must be relative to the run's folder", p)
	case slices.Contains(strings.Split(filepath.ToSlash(p), "/"), ".."):
		return fmt.Errorf("result pattern %q must stay inside the run's folder (no ..)", p)
	}
	if _, err := filepath.Match(p, ""); err != nil {
		return fmt.Errorf("result pattern %q: %w", p, err)
	}
	return nil
}

// NewSpace checks and compiles a space built in Go: params in order (a
// condition may only name an earlier parameter), constraints as text.
func NewSpace(params []Param, constraints []string, constants map[string]float64) (*Space, error) {
	s := &Space{Params: slices.Clone(params), Constants: constants}
	for _, c := range constraints {
		s.Constraints = append(s.Constraints, Constraint{Text: c})
	}
	if err := s.compile(); err != nil {
		return nil, err
	}
	return s, nil
}

// Param returns the parameter named name.
func (s *Space) Param(name string) (*Param, bool) {
	i, ok := s.index[name]
	if !ok {
		return nil, false
	}
	return &s.Params[i], true
}

// compile validates every part of the space and prepares it for
// sampling; it returns every problem found, positioned when the space
// came from a file.
func (s *Space) compile() error {
	var errs position.List
	fail := func(at position.Pos, format string, args ...any) {
		errs = append(errs, &position.Error{File: s.fileName(), Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(format, args...)})
	}
	if len(s.Params) == 0 {
		fail(position.Pos{}, "the space has no parameters: add a [params.NAME] table")
	}
	s.index = map[string]int{}
	for name := range s.Constants {
		if !validName(name) {
			fail(position.Pos{}, "constant %q: a name is a letter or _, then letters, digits or _", name)
		}
		if v := s.Constants[name]; math.IsNaN(v) || math.IsInf(v, 0) {
			fail(position.Pos{}, "constant %s must be a finite number", name)
		}
	}
	for i := range s.Params {
		p := &s.Params[i]
		if _, dup := s.index[p.Name]; dup {
			fail(p.At, "parameter %s is defined twice", p.Name)
			continue
		}
		if _, ok := s.Constants[p.Name]; ok {
			fail(p.At, "%s is both a parameter and a constant", p.Name)
		}
		s.index[p.Name] = i
		if p.broken {
			continue
		}
		for _, msg := range p.check() {
			fail(p.pos(msg.field), "parameter %s: %s", p.Name, msg.text)
		}
		for _, c := range p.When {
			q, ok := s.Param(c.Param)
			at := c.At
			if at == (position.Pos{}) {
				at = p.pos("when")
			}
			switch {
			case c.Param == p.Name:
				fail(at, "parameter %s: a condition cannot name the parameter itself", p.Name)
			case !ok || s.index[c.Param] >= i:
				fail(at, "parameter %s: the condition names %q, which is not an earlier parameter", p.Name, c.Param)
			case q.broken:
			case len(c.Values) == 0:
				fail(at, "parameter %s: the condition on %s has no values", p.Name, c.Param)
			default:
				for _, v := range c.Values {
					if !q.Contains(v) {
						fail(at, "parameter %s: the condition's value %s is not one %s takes", p.Name, v, c.Param)
					}
				}
			}
		}
	}
	for i := range s.Constraints {
		s.compileConstraint(&s.Constraints[i], fail)
	}
	if len(errs) > 0 {
		errs.Sort()
		return errs
	}
	return nil
}

func (s *Space) fileName() string {
	if s.File == "" {
		return "search space"
	}
	return s.File
}

// compileConstraint parses one constraint and checks its names.
func (s *Space) compileConstraint(c *Constraint, fail func(position.Pos, string, ...any)) {
	at := func(off int) position.Pos {
		if c.exact && c.At.Line > 0 {
			return position.Pos{Line: c.At.Line, Col: c.At.Col + off}
		}
		return c.At
	}
	cmp, err := parseComparison(c.Text)
	if err != nil {
		e := err.(*ExprError)
		fail(at(e.Offset), "constraint %q: %s", c.Text, e.Msg)
		return
	}
	ok := true
	names := func(n *node) {
		n.names(func(name string, off int) {
			if _, isConst := s.Constants[name]; isConst {
				return
			}
			p, isParam := s.Param(name)
			switch {
			case !isParam:
				fail(at(off), "constraint %q: %q is neither a parameter nor a constant", c.Text, name)
				ok = false
			case p.broken:
			case !p.numeric():
				fail(at(off), "constraint %q: parameter %s is not numeric", c.Text, name)
				ok = false
			}
		})
	}
	names(cmp.l)
	names(cmp.r)
	if ok {
		c.cmp = cmp
	}
}

// assemble turns one value per parameter (in Params order) into a
// configuration: inactive parameters are dropped.
func (s *Space) assemble(values []Value) Config {
	c := make(Config, len(values))
	for i := range s.Params {
		if p := &s.Params[i]; p.active(c) {
			c[p.Name] = values[i]
		}
	}
	return c
}

// Violated returns the constraints c violates.
func (s *Space) Violated(c Config) []*Constraint {
	lookup := func(name string) (float64, bool) {
		if v, ok := s.Constants[name]; ok {
			return v, true
		}
		v, ok := c[name]
		if !ok {
			return 0, false
		}
		return v.Float()
	}
	var out []*Constraint
	for i := range s.Constraints {
		if k := &s.Constraints[i]; k.cmp != nil && !k.cmp.holds(lookup) {
			out = append(out, k)
		}
	}
	return out
}

// Feasible reports whether c satisfies every constraint.
func (s *Space) Feasible(c Config) bool { return len(s.Violated(c)) == 0 }

// Check reports whether c is a configuration of the space: every active
// parameter has a value it takes, no other parameter has one, and every
// constraint holds.
func (s *Space) Check(c Config) error {
	seen := Config{}
	for i := range s.Params {
		p := &s.Params[i]
		v, has := c[p.Name]
		switch active := p.active(seen); {
		case active && !has:
			return fmt.Errorf("parameter %s has no value", p.Name)
		case !active && has:
			return fmt.Errorf("parameter %s is inactive (its condition fails) but has the value %s", p.Name, v)
		case has && !p.Contains(v):
			return fmt.Errorf("parameter %s: %s is not a value it takes", p.Name, v)
		case has:
			seen[p.Name] = v
		}
	}
	if len(seen) != len(c) {
		for _, k := range c.Names() {
			if _, ok := s.index[k]; !ok {
				return fmt.Errorf("%q is not a parameter of the space", k)
			}
		}
	}
	if v := s.Violated(c); len(v) > 0 {
		return fmt.Errorf("the constraint %q does not hold", v[0].Text)
	}
	return nil
}

// ParseConfig reads a configuration from the text of its values (as
// Value.String renders them, or a command line gives them: "4", "0.85",
// "true", "fp8"), typed by each parameter, and checks it (Check).
func (s *Space) ParseConfig(text map[string]string) (Config, error) {
	c := Config{}
	for name, t := range text {
		p, ok := s.Param(name)
		if !ok {
			return nil, fmt.Errorf("%q is not a parameter of the space", name)
		}
		v, err := p.parse(strings.TrimSpace(t))
		if err != nil {
			return nil, err
		}
		c[name] = v
	}
	if err := s.Check(c); err != nil {
		return nil, err
	}
	return c, nil
}

// Defaults returns the baseline configuration: every active parameter at
// its default. It fails when an active parameter has none or the
// defaults violate a constraint.
func (s *Space) Defaults() (Config, error) {
	c := Config{}
	for i := range s.Params {
		p := &s.Params[i]
		if !p.active(c) {
			continue
		}
		if !p.HasDefault {
			return nil, fmt.Errorf("parameter %s has no default", p.Name)
		}
		c[p.Name] = p.Default
	}
	if v := s.Violated(c); len(v) > 0 {
		return nil, fmt.Errorf("the defaults violate the constraint %q", v[0].Text)
	}
	return c, nil
}

// SameServer reports whether a and b agree on every server parameter, so
// that going from one to the other needs no restart.
func (s *Space) SameServer(a, b Config) bool {
	for i := range s.Params {
		p := &s.Params[i]
		if p.Knob != Server {
			continue
		}
		v, okA := a[p.Name]
		w, okB := b[p.Name]
		if okA != okB || okA && !v.Equal(w) {
			return false
		}
	}
	return true
}

// Fingerprint identifies the space's content (not its file name or
// positions): a sampler's saved state is only resumed on the same space.
func (s *Space) Fingerprint() string {
	type param struct {
		Name       string
		Kind       Kind
		Values     []Value
		Low, High  float64
		Step       float64
		Log        bool
		Knob       Knob
		When       [][]any
		Default    *Value
		HasDefault bool
	}
	doc := struct {
		Params      []param
		Constraints []string
		Constants   map[string]float64
	}{Constants: s.Constants}
	for _, p := range s.Params {
		q := param{Name: p.Name, Kind: p.Kind, Values: p.Values, Low: p.Low, High: p.High, Step: p.Step, Log: p.Log, Knob: p.Knob, HasDefault: p.HasDefault}
		if p.HasDefault {
			q.Default = &p.Default
		}
		for _, c := range p.When {
			q.When = append(q.When, []any{c.Param, c.Values})
		}
		doc.Params = append(doc.Params, q)
	}
	for _, c := range s.Constraints {
		doc.Constraints = append(doc.Constraints, c.Text)
	}
	b, _ := json.Marshal(doc) // map keys are sorted
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
