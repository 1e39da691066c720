package store_test

import (
	"maps"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/pareto-llm/pareto/store/internal/codec"
)

// TestFlatMap checks decodeMap's fast path against json.Unmarshal: where
// it parses, it gives what Unmarshal gives; where it does not, decodeMap
// still decodes as Unmarshal does.
func TestFlatMap(t *testing.T) {
	for _, in := range []string{
		`{}`, ` { } `, `{"a":"b"}`, `{"a": "b", "c": "d"}`, "{\n\"a\" :\t\"b\" }",
		`{"engine":"vllm","engine_version":"0.8.5","model":"meta-llama/Llama-3.1-8B-Instruct"}`,
		`{"k":"\u00e9t\u00e9"}`, `{"k":"été"}`, `{"k":"a\"b"}`, `{"k":"a\\b"}`, `{"k":"a\nb"}`,
		`{"k":"` + "\xff" + `"}`, `{"k":"a","k":"b"}`, `{"k":1}`, `{"k":null}`, `{"k":"a",}`, `{"k":"a"} x`,
		`{"k":"a"`, `{"k"}`, `{"k":"a" "l":"b"}`, `[]`, `{"":""}`, `{"a":"{}"}`, `{"a":"","b":"c"}`,
	} {
		var want map[string]string
		werr := json.Unmarshal([]byte(in), &want)
		got, ok := codec.NewDecoder().FlatMap([]byte(in))
		if ok && (werr != nil || !maps.Equal(got, want)) {
			t.Errorf("flatMap(%q) = %v; json.Unmarshal = %v, %v", in, got, want, werr)
		}
		dm, derr := codec.NewDecoder().DecodeMap([]byte(in))
		if (derr != nil) != (werr != nil) || derr == nil && !maps.Equal(dm, want) && !(len(dm) == 0 && len(want) == 0) {
			t.Errorf("decodeMap(%q) = %v, %v; json.Unmarshal = %v, %v", in, dm, derr, want, werr)
		}
	}
	if _, ok := codec.NewDecoder().FlatMap([]byte(`{"a": "b", "c": "d"}`)); !ok {
		t.Error("flatMap refuses PostgreSQL's rendering of a jsonb object")
	}
}

// FuzzFlatMap compares the fast path with json.Unmarshal on any input.
func FuzzFlatMap(f *testing.F) {
	f.Add(`{"a": "b", "c": "d"}`)
	f.Add(`{"k":"\u00e9"}`)
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := codec.NewDecoder().FlatMap([]byte(in))
		if !ok {
			return
		}
		var want map[string]string
		if err := json.Unmarshal([]byte(in), &want); err != nil || !maps.Equal(got, want) {
			t.Errorf("flatMap(%q) = %v; json.Unmarshal = %v, %v", in, got, want, err)
		}
	})
}
