package trial

import (
	"testing"
	"time"
)

func TestParseCondition(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Condition
		bad  bool
	}{
		{in: "engine_version=0.8.5", want: Condition{"engine_version", OpEq, "0.8.5"}},
		{in: "concurrency>=16", want: Condition{"concurrency", OpGe, "16"}},
		{in: " tp != 2 ", want: Condition{"tp", OpNe, "2"}},
		{in: "a<b", want: Condition{"a", OpLt, "b"}},
		{in: "a<=", want: Condition{"a", OpLe, ""}},
		{in: "a>1", want: Condition{"a", OpGt, "1"}},
		{in: "novalue", bad: true},
		{in: "=1", bad: true},
		{in: "a!1", bad: true},
	} {
		got, err := ParseCondition(tt.in)
		if (err != nil) != tt.bad || (!tt.bad && got != tt.want) {
			t.Errorf("ParseCondition(%q) = %+v, %v; want %+v (error %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestConditionMatch(t *testing.T) {
	tr := &Trial{
		ID:       "abc123",
		Source:   Source{Path: "runs/a.json"},
		Labels:   map[string]string{"role": "baseline", "gpu_model": "H100", "tp": "label-tp"},
		Params:   map[string]string{"tp": "2", "max_num_seqs": "128", "nan": "NaN"},
		Workload: Workload{Concurrency: 16, InputTokens: 1024},
	}
	for _, tt := range []struct {
		cond string
		want bool
	}{
		{"role=baseline", true},
		{"role!=baseline", false},
		{"gpu=H100", true},                 // environment field read from gpu_model
		{"cuda!=12", false},                // absent: matches no condition, not even !=
		{"tp=label-tp", true},              // a bare key is a label first
		{"param.tp=2", true},               // then a param, or named by namespace
		{"params.max_num_seqs>=100", true}, // numeric comparison
		{"max_num_seqs<99", false},         // "128" < "99" as text, but numeric here
		{"concurrency>8", true},            // workload field
		{"workload.input_tokens=1024", true},
		{"workload.output_tokens=0", false}, // zero is unknown, so absent
		{"source=runs/a.json", true},
		{"id<abd", true},
		{"nan=1", false},
		{"nan!=1", true}, // NaN differs from every number
		{"label.role>=b", true},
		{"nosuch=1", false},
		{"param.tp>1e400", false}, // beyond float64: +Inf, still a number ("2" > "1e400" as text)
		{"param.tp<1e400", true},
		{"concurrency>-1e400", true},
		{"max_num_seqs>1e-400", true}, // underflow: 0
	} {
		c, err := ParseCondition(tt.cond)
		if err != nil {
			t.Fatalf("ParseCondition(%q): %v", tt.cond, err)
		}
		if got := c.Match(tr); got != tt.want {
			t.Errorf("%q.Match(trial) = %v; want %v", tt.cond, got, tt.want)
		}
	}
	conds, err := ParseConditions([]string{"role=baseline", "concurrency=16"})
	if err != nil || !MatchAll(tr, conds) {
		t.Errorf("MatchAll(role=baseline, concurrency=16) = false, %v; want true", err)
	}
	if MatchAll(tr, append(conds, Condition{"role", OpEq, "try"})) {
		t.Errorf("MatchAll(..., role=try) = true; want false")
	}
	if _, err := ParseConditions([]string{"ok=1", "bad"}); err == nil {
		t.Errorf("ParseConditions([ok=1 bad]) = nil error; want one")
	}
}

// FuzzParseCondition checks that parsing never panics, that an accepted
// condition renders back to one that parses to the same condition, and
// that matching it never panics.
func FuzzParseCondition(f *testing.F) {
	for _, s := range []string{"a=1", "a!=b", "x<=2", ">", "!", "a!", "label.x>=y", " k = v "} {
		f.Add(s)
	}
	tr := &Trial{Labels: map[string]string{"a": "1"}, Params: map[string]string{"x": "2"}, Workload: Workload{Users: 3}}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCondition(s)
		if err != nil {
			return
		}
		c.Match(tr)
		back, err := ParseCondition(c.String())
		if err != nil || back != c {
			t.Fatalf("ParseCondition(%q) = %+v; its String %q parses to %+v, %v", s, c, c.String(), back, err)
		}
	})
}

func TestMatchSkip(t *testing.T) {
	run := &Skip{Path: "out/vllm/2", Key: "tree/vllm/2", Run: "vllm/2/0/", Case: "vllm", Iteration: 2, Code: "run_failed"}
	step := &Skip{Path: "out/dse/0/3", Run: "dse/0/3/warmup", Case: "dse", Step: 3, Phase: "warmup", Code: "run_failed"}
	file := &Skip{Path: "runs/bad.json", Code: SkipError}
	for _, tt := range []struct {
		s     *Skip
		conds []string
		want  bool
	}{
		{run, nil, true},
		{run, []string{"test_case=vllm"}, true},
		{run, []string{"iteration>=2", "run=vllm/2/0/"}, true},
		{run, []string{"iteration<2"}, false},
		{run, []string{"source=out/vllm/2"}, true},
		{run, []string{"step=0"}, false}, // outside a DSE sweep there is no step, as on its trials
		{step, []string{"step=3", "phase=warmup"}, true},
		{file, []string{"source=runs/bad.json"}, true},
		{file, []string{"test_case!=vllm"}, false}, // a file knows no case
		{file, []string{"iteration=0"}, false},
		{run, []string{"engine=vllm"}, false}, // a skip knows no engine, param or workload
		{run, []string{"concurrency>0"}, false},
	} {
		conds, err := ParseConditions(tt.conds)
		if err != nil {
			t.Fatal(err)
		}
		if got := MatchSkip(tt.s, conds); got != tt.want {
			t.Errorf("MatchSkip(%s, %q) = %v; want %v", tt.s.Path, tt.conds, got, tt.want)
		}
	}
}

func TestNewSession(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 26, 43, 120_000_000, time.FixedZone("x", 3600))
	a, b := NewSession(at), NewSession(at)
	if a != "s20261201T092643.120Z" || b != a+"-2" {
		t.Errorf("NewSession twice = %q, %q; want s20261201T092643.120Z and its -2", a, b)
	}
	tr := Trial{Source: Source{Session: a}}
	if c, _ := ParseCondition("session=" + a); !c.Match(&tr) {
		t.Errorf("session=%s does not match its trial", a)
	}
}
