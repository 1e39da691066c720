package ingest

import (
	"bytes"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// FormatParetoOutput is a JSON document one of pareto's own commands
// printed (front, compare, gate, pick, noise, drift, ingest, ask, tell,
// tune with --format json), or a golden file of its tests ({"trials":
// [trial, …]}): no benchmark result, skipped with code
// trial.SkipNotResult. The trials a study holds are read back from
// `pareto trials --format jsonl` (FormatParetoJSONL).
const FormatParetoOutput Format = "pareto-output"

// ownOutputs are the leading top-level keys of pareto's JSON outputs, in
// the order the commands write them (docs/schema), and the command.
var ownOutputs = []struct {
	keys []string
	what string
}{
	{[]string{"trials", "error"}, "a pareto test's golden file (of an input that is an error)"},
	{[]string{"trials", "formats"}, "pareto ingest --format json"},
	{[]string{"trials", "stored", "formats"}, "pareto ingest --format json"},
	{[]string{"objectives", "slos", "aggregate"}, "pareto front --format json"},
	{[]string{"objectives", "reference", "interpolation"}, "pareto compare --format json"},
	{[]string{"decision", "code", "reasons"}, "pareto gate's JSON verdict"},
	{[]string{"feasible", "choice"}, "pareto pick --format json"},
	{[]string{"configurations", "metrics"}, "pareto noise --format json"},
	{[]string{"baseline", "from", "to"}, "pareto drift --format json"},
	{[]string{"study", "trial", "configuration", "role"}, "pareto ask or tell --format json"},
	{[]string{"study", "complete", "failed"}, "pareto tune --format json"},
}

// ownOutput says which of pareto's own outputs head (a JSON document's
// first bytes, from its '{') is, or "" when it is none. It reads the
// first top-level keys only as far as they tell: a benchmark result's
// first key names no output of pareto, and is the only one read.
func ownOutput(head []byte) string {
	if len(head) == 0 || head[0] != '{' {
		return ""
	}
	if !ownFirstKey(bytes.TrimLeft(head[1:], " \t\r\n")) {
		return "" // a decoder for each result file would cost more than its sniffing
	}
	d := jsontext.NewDecoder(bytes.NewReader(head), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return ""
	}
	var keys []string
	for {
		tok, err := d.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return ""
		}
		keys = append(keys, tok.String())
		if len(keys) == 1 && keys[0] == "trials" && d.PeekKind() == '[' {
			if goldenTrials(d) {
				return "trials of a pareto test's golden file"
			}
			return ""
		}
		matched := false
		for _, o := range ownOutputs {
			if len(o.keys) >= len(keys) && slices.Equal(o.keys[:len(keys)], keys) {
				if len(o.keys) == len(keys) {
					return o.what
				}
				matched = true
			}
		}
		if !matched {
			return ""
		}
		if d.SkipValue() != nil {
			return ""
		}
	}
}

// ownFirstKey reports whether b starts with the quoted first key of one of
// pareto's outputs.
func ownFirstKey(b []byte) bool {
	for _, o := range ownOutputs {
		k := o.keys[0]
		if len(b) > len(k)+1 && b[0] == '"' && string(b[1:1+len(k)]) == k && b[1+len(k)] == '"' {
			return true
		}
	}
	return false
}

// goldenTrials reports whether the array d is at holds objects whose first keys
// are a trial's JSON encoding: "id", then "source".
func goldenTrials(d *jsontext.Decoder) bool {
	for _, want := range []jsontext.Kind{'[', '{'} {
		if tok, err := d.ReadToken(); err != nil || tok.Kind() != want {
			return false
		}
	}
	if tok, err := d.ReadToken(); err != nil || tok.String() != "id" {
		return false
	}
	if d.SkipValue() != nil {
		return false
	}
	tok, err := d.ReadToken()
	return err == nil && tok.String() == "source"
}
