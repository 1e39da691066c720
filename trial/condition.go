package trial

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// An EnvLabel is one environment field of a trial and the labels it is
// read from, first present wins.
type EnvLabel struct {
	Column string
	Labels []string
}

// EnvLabels are the environment fields of a trial that are the
// environment columns of the store's trials table, and the fields a
// Condition may name directly.
var EnvLabels = []EnvLabel{
	{"engine", []string{LabelEngine}},
	{"engine_version", []string{LabelEngineVersion}},
	{"cuda", []string{LabelCUDA, "cuda_version"}},
	{"driver", []string{LabelDriver, "driver_version"}},
	{"gpu", []string{LabelGPU, "gpu_model", LabelHardware}},
	{"host", []string{"host", "hostname"}},
}

// ScopeLabels are the environment fields that scope repeats and
// comparisons (repeat.Scope): EnvLabels but the host, and the release of
// NVIDIA Dynamo, the runtime that served a CloudAI Dynamo run (its image
// tag; the engine inside has its own engine_version). A Condition names
// dynamo_version as the label it is.
var ScopeLabels = append(EnvLabels[:5:5], EnvLabel{"dynamo_version", []string{LabelDynamoVersion}})

// Op is the comparison of a Condition.
type Op string

// Comparison operators of a Condition.
const (
	OpEq Op = "="
	OpNe Op = "!="
	OpLt Op = "<"
	OpLe Op = "<="
	OpGt Op = ">"
	OpGe Op = ">="
)

// Condition is one filter KEY OP VALUE, as given to --where.
//
// The key names a label, a parameter or a workload field. A prefix picks
// the namespace: "label." (or "labels."), "param." (or "params."),
// "workload."; the environment field names (engine, engine_version, cuda,
// driver, gpu, host) look up the labels listed in EnvLabels. A bare key is
// looked up among the labels, then the params, then the workload fields
// (input_tokens, output_tokens, mean_input_tokens, mean_output_tokens,
// concurrency, achieved_concurrency, request_rate, users, requests), and
// finally "source" (the source path) and "id".
//
// The comparison is numeric when both the trial's value and Value parse as
// numbers, textual otherwise. A trial without the key matches no condition,
// not even "!=".
type Condition struct {
	Key   string
	Op    Op
	Value string
}

// String renders the condition as it is written, so that ParseCondition
// reads it back (a space keeps "<" and a value starting with "=" apart).
func (c Condition) String() string {
	if (c.Op == OpLt || c.Op == OpGt) && strings.HasPrefix(c.Value, "=") {
		return c.Key + string(c.Op) + " " + c.Value
	}
	return c.Key + string(c.Op) + c.Value
}

// ParseCondition parses KEY=VALUE, KEY!=VALUE, KEY<VALUE, KEY<=VALUE,
// KEY>VALUE or KEY>=VALUE. Spaces around the key and value are ignored.
func ParseCondition(s string) (Condition, error) {
	i := strings.IndexAny(s, "=!<>")
	if i < 0 {
		return Condition{}, fmt.Errorf("condition %q: want KEY OP VALUE with OP one of = != < <= > >=", s)
	}
	op := Op(s[i : i+1])
	if i+1 < len(s) && s[i+1] == '=' && s[i] != '=' {
		op = Op(s[i : i+2])
	}
	if op == "!" {
		return Condition{}, fmt.Errorf("condition %q: '!' must be followed by '='", s)
	}
	c := Condition{Key: strings.TrimSpace(s[:i]), Op: op, Value: strings.TrimSpace(s[i+len(op):])}
	if c.Key == "" {
		return Condition{}, fmt.Errorf("condition %q: missing key", s)
	}
	return c, nil
}

// ParseConditions parses every condition of list.
func ParseConditions(list []string) ([]Condition, error) {
	out := make([]Condition, 0, len(list))
	for _, s := range list {
		c, err := ParseCondition(s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Numeric reports whether the condition's value is a number, compared as
// one with a number (else as text): what strconv.ParseFloat reads, a
// value beyond the float64 range (1e400) as ±Inf.
func (c Condition) Numeric() bool {
	_, ok := number(c.Value)
	return ok
}

// number reads s as a number (Numeric).
func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if ne := (*strconv.NumError)(nil); err != nil && !(errors.As(err, &ne) && ne.Err == strconv.ErrRange) {
		return 0, false
	}
	return v, true
}

// Match reports whether t satisfies the condition.
func (c Condition) Match(t *Trial) bool {
	v, ok := lookup(t, c.Key)
	if !ok {
		return false
	}
	a, okA := number(v)
	b, okB := number(c.Value)
	var cmp int
	if okA && okB {
		switch {
		case a < b:
			cmp = -1
		case a > b:
			cmp = 1
		case a != b: // NaN
			return c.Op == OpNe
		}
	} else {
		cmp = strings.Compare(v, c.Value)
	}
	switch c.Op {
	case OpEq:
		return cmp == 0
	case OpNe:
		return cmp != 0
	case OpLt:
		return cmp < 0
	case OpLe:
		return cmp <= 0
	case OpGt:
		return cmp > 0
	default:
		return cmp >= 0
	}
}

// MatchAll reports whether t satisfies every condition.
func MatchAll(t *Trial, conds []Condition) bool {
	for _, c := range conds {
		if !c.Match(t) {
			return false
		}
	}
	return true
}

// ValueOf returns the value the condition's key has on t (a label, a
// parameter, a workload field, as Match resolves it), and whether t has it.
func (c Condition) ValueOf(t *Trial) (string, bool) { return lookup(t, c.Key) }

// MatchSkip reports whether the skip s satisfies every condition, reading
// it as a trial that has only what a skip knows: its path (the key
// "source") and, for a CloudAI run, the labels its trials would have:
// test_case, iteration (when known), step (in a DSE sweep), phase and run.
// A condition on any other key (engine, a param, a workload field) holds
// for no skip, as it holds for no trial without the key.
func MatchSkip(s *Skip, conds []Condition) bool {
	if len(conds) == 0 {
		return true
	}
	t := Trial{Source: Source{Path: s.Path, Key: s.Key}}
	if s.Case != "" {
		t.SetLabel(LabelTestCase, s.Case)
		if s.Iteration >= 0 {
			t.SetLabel(LabelIteration, strconv.Itoa(s.Iteration))
		}
		if s.Step > 0 {
			t.SetLabel(LabelStep, strconv.Itoa(s.Step))
		}
	}
	if s.Phase != "" {
		t.SetLabel(LabelPhase, s.Phase)
	}
	if s.Run != "" {
		t.SetLabel("run", s.Run)
	}
	return MatchAll(&t, conds)
}

// lookup resolves a condition key on t.
func lookup(t *Trial, key string) (string, bool) {
	ns, rest, found := strings.Cut(key, ".")
	if found {
		switch ns {
		case "label", "labels":
			v, ok := t.Labels[rest]
			return v, ok
		case "param", "params":
			v, ok := t.Params[rest]
			return v, ok
		case "workload":
			return workloadField(&t.Workload, rest)
		}
	}
	for _, e := range EnvLabels {
		if e.Column == key {
			for _, l := range e.Labels {
				if v, ok := t.Labels[l]; ok {
					return v, true
				}
			}
			return "", false
		}
	}
	if v, ok := t.Labels[key]; ok {
		return v, true
	}
	if v, ok := t.Params[key]; ok {
		return v, true
	}
	if v, ok := workloadField(&t.Workload, key); ok {
		return v, true
	}
	switch key {
	case "source":
		return t.Source.Path, true
	case "session":
		return t.Source.Session, true
	case "id":
		return t.ID, true
	}
	return "", false
}

// workloadField returns a known workload field; zero (unknown) is absent.
func workloadField(w *Workload, name string) (string, bool) {
	v := 0.0
	if name == "requests" {
		v = float64(w.Requests)
	} else {
		for _, f := range w.floats() {
			if f.name == name {
				v = *f.p
				break
			}
		}
	}
	if v == 0 {
		return "", false
	}
	return FormatFloat(v), true
}
