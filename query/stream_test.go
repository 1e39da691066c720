package query

import (
	"bytes"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/benchstudy"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// TestTrialStream checks that rows streamed without their trials
// (TrialStream, what front --study does) give the answer of the same
// trials added with AddTrials, in every output: repeats aggregated or
// not, grouped, with SLOs, with trials named by a label and files holding
// one trial or several.
func TestTrialStream(t *testing.T) {
	const n = 3_000
	ts := make([]trial.Trial, n)
	for i := range ts {
		ts[i] = benchstudy.Trial(i, benchstudy.Configs(n, 3))
	}
	for i := 0; i < n; i += 97 { // named runs, alone in their file
		ts[i].SetLabel("run", "run-"+ts[i].ID[:6])
		ts[i].Source.Path = "single/" + ts[i].ID + ".json"
	}
	ts[5].Measurements = ts[5].Measurements[:1] // an objective that does not resolve
	for _, tc := range []struct {
		name string
		q    Query
	}{
		{"median", Query{Aggregate: repeat.Median}},
		{"none", Query{Aggregate: repeat.None}},
		{"mean-groups-slo", Query{Aggregate: repeat.Mean, GroupBy: "tensor_parallel_size",
			SLOs: []frontier.SLO{{Name: "ttft.p99", Op: frontier.LE, Bound: 400}}}},
		{"config-keys", Query{Aggregate: repeat.Median, ConfigKeys: []string{"tensor_parallel_size"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			q.Objectives = []frontier.Objective{{Name: "ttft.p99"}, {Name: trial.OutputTokenThroughput, Direction: frontier.Maximize}}
			want := answer(t, &q, func(r *Rows) { r.AddTrials(ts) })
			got := answer(t, &q, func(r *Rows) {
				s := r.StreamTrials()
				for from := 0; from < n; from += 1000 {
					s.Add(ts[from:min(from+1000, n)])
				}
				s.Done()
			})
			for format, w := range want {
				if !bytes.Equal(got[format], w) {
					t.Errorf("%s output of the streamed rows differs from AddTrials':\n%.2000s\nwant\n%.2000s", format, got[format], w)
				}
			}
		})
	}
}

// answer runs q over the rows add adds and returns its outputs by format.
func answer(t *testing.T, q *Query, add func(*Rows)) map[string][]byte {
	t.Helper()
	qq := *q
	rows := NewRows(&qq)
	add(rows)
	res, err := Run(&qq, rows)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range []string{"json", "csv", "table"} {
		var b bytes.Buffer
		if err := enc.Write(&b, enc.Format(f), res); err != nil {
			t.Fatal(err)
		}
		out[f] = b.Bytes()
	}
	return out
}

// TestTrialStreamNamesCounted checks that the rows of one file that a
// stream names without counting their names (TrialStream.Done) still make
// a later row with the same name take a suffix, as AddTrials does.
func TestTrialStreamNamesCounted(t *testing.T) {
	ts := make([]trial.Trial, 4)
	for i := range ts {
		ts[i] = benchstudy.Trial(i, benchstudy.Configs(4, 1))
		ts[i].Source.Path, ts[i].Source.Line = "f.jsonl", i+1
	}
	ts[3].Source.Path = "g.json"
	ts[3].SetLabel("id", "f.jsonl:2")
	q := Query{Aggregate: repeat.Median, Objectives: []frontier.Objective{{Name: "ttft.p99"},
		{Name: trial.OutputTokenThroughput, Direction: frontier.Maximize}}}
	want := answer(t, &q, func(r *Rows) { r.AddTrials(ts) })
	got := answer(t, &q, func(r *Rows) {
		s := r.StreamTrials()
		s.Add(ts[:3])
		s.Done()
		r.AddTrials(ts[3:])
	})
	if !bytes.Contains(want["csv"], []byte("f.jsonl:2~2")) {
		t.Fatalf("want a suffixed name in:\n%s", want["csv"])
	}
	for format, w := range want {
		if !bytes.Equal(got[format], w) {
			t.Errorf("%s output differs from AddTrials':\n%s\nwant\n%s", format, got[format], w)
		}
	}
}
