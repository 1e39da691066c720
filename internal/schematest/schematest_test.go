package schematest

import (
	"strings"
	"testing"
)

// TestCheck: a document that satisfies the gate schema passes, one that
// breaks it fails naming the document, and every published schema
// compiles.
func TestCheck(t *testing.T) {
	good := `{"decision":"refused","code":"refused_scope","reasons":["x"],"reason_codes":["refused_scope"],` +
		`"candidate":"c.jsonl","baseline":"role=baseline","thresholds":{"objectives":[],"slos":[],"min_repeats":3,` +
		`"confidence":0.99,"futility":0.8,"max_runs":10,"max_baseline_runs":20,"no_regression":false,"spending":"bonferroni-pairs-power-3","looks":144},"workloads":[],"regressions":[],` +
		`"more_runs":{"candidate":0,"baseline":0},"baseline_sessions":[],"trials":{"candidate":[],"baseline":[],"archive":[]}}`
	for _, tt := range []struct {
		name, doc, err string
	}{
		{"good", good, ""},
		{"two lines", good + "\n" + good + "\n", ""},
		{"unknown code", strings.Replace(good, `"code":"refused_scope"`, `"code":"nope"`, 1), "document 1 does not satisfy gate.schema.json"},
		{"second line bad", good + "\n{}\n", "document 2 does not satisfy"},
		{"not json", "{", "document 1 is not JSON"},
		{"empty", "", "no JSON document"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := Check("gate", []byte(tt.doc))
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("Check = %v; want %q", err, tt.err)
			}
		})
	}
	if _, err := Schema("no-such"); err == nil {
		t.Error("Schema(no-such) compiled")
	}
}
