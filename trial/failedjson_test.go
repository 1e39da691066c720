package trial

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTrialJSONFailed: an unknown failed count is absent from the JSON
// encoding and read back as -1; a known one, zero included, is written
// and read back.
func TestTrialJSONFailed(t *testing.T) {
	for _, c := range []struct {
		failed int64
		want   string // in the encoding after succeeded, or "" for absent
	}{{-1, ""}, {0, `"failed":0,`}, {3, `"failed":3,`}} {
		in := Trial{ID: "x", Succeeded: 5, Failed: c.failed, Labels: map[string]string{"a": "b"},
			Workload: Workload{RequestRate: 2}}
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if !strings.HasPrefix(s, `{"id":"x","source":{`) || !strings.Contains(s, `"succeeded":5,`+c.want+`"measurements":`) {
			t.Errorf("failed=%d: %s: want the fields of Trial in order, id first", c.failed, s)
		}
		if c.want == "" && strings.Contains(s, `"failed"`) || c.want != "" && !strings.Contains(s, c.want) {
			t.Errorf("failed=%d: %s: want %q", c.failed, s, c.want)
		}
		var out Trial
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		if out.Failed != c.failed || out.Succeeded != 5 || out.Labels["a"] != "b" || out.Workload.RequestRate != 2 {
			t.Errorf("failed=%d: read back %+v", c.failed, out)
		}
	}
	var out Trial
	if err := json.Unmarshal([]byte(`{"id":"y","failed":null}`), &out); err != nil || out.Failed != -1 || out.ID != "y" {
		t.Errorf("failed null: %+v, %v; want -1", out, err)
	}
}

// FuzzTrialJSON: a trial decoded from any JSON encodes and decodes back
// to the same failed count, and an unknown count is never written.
func FuzzTrialJSON(f *testing.F) {
	f.Add([]byte(`{"id":"a","failed":3,"measurements":[]}`))
	f.Add([]byte(`{"id":"a","succeeded":2,"measurements":[{"metric":"ttft","value":"+Inf"}],"labels":{"failed":"-1"}}`))
	f.Add([]byte(`{"id":"a","failed":-1,"workload":{"request_rate":"inf"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var tr Trial
		if json.Unmarshal(data, &tr) != nil {
			return
		}
		b, err := json.Marshal(tr)
		if err != nil {
			return // values json cannot encode (Dims with odd keys, …) are not this test's concern
		}
		if tr.Failed == -1 && strings.Contains(string(b), `,"failed":-1,`) {
			t.Fatalf("unknown count written: %s", b)
		}
		var back Trial
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if back.Failed != tr.Failed {
			t.Fatalf("failed %d read back as %d from %s", tr.Failed, back.Failed, b)
		}
	})
}
