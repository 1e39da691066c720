package search

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Value is one parameter's value: a number (every int and float
// parameter, numeric categories), a string or a boolean category.
type Value struct {
	kind valueKind
	num  float64
	text string
}

type valueKind int8

const (
	numKind valueKind = iota
	textKind
	boolKind
)

// Num returns the numeric value v.
func Num(v float64) Value { return Value{kind: numKind, num: v} }

// Text returns the string value s.
func Text(s string) Value { return Value{kind: textKind, text: s} }

// Bool returns the boolean value b.
func Bool(b bool) Value {
	if b {
		return Value{kind: boolKind, num: 1}
	}
	return Value{kind: boolKind}
}

// Float returns the value as a number, and whether it is one.
func (v Value) Float() (float64, bool) { return v.num, v.kind == numKind }

// IsNum reports whether v is a number.
func (v Value) IsNum() bool { return v.kind == numKind }

// String renders the value as a command line takes it: numbers in plain
// decimal (128, 0.85, never 1e+06), booleans as true or false, strings as
// they are.
func (v Value) String() string {
	switch v.kind {
	case textKind:
		return v.text
	case boolKind:
		return strconv.FormatBool(v.num != 0)
	}
	return strconv.FormatFloat(v.num, 'f', -1, 64)
}

// Equal reports whether v and w are the same value of the same kind.
func (v Value) Equal(w Value) bool {
	return v.kind == w.kind && v.text == w.text && (v.num == w.num || v.kind == textKind)
}

// MarshalJSON writes a number, a string or a boolean.
func (v Value) MarshalJSON() ([]byte, error) {
	switch v.kind {
	case textKind:
		return json.Marshal(v.text)
	case boolKind:
		return json.Marshal(v.num != 0)
	}
	if math.IsNaN(v.num) || math.IsInf(v.num, 0) {
		return nil, fmt.Errorf("search: value %v is not finite", v.num)
	}
	return strconv.AppendFloat(nil, v.num, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number, a string or a boolean.
func (v *Value) UnmarshalJSON(b []byte) error {
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	switch x := x.(type) {
	case float64:
		*v = Num(x)
	case string:
		*v = Text(x)
	case bool:
		*v = Bool(x)
	default:
		return fmt.Errorf("search: a value must be a number, a string or a boolean, not %s", b)
	}
	return nil
}

// Config is one configuration: a value for every parameter active in it
// (a conditional parameter whose condition fails has none).
type Config map[string]Value

// Names returns the configuration's parameter names, sorted.
func (c Config) Names() []string {
	names := make([]string, 0, len(c))
	for k := range c {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// String renders the configuration as "a=1 b=x", names sorted.
func (c Config) String() string {
	var b strings.Builder
	for i, k := range c.Names() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(c[k].String())
	}
	return b.String()
}

// Key returns a text that identifies the configuration: two
// configurations have the same key iff they are Equal.
func (c Config) Key() string {
	var b []byte
	for _, k := range c.Names() {
		b = strconv.AppendQuote(b, k)
		v := c[k]
		switch v.kind {
		case textKind:
			b = strconv.AppendQuote(append(b, '='), v.text)
		case boolKind:
			b = strconv.AppendBool(append(b, ':'), v.num != 0)
		default:
			b = strconv.AppendFloat(append(b, '#'), v.num, 'g', -1, 64)
		}
		b = append(b, ',')
	}
	return string(b)
}

// Equal reports whether c and d assign the same values to the same
// parameters.
func (c Config) Equal(d Config) bool {
	if len(c) != len(d) {
		return false
	}
	for k, v := range c {
		if w, ok := d[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}
