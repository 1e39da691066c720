package cloudai

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestParsePyDict covers the Python literals csv.writer renders for a
// CloudAI DSE action.
func TestParsePyDict(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want map[string]any
		err  string
	}{
		{"{}", map[string]any{}, ""},
		{"{'decode.tp': 2, 'NUM_NODES': 1}", map[string]any{"decode.tp": int64(2), "NUM_NODES": int64(1)}, ""},
		{`{"a": 'it\'s', 'b': "q\"\n\x41\u00e9"}`, map[string]any{"a": "it's", "b": "q\"\nAé"}, ""},
		{"{'f': 0.75, 'e': 1e-3, 'n': -4, 'i': inf}", map[string]any{"f": 0.75, "e": 0.001, "n": int64(-4), "i": math.Inf(1)}, ""},
		{"{'t': True, 'f': False, 'z': None}", map[string]any{"t": true, "f": false, "z": nil}, ""},
		{"{'l': [1, 'a', [2.5]], 't': (1, 2,), 'd': {'x': 1},}", map[string]any{
			"l": []any{int64(1), "a", []any{2.5}}, "t": []any{int64(1), int64(2)}, "d": map[string]any{"x": int64(1)}}, ""},
		{"  { 'a' : 1 }  ", map[string]any{"a": int64(1)}, ""},
		{"[1]", nil, `"[1]" is not a dict`},
		{"{'a': 1} x", nil, `offset 9: unexpected "x" after the value`},
		{"{1: 2}", nil, "offset 2: dict key 1 is not a string"},
		{"{'a' 1}", nil, `offset 5: want ':' after dict key "a"`},
		{"{'a': 1 'b': 2}", nil, `offset 8: want ',' or '}'`},
		{"{'a': nope}", nil, `offset 6: "nope" is not a Python literal`},
		{"{'a': 'open", nil, "offset 11: unterminated string"},
		{"{'a': '\\x4'}", nil, `bad \x escape "4'"`},
		{"{'a': '\\x4", nil, `short \x escape`},
		{"{'a': ", nil, "offset 6: unexpected end"},
		{strings.Repeat("[", 40), nil, "nested too deeply"},
	} {
		got, err := parsePyDict(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parsePyDict(%q) error = %v; want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parsePyDict(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
	}
}

// TestApplyAction sets swept values at cmd_args paths in either key
// spelling, extra_env_vars and NUM_NODES, and rejects impossible paths.
func TestApplyAction(t *testing.T) {
	def := TestDefinition{CmdArgs: map[string]any{"decode": map[string]any{"tensor-parallel-size": []any{int64(1), int64(2)}}, "model": "m"}}
	n, err := applyAction(&def, map[string]any{"decode.tensor_parallel_size": int64(2), "prefill.tp": int64(4),
		"extra_env_vars.CUDA_VISIBLE_DEVICES": "0,1", "NUM_NODES": int64(3)})
	if err != nil || n != 3 {
		t.Fatalf("applyAction() = %d, %v; want 3, nil", n, err)
	}
	if got, want := paramList(ParamsOf(&def, n)), "decode.tensor-parallel-size=2 extra_env_vars.CUDA_VISIBLE_DEVICES=0,1 model=m num_nodes=3 prefill.tp=4"; got != want {
		t.Errorf("params after applyAction = %s; want %s", got, want)
	}
	for _, tt := range []struct {
		action map[string]any
		err    string
	}{
		{map[string]any{"model.x": int64(1)}, "action model.x: model is not a table"},
		{map[string]any{"NUM_NODES": "two"}, "action NUM_NODES = two is not a node count"},
		{map[string]any{"NUM_NODES": int64(0)}, "action NUM_NODES = 0 is not a node count"},
	} {
		if _, err := applyAction(&def, tt.action); err == nil || err.Error() != tt.err {
			t.Errorf("applyAction(%v) error = %v; want %q", tt.action, err, tt.err)
		}
	}
}

// FuzzParsePyDict feeds arbitrary text to the action parser: nothing may
// panic, and a nil error comes with a dict.
func FuzzParsePyDict(f *testing.F) {
	for _, s := range []string{"{'decode.tp': 1}", `{"a": [1, (2, 'x')], 'b': None}`, "{'a': '\\u00e9'}", "{'a': {'b': 1e9}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := parsePyDict(s)
		if err == nil && m == nil {
			t.Fatalf("parsePyDict(%q) = nil, nil", s)
		}
	})
}
