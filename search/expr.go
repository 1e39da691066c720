package search

import (
	"fmt"
	"math"
	"strconv"
)

// A constraint is one comparison of two arithmetic expressions:
//
//	constraint = sum cmp sum
//	cmp        = "<=" | "<" | ">=" | ">" | "==" | "!="
//	sum        = term { ("+" | "-") term }
//	term       = unary { ("*" | "/") unary }
//	unary      = "-" unary | number | name | "(" sum ")"
//
// Names are parameters (numeric ones: int, float, or categorical with
// numbers only) and constants; numbers are decimal (1, 0.5, 1e3).

// ExprError is a syntax or name error at a byte offset of an expression.
type ExprError struct {
	Offset int
	Msg    string
}

func (e *ExprError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

type opKind int8

const (
	opNum opKind = iota
	opName
	opNeg
	opAdd
	opSub
	opMul
	opDiv
)

// node is an arithmetic expression.
type node struct {
	op   opKind
	num  float64
	name string
	at   int // byte offset in the expression
	l, r *node
}

// cmpOp is a comparison.
type cmpOp int8

const (
	cmpLE cmpOp = iota
	cmpLT
	cmpGE
	cmpGT
	cmpEQ
	cmpNE
)

var cmpText = [...]string{"<=", "<", ">=", ">", "==", "!="}

// comparison is a parsed constraint.
type comparison struct {
	op   cmpOp
	l, r *node
}

type exprParser struct {
	s   string
	pos int
}

// parseComparison parses a constraint.
func parseComparison(s string) (*comparison, error) {
	p := &exprParser{s: s}
	l, err := p.sum()
	if err != nil {
		return nil, err
	}
	p.space()
	at := p.pos
	op, ok := p.cmp()
	if !ok {
		if p.pos >= len(p.s) {
			return nil, &ExprError{at, "want a comparison (<=, <, >=, >, ==, !=) between two expressions"}
		}
		if p.s[at] == '=' {
			return nil, &ExprError{at, "= is not a comparison: write =="}
		}
		return nil, &ExprError{at, fmt.Sprintf("unexpected %q: want an operator or a comparison", p.s[at:at+1])}
	}
	r, err := p.sum()
	if err != nil {
		return nil, err
	}
	p.space()
	if at := p.pos; at < len(p.s) {
		if _, ok := p.cmp(); ok {
			return nil, &ExprError{at, "a constraint has one comparison: write two constraints"}
		}
		return nil, &ExprError{p.pos, fmt.Sprintf("unexpected %q after the constraint", p.s[p.pos:p.pos+1])}
	}
	return &comparison{op: op, l: l, r: r}, nil
}

func (p *exprParser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *exprParser) cmp() (cmpOp, bool) {
	for op := cmpLE; op <= cmpNE; op++ {
		t := cmpText[op]
		if len(p.s)-p.pos >= len(t) && p.s[p.pos:p.pos+len(t)] == t {
			p.pos += len(t)
			return op, true
		}
	}
	return 0, false
}

func (p *exprParser) sum() (*node, error) { return p.level(p.term, '+', opAdd, '-', opSub) }

func (p *exprParser) term() (*node, error) { return p.level(p.unary, '*', opMul, '/', opDiv) }

// level parses one precedence level: operands read by operand, joined
// left to right by the operators c1 (op1) and c2 (op2).
func (p *exprParser) level(operand func() (*node, error), c1 byte, op1 opKind, c2 byte, op2 opKind) (*node, error) {
	l, err := operand()
	if err != nil {
		return nil, err
	}
	for {
		p.space()
		if p.pos >= len(p.s) || (p.s[p.pos] != c1 && p.s[p.pos] != c2) {
			return l, nil
		}
		op, at := op1, p.pos
		if p.s[p.pos] == c2 {
			op = op2
		}
		p.pos++
		r, err := operand()
		if err != nil {
			return nil, err
		}
		l = &node{op: op, at: at, l: l, r: r}
	}
}

func (p *exprParser) unary() (*node, error) {
	p.space()
	if p.pos >= len(p.s) {
		return nil, &ExprError{p.pos, "unexpected end: want a number, a name or ("}
	}
	at := p.pos
	switch c := p.s[p.pos]; {
	case c == '-':
		p.pos++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &node{op: opNeg, at: at, l: x}, nil
	case c == '(':
		p.pos++
		x, err := p.sum()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != ')' {
			return nil, &ExprError{p.pos, fmt.Sprintf("want ) to close the ( at offset %d", at)}
		}
		p.pos++
		return x, nil
	case c >= '0' && c <= '9' || c == '.':
		return p.number()
	case isNameStart(c):
		for p.pos < len(p.s) && isNameByte(p.s[p.pos]) {
			p.pos++
		}
		return &node{op: opName, name: p.s[at:p.pos], at: at}, nil
	default:
		return nil, &ExprError{at, fmt.Sprintf("unexpected %q: want a number, a name or (", p.s[at:at+1])}
	}
}

func (p *exprParser) number() (*node, error) {
	at := p.pos
	for p.pos < len(p.s) && (p.s[p.pos] >= '0' && p.s[p.pos] <= '9' || p.s[p.pos] == '.') {
		p.pos++
	}
	if p.pos < len(p.s) && (p.s[p.pos] == 'e' || p.s[p.pos] == 'E') {
		q := p.pos + 1
		if q < len(p.s) && (p.s[q] == '+' || p.s[q] == '-') {
			q++
		}
		if q < len(p.s) && p.s[q] >= '0' && p.s[q] <= '9' {
			for p.pos = q; p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9'; p.pos++ {
			}
		}
	}
	v, err := strconv.ParseFloat(p.s[at:p.pos], 64)
	if err != nil || math.IsInf(v, 0) {
		return nil, &ExprError{at, fmt.Sprintf("bad number %q", p.s[at:p.pos])}
	}
	return &node{op: opNum, num: v, at: at}, nil
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNameByte(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

// validName reports whether s is a name an expression can use.
func validName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// names calls f with every name of n, in order.
func (n *node) names(f func(name string, at int)) {
	if n == nil {
		return
	}
	if n.op == opName {
		f(n.name, n.at)
	}
	n.l.names(f)
	n.r.names(f)
}

// eval computes n; lookup returns a name's value and whether it has one
// (an inactive parameter has none: the whole expression then has none).
func (n *node) eval(lookup func(string) (float64, bool)) (float64, bool) {
	switch n.op {
	case opNum:
		return n.num, true
	case opName:
		return lookup(n.name)
	case opNeg:
		v, ok := n.l.eval(lookup)
		return -v, ok
	}
	a, ok := n.l.eval(lookup)
	if !ok {
		return 0, false
	}
	b, ok := n.r.eval(lookup)
	if !ok {
		return 0, false
	}
	switch n.op {
	case opAdd:
		return a + b, true
	case opSub:
		return a - b, true
	case opMul:
		return a * b, true
	}
	return a / b, true
}

// holds evaluates the comparison. It holds vacuously when a parameter it
// names is inactive; a division by zero (a NaN or infinite side) makes it
// fail.
func (c *comparison) holds(lookup func(string) (float64, bool)) bool {
	a, ok := c.l.eval(lookup)
	if !ok {
		return true
	}
	b, ok := c.r.eval(lookup)
	if !ok {
		return true
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	switch c.op {
	case cmpLE:
		return a <= b
	case cmpLT:
		return a < b
	case cmpGE:
		return a >= b
	case cmpGT:
		return a > b
	case cmpEQ:
		return a == b
	}
	return a != b
}
