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
