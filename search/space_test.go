package search

import (
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/internal/position"
)

func TestParseSpaceExample(t *testing.T) {
	s, err := ReadSpace(filepath.Join("..", "examples", "search", "vllm.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range s.Params {
		names = append(names, p.Name)
	}
	want := []string{"tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "max_num_seqs",
		"enable_chunked_prefill", "max_num_batched_tokens", "gpu_memory_utilization", "max_concurrency"}
	if !slices.Equal(names, want) {
		t.Fatalf("parameters %v; want the file's order %v", names, want)
	}
	check := func(name string, kind Kind, knob Knob, log bool, low, high, step float64, n int) {
		t.Helper()
		p, ok := s.Param(name)
		if !ok || p.Kind != kind || p.Knob != knob || p.Log != log || p.Low != low || p.High != high || p.Step != step || p.count() != n {
			t.Errorf("%s = %+v; want %s, %s, log %v, %g..%g step %g, %d grid values", name, p, kind, knob, log, low, high, step, n)
		}
	}
	check("tensor_parallel_size", Categorical, Server, false, 0, 0, 0, 4)
	check("max_num_seqs", Int, Server, true, 16, 1024, 1, 1009)
	check("gpu_memory_utilization", Float, Server, false, 0.7, 0.95, 0.05, 6)
	check("max_concurrency", Categorical, Client, false, 0, 0, 0, 3)
	p, _ := s.Param("max_num_batched_tokens")
	if len(p.When) != 1 || p.When[0].Param != "enable_chunked_prefill" || !p.When[0].Values[0].Equal(Bool(true)) {
		t.Errorf("max_num_batched_tokens.When = %+v; want enable_chunked_prefill = true", p.When)
	}
	if s.Constants["gpus"] != 8 || len(s.Constraints) != 2 {
		t.Errorf("constants %v, %d constraints; want gpus = 8 and 2", s.Constants, len(s.Constraints))
	}
	d, err := s.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.String(), "data_parallel_size=1 enable_chunked_prefill=true gpu_memory_utilization=0.9 max_concurrency=64 max_num_batched_tokens=2048 max_num_seqs=256 pipeline_parallel_size=1 tensor_parallel_size=1"; got != want {
		t.Errorf("Defaults = %s; want %s", got, want)
	}
	// Grid values are exact decimals.
	g, _ := s.Param("gpu_memory_utilization")
	var vals []string
	for i := range g.count() {
		vals = append(vals, g.gridValue(i).String())
	}
	if got := strings.Join(vals, " "); got != "0.7 0.75 0.8 0.85 0.9 0.95" {
		t.Errorf("gpu_memory_utilization grid %s", got)
	}
}

func TestCheck(t *testing.T) {
	s, err := ReadSpace(filepath.Join("..", "examples", "search", "vllm.toml"))
	if err != nil {
		t.Fatal(err)
	}
	base, _ := s.Defaults()
	with := func(changes ...any) Config {
		c := Config{}
		for k, v := range base {
			c[k] = v
		}
		for i := 0; i < len(changes); i += 2 {
			if changes[i+1] == nil {
				delete(c, changes[i].(string))
			} else {
				c[changes[i].(string)] = changes[i+1].(Value)
			}
		}
		return c
	}
	for _, tt := range []struct {
		name string
		c    Config
		want string
	}{
		{"defaults", with(), ""},
		{"unchunked without the chunk", with("enable_chunked_prefill", Bool(false), "max_num_batched_tokens", nil), ""},
		{"inactive with a value", with("enable_chunked_prefill", Bool(false)), "inactive"},
		{"missing", with("max_num_seqs", nil), "has no value"},
		{"out of range", with("max_num_seqs", Num(2000)), "not a value it takes"},
		{"not an integer", with("max_num_seqs", Num(16.5)), "not a value it takes"},
		{"off the step", with("gpu_memory_utilization", Num(0.72)), "not a value it takes"},
		{"unknown category", with("tensor_parallel_size", Num(3)), "not a value it takes"},
		{"unknown parameter", with("bogus", Num(1)), `"bogus" is not a parameter`},
		{"constraint", with("tensor_parallel_size", Num(8), "data_parallel_size", Num(2)), "tensor_parallel_size * pipeline_parallel_size * data_parallel_size <= gpus"},
		{"second constraint", with("max_num_seqs", Num(1000), "max_num_batched_tokens", Num(512)), "max_num_batched_tokens >= max_num_seqs"},
		{"second constraint inactive", with("max_num_seqs", Num(1000), "enable_chunked_prefill", Bool(false), "max_num_batched_tokens", nil), ""},
		{"second constraint, equal", with("max_num_seqs", Num(512), "max_num_batched_tokens", Num(512)), ""},
	} {
		err := s.Check(tt.c)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: Check(%s) = %v; want %q", tt.name, tt.c, err, tt.want)
		}
	}
	if !s.SameServer(with(), with("max_concurrency", Num(256))) || s.SameServer(with(), with("max_num_seqs", Num(64))) {
		t.Errorf("SameServer: a client knob needs no restart, a server knob does")
	}
}

func TestParseConfig(t *testing.T) {
	s, err := ReadSpace(filepath.Join("..", "examples", "search", "vllm.toml"))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := s.Defaults()
	text := map[string]string{}
	for k, v := range d {
		text[k] = v.String()
	}
	c, err := s.ParseConfig(text)
	if err != nil || !c.Equal(d) {
		t.Fatalf("ParseConfig(%v) = %s, %v; want the defaults", text, c, err)
	}
	for k, bad := range map[string]string{"tensor_parallel_size": "3", "enable_chunked_prefill": "yes", "max_num_seqs": "many", "nope": "1"} {
		m := maps.Clone(text)
		m[k] = bad
		if _, err := s.ParseConfig(m); err == nil {
			t.Errorf("ParseConfig with %s=%s succeeded", k, bad)
		}
	}
}

// TestParseSpaceErrors: every problem is reported at its file:line:col.
func TestParseSpaceErrors(t *testing.T) {
	for _, tt := range []struct {
		name, toml string
		want       []string
	}{
		{"syntax", "[params.a\n", []string{"s.toml:1:"}},
		{"no params", "[constants]\ngpus = 8\n", []string{"s.toml: the space has no parameters"}},
		{"unknown top-level key", "nope = 1\n[params.a]\nvalues = [1]\n", []string{`s.toml:1:1: unknown key "nope" in the top level`}},
		{"constraints after a table", "[params.a]\nvalues = [1]\nconstraints = [\"a <= 1\"]\n",
			[]string{`s.toml:3:1: unknown key "constraints" in params.a`, "top-level keys go before the first [table]"}},
		{"unknown field", "[params.a]\nvalues = [1]\nlogg = true\n", []string{`s.toml:3:1: unknown key "logg" in params.a`}},
		{"no domain", "[params.a]\nknob = \"server\"\n", []string{"s.toml:1:2: parameter a needs values = [...] or low and high"}},
		{"bad type", "[params.a]\ntype = \"bool\"\nvalues = [1]\n", []string{`s.toml:2:1: parameter a: type must be`}},
		{"empty values", "[params.a]\nvalues = []\n", []string{"s.toml:2:1: values must be a non-empty array"}},
		{"duplicate value", "[params.a]\nvalues = [1, 2, 1]\n", []string{"s.toml:2:1: parameter a: value 1 is listed twice"}},
		{"high below low", "[params.a]\nlow = 5\nhigh = 2\n", []string{"s.toml:3:1: parameter a: high (2) must be greater than low (5)"}},
		{"int with a fraction", "[params.a]\ntype = \"int\"\nlow = 1\nhigh = 2.5\n", []string{"s.toml:3:1: parameter a: an int parameter's low, high and step must be integers"}},
		{"log at zero", "[params.a]\nlow = 0\nhigh = 10\nlog = true\n", []string{"s.toml:2:1: parameter a: a log-scale parameter needs low > 0"}},
		{"log with step", "[params.a]\nlow = 1.0\nhigh = 10.0\nstep = 1.0\nlog = true\n", []string{"s.toml:4:1: parameter a: a log-scale parameter cannot have a step"}},
		{"step not dividing", "[params.a]\nlow = 0.0\nhigh = 1.0\nstep = 0.3\n", []string{"s.toml:4:1: parameter a: high - low (1) is not a multiple of step 0.3"}},
		{"bad knob", "[params.a]\nvalues = [1]\nknob = \"both\"\n", []string{`s.toml:3:1: parameter a: knob must be "server"`}},
		{"bad default", "[params.a]\nvalues = [1, 2]\ndefault = 3\n", []string{"s.toml:3:1: parameter a: the default 3 is not a value the parameter takes"}},
		{"condition on a later parameter", "[params.a]\nvalues = [1]\nwhen = { b = 1 }\n[params.b]\nvalues = [1]\n",
			[]string{`s.toml:3:10: parameter a: the condition names "b", which is not an earlier parameter`}},
		{"condition value", "[params.a]\nvalues = [1, 2]\n[params.b]\nvalues = [1]\nwhen = { a = 3 }\n",
			[]string{"s.toml:5:10: parameter b: the condition's value 3 is not one a takes"}},
		{"constraint syntax", "constraints = [\"a <= \"]\n[params.a]\nvalues = [1]\n",
			[]string{`s.toml:1:22: constraint "a <= ": unexpected end`}},
		{"constraint unknown name", "constraints = [\"a * bb <= gpus\"]\n[constants]\ngpus = 4\n[params.a]\nvalues = [1]\n",
			[]string{`s.toml:1:21: constraint "a * bb <= gpus": "bb" is neither a parameter nor a constant`}},
		{"constraint on strings", "constraints = [  'q <= 1']\n[params.q]\nvalues = [\"fp8\", \"bf16\"]\n",
			[]string{`s.toml:1:19: constraint "q <= 1": parameter q is not numeric`}},
		{"constraint with a single =", "constraints = [\"a = 1\"]\n[params.a]\nvalues = [1]\n",
			[]string{`s.toml:1:19: constraint "a = 1": = is not a comparison: write ==`}},
		{"constraint escaped", "constraints = [\"a <= \\u0031 +\"]\n[params.a]\nvalues = [1]\n",
			[]string{`s.toml:1:16: constraint "a <= 1 +"`}},
		{"two comparisons", "constraints = [\"1 < a < 3\"]\n[params.a]\nvalues = [1]\n",
			[]string{`s.toml:1:23: constraint "1 < a < 3": a constraint has one comparison`}},
		{"NUL in a value", "[params.m]\nvalues = [\"a\", \"b\\u0000c\"]\n",
			[]string{"s.toml:2:16: parameter m: value 2 holds a NUL byte at byte 2"}},
		{"value too long", "[params.m]\nvalues = [\"a\",\n  \"" + strings.Repeat("x", MaxTextValue+1) + "\"]\n",
			[]string{"s.toml:3:3: parameter m: value 2 has 4097 bytes, more than 4096"}},
		{"result not an array", "result = \"a.json\"\n[params.a]\nvalues = [1]\n", []string{"s.toml:1:1: result must be an array of glob patterns"}},
		{"result not a string", "result = [\"a.json\", 3]\n[params.a]\nvalues = [1]\n", []string{"s.toml:1:21: result pattern 2 must be a string"}},
		{"result outside the run", "result = [\"../x.json\"]\n[params.a]\nvalues = [1]\n", []string{`s.toml:1:11: result pattern "../x.json" must stay inside the run's folder`}},
		{"result absolute", "result = [\"/tmp/x.json\"]\n[params.a]\nvalues = [1]\n", []string{`s.toml:1:11: result pattern "/tmp/x.json" must be relative`}},
		{"result bad glob", "result = [\"x[.json\"]\n[params.a]\nvalues = [1]\n", []string{`s.toml:1:11: result pattern "x[.json": syntax error in pattern`}},
		{"result after a table", "[params.a]\nvalues = [1]\nresult = [\"a.json\"]\n", []string{"top-level keys go before the first [table]"}},
		{"several problems, in file order", "[params.a]\nvalues = []\n[params.b]\nlow = 3\nhigh = 1\n",
			[]string{"s.toml:2:1:", "s.toml:5:1:"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSpace("s.toml", []byte(tt.toml))
			if err == nil {
				t.Fatalf("ParseSpace succeeded; want %q", tt.want)
			}
			var list position.List
			var one *position.Error
			if !errors.As(err, &list) && !errors.As(err, &one) {
				t.Errorf("error %T is not positioned", err)
			}
			msg := err.Error()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error:\n%s\nwant it to contain %q", msg, w)
				}
			}
			if len(tt.want) > 1 && strings.HasPrefix(tt.want[0], "s.toml:") && strings.HasPrefix(tt.want[1], "s.toml:") &&
				strings.Index(msg, tt.want[0]) > strings.Index(msg, tt.want[1]) {
				t.Errorf("errors out of file order:\n%s", msg)
			}
		})
	}
}

func TestExpressions(t *testing.T) {
	vals := map[string]float64{"tp": 4, "pp": 2, "dp": 1, "gpus": 8, "x": 0}
	lookup := func(n string) (float64, bool) { v, ok := vals[n]; return v, ok }
	for _, tt := range []struct {
		expr string
		want bool
	}{
		{"tp * pp * dp <= gpus", true},
		{"tp * pp * dp < gpus", false},
		{"tp*pp*dp==gpus", true},
		{"tp + pp * 2 == 8", true},
		{"(tp + pp) * 2 == 12", true},
		{"-tp + 4 == 0", true},
		{"- -tp == 4", true},
		{"gpus / tp / pp == 1", true},
		{"gpus / x > 1", false},     // division by zero fails
		{"tp - pp - dp == 1", true}, // left associative
		{"1e1 >= 10 ", true},        // exponent
		{".5 * 2 != 1", false},      // leading dot
		{"missing * 2 <= 1", true},  // an inactive parameter: holds
		{"tp >= 4", true},
		{"tp > 4", false},
	} {
		c, err := parseComparison(tt.expr)
		if err != nil {
			t.Errorf("parse %q: %v", tt.expr, err)
			continue
		}
		if got := c.holds(lookup); got != tt.want {
			t.Errorf("%q = %v; want %v", tt.expr, got, tt.want)
		}
	}
	for _, tt := range []struct {
		expr string
		off  int
	}{
		{"", 0}, {"tp", 2}, {"tp <=", 5}, {"(tp <= 1", 4}, {"tp <= 1)", 7}, {"tp ** 2 <= 1", 4}, {"tp <= 1.2.3", 6}, {"tp <= 1 2", 8}, {"$ <= 1", 0},
	} {
		_, err := parseComparison(tt.expr)
		var e *ExprError
		if !errors.As(err, &e) || e.Offset != tt.off {
			t.Errorf("parse %q = %v; want an error at offset %d", tt.expr, err, tt.off)
		}
	}
}

func TestNewSpace(t *testing.T) {
	s, err := NewSpace([]Param{
		{Name: "tp", Kind: Categorical, Values: []Value{Num(1), Num(2)}},
		{Name: "lr", Kind: Float, Low: 1e-4, High: 1e-1, Log: true},
	}, []string{"tp <= 2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Param("lr"); p.Knob != Server {
		t.Errorf("knob %v; want the default server", p.Knob)
	}
	// A space built in Go (an MCP client's, a stored study's) has its
	// values checked as a file's are.
	for v, want := range map[string]string{"a\x00b": "value 1 holds a NUL byte at byte 2", "\xff": "value 1 is not valid UTF-8"} {
		_, err := NewSpace([]Param{{Name: "m", Kind: Categorical, Values: []Value{Text(v)}}}, nil, nil)
		if err == nil || !strings.Contains(err.Error(), "search space: parameter m: "+want) {
			t.Errorf("NewSpace with value %q = %v; want %q", v, err, want)
		}
	}
	_, err = NewSpace([]Param{{Name: "a b", Kind: Int, Low: 1, High: 2}}, []string{"c > 1"}, nil)
	if err == nil || !strings.Contains(err.Error(), "search space: parameter a b: a name is") || !strings.Contains(err.Error(), `"c" is neither`) {
		t.Errorf("NewSpace = %v; want both problems", err)
	}
}

func TestFingerprint(t *testing.T) {
	a, _ := ParseSpace("a.toml", []byte("[params.x]\nvalues = [1, 2]\n"))
	b, _ := ParseSpace("b.toml", []byte("# a comment\n[params.x]\nvalues = [1, 2]\n"))
	c, _ := ParseSpace("a.toml", []byte("[params.x]\nvalues = [1, 3]\n"))
	if a.Fingerprint() != b.Fingerprint() || a.Fingerprint() == c.Fingerprint() {
		t.Errorf("fingerprints %s %s %s: want the same content to match and other content not to", a.Fingerprint(), b.Fingerprint(), c.Fingerprint())
	}
}

// TestSpaceResults: result = [...] keeps its patterns with their
// positions, and leaves the fingerprint alone (it says where a run's
// output is, not what is searched).
func TestSpaceResults(t *testing.T) {
	const params = "[params.a]\nvalues = [1, 2]\n"
	s, err := ParseSpace("s.toml", []byte("result = [\"out/*.json\", 'sweep/c*/result.json']\n"+params))
	if err != nil {
		t.Fatal(err)
	}
	want := []ResultPattern{{"out/*.json", position.Pos{Line: 1, Col: 12}}, {"sweep/c*/result.json", position.Pos{Line: 1, Col: 26}}}
	if !slices.Equal(s.Results, want) {
		t.Errorf("Results = %v, want %v", s.Results, want)
	}
	plain, err := ParseSpace("s.toml", []byte(params))
	if err != nil {
		t.Fatal(err)
	}
	if s.Fingerprint() != plain.Fingerprint() {
		t.Error("result = [...] changed the space's fingerprint")
	}
}
