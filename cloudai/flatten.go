package cloudai

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/pareto-llm/pareto/trial"
)

// Param is one flattened configuration value: a dotted key and its rendered
// value.
type Param struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// String renders the parameter as key=value. A value containing a newline,
// a tab or a leading/trailing space is quoted with Go syntax so that one
// parameter stays on one line.
func (p Param) String() string {
	v := p.Value
	if strings.ContainsAny(v, "\n\r\t") || strings.TrimSpace(v) != v {
		v = strconv.Quote(v)
	}
	return p.Key + "=" + v
}

// Flatten turns nested tables into key=value parameters sorted by key,
// secrets redacted (trial.RedactParam: the value of a key like api_key or
// HF_TOKEN is trial.Redacted, and so is the password of a URL or the
// argument of --api-key inside a value).
// Nested tables become dotted keys (prefix.a.b); key parts that are not bare
// TOML keys are quoted. Lists of scalars are rendered as one value like
// [8, 16] or ["0", "1"]; lists of tables (aiperf_phases) are indexed:
// aiperf_phases[0].name. Numbers use the shortest exact decimal form.
func Flatten(prefix string, m map[string]any) []Param {
	var out []Param
	flattenInto(&out, prefix, m)
	slices.SortFunc(out, func(a, b Param) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// flattenInto appends the parameters of m under prefix.
func flattenInto(out *[]Param, prefix string, m map[string]any) {
	for k, v := range m {
		flattenValue(out, joinKey(prefix, k), v)
	}
}

// flattenValue appends v under key.
func flattenValue(out *[]Param, key string, v any) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			*out = append(*out, Param{Key: key, Value: "{}"})
			return
		}
		flattenInto(out, key, x)
	case []any:
		if !allTables(x) {
			*out = append(*out, Param{Key: key, Value: trial.RedactParam(key, renderValue(x))})
			return
		}
		for i, e := range x {
			flattenValue(out, fmt.Sprintf("%s[%d]", key, i), e)
		}
	default:
		*out = append(*out, Param{Key: key, Value: trial.RedactParam(key, renderScalar(v))})
	}
}

// allTables reports whether l is a non-empty list of tables.
func allTables(l []any) bool {
	for _, e := range l {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return len(l) > 0
}

// joinKey appends key part k to prefix, quoting k when it is not a bare key.
func joinKey(prefix, k string) string {
	if !isBareKey(k) {
		k = strconv.Quote(k)
	}
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// isBareKey reports whether k is a non-empty TOML bare key.
func isBareKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		ok := c == '-' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !ok {
			return false
		}
	}
	return true
}

// renderValue renders any decoded TOML value deterministically. Strings are
// rendered raw at the top level and quoted inside lists and tables.
func renderValue(v any) string {
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = renderNested(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = joinKey("", k) + " = " + renderNested(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	default:
		return renderScalar(v)
	}
}

// renderNested renders a value inside a list or inline table.
func renderNested(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return renderValue(v)
}

// renderScalar renders a scalar TOML value.
func renderScalar(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return renderFloat(x)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
		return fmt.Sprint(x)
	default:
		return fmt.Sprint(x)
	}
}

// renderFloat renders f in the shortest form that reads back exactly, keeping
// a decimal point for whole numbers so 1.0 stays distinct from 1.
// Non-finite values are "inf", "-inf" and "nan" (trial.FormatFloat).
func renderFloat(f float64) string {
	s := trial.FormatFloat(f)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// ParamsOf flattens a test definition the way pareto labels runs: cmd_args
// keys without a prefix (decode.tensor_parallel_size=8), environment variables
// under extra_env_vars., the accuracy run under semantic_eval_cmd_args., and
// the node count as num_nodes when known (> 0).
func ParamsOf(def *TestDefinition, nodes int) []Param {
	out := Flatten("", def.CmdArgs)
	out = append(out, Flatten("extra_env_vars", def.ExtraEnvVars)...)
	out = append(out, Flatten("semantic_eval_cmd_args", def.SemanticEvalCmdArgs)...)
	if nodes > 0 {
		out = append(out, Param{Key: "num_nodes", Value: strconv.Itoa(nodes)})
	}
	slices.SortFunc(out, func(a, b Param) int { return strings.Compare(a.Key, b.Key) })
	return out
}
