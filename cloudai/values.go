package cloudai

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// normKey folds the two spellings pydantic accepts for a field
// ("tensor-parallel-size" and "tensor_parallel_size") into one.
func normKey(k string) string { return strings.ReplaceAll(k, "-", "_") }

// child returns the value under key in m, matching hyphenated and
// underscored spellings. When both spellings are present the exact key wins.
func child(m map[string]any, key string) (any, bool) {
	if m == nil {
		return nil, false
	}
	if v, ok := m[key]; ok {
		return v, true
	}
	want := normKey(key)
	for k, v := range m {
		if normKey(k) == want {
			return v, true
		}
	}
	return nil, false
}

// lookup follows path through nested tables.
func lookup(m map[string]any, path ...string) (any, bool) {
	var cur any = m
	for _, p := range path {
		t, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = child(t, p); !ok {
			return nil, false
		}
	}
	return cur, true
}

// table returns the table at path, or nil.
func table(m map[string]any, path ...string) map[string]any {
	v, _ := lookup(m, path...)
	t, _ := v.(map[string]any)
	return t
}

// firstOf returns the value of the first key in keys present in m, and the key
// that matched.
func firstOf(m map[string]any, keys ...string) (any, string, bool) {
	for _, k := range keys {
		if v, ok := child(m, k); ok {
			return v, k, true
		}
	}
	return nil, "", false
}

// isSweep reports whether v is a list, i.e. a DSE sweep when it appears where
// a scalar is expected.
func isSweep(v any) bool {
	_, ok := v.([]any)
	return ok
}

// intValue converts a TOML scalar to an int: integers, whole floats and
// numeric strings ("2") are accepted.
func intValue(v any) (int, error) {
	switch x := v.(type) {
	case int64:
		if x > math.MaxInt32 || x < math.MinInt32 {
			return 0, fmt.Errorf("%d is out of range", x)
		}
		return int(x), nil
	case int:
		return x, nil
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > math.MaxInt32 {
			return 0, fmt.Errorf("%s is not an integer", renderScalar(x))
		}
		return int(x), nil
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return 0, fmt.Errorf("%q is not an integer", x)
		}
		return n, nil
	case []any:
		return 0, fmt.Errorf("is a sweep %s; it is resolved per DSE step", renderValue(x))
	case nil:
		return 0, fmt.Errorf("is empty")
	default:
		return 0, fmt.Errorf("%s is not an integer", renderValue(x))
	}
}

// intField reads an optional positive integer at key (any spelling) in m; def
// is returned when absent. name is used in errors.
func intField(m map[string]any, def int, name string, keys ...string) (int, error) {
	v, k, ok := firstOf(m, keys...)
	if !ok {
		return def, nil
	}
	n, err := intValue(v)
	if err != nil {
		return 0, fmt.Errorf("%s.%s %v", name, k, err)
	}
	if n < 0 {
		return 0, fmt.Errorf("%s.%s must not be negative, got %d", name, k, n)
	}
	return n, nil
}

// flagSet reports whether a boolean-ish option is on: true, a non-"false"
// string (CloudAI renders `enforce_eager = ""` as a bare flag), or a non-zero
// number.
func flagSet(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		s := strings.ToLower(strings.TrimSpace(x))
		return s != "false" && s != "0" && s != "no"
	case int64:
		return x != 0
	case float64:
		return x != 0
	default:
		return false
	}
}

// stringValue renders a scalar as a string, or "" for nil.
func stringValue(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return renderValue(v)
}

// extraArgs returns the extra-args of a table as one string (a list is joined
// with spaces).
func extraArgs(m map[string]any) string {
	v, ok := child(m, "extra_args")
	if !ok {
		return ""
	}
	if l, ok := v.([]any); ok {
		parts := make([]string, len(l))
		for i, e := range l {
			parts[i] = stringValue(e)
		}
		return strings.Join(parts, " ")
	}
	return stringValue(v)
}

// hasCLIFlag reports whether the command-line fragment s contains --flag as a
// whole word (optionally followed by =value).
func hasCLIFlag(s, flag string) bool {
	for _, f := range strings.Fields(s) {
		name, _, _ := strings.Cut(f, "=")
		if normKey(name) == normKey("--"+flag) {
			return true
		}
	}
	return false
}
