package compare

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/pareto-llm/pareto/internal/schematest"
)

func TestJSONSchema(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	a := side("a", [][2]float64{{10, 100}, {20, 80}, {30, 60}, {40, 40}, {50, 20}}, 3, 0, 0.01, 1, rng)
	b := side("b", [][2]float64{{10, 120}, {20, 95}, {30, 50}, {40, 30}, {50, 10}}, 3, 0, 0.01, 1, rng)
	c := side("c", [][2]float64{{15, 100}}, 1, 0, 0, 1, rng)
	rep2, err := Run([]*Side{a, b, c}, Options{Objectives: bands(0.02, 0.02), At: []float64{5, 15, 35}, Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep2.Pairs[0].Uplift.Crossings) == 0 || len(rep2.Warnings) == 0 {
		t.Fatalf("want a crossing and a warning to validate: %+v", rep2.Pairs[0])
	}
	var buf bytes.Buffer
	if err := rep2.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	schematest.Validate(t, "compare", buf.Bytes())

	objs := bands(0.02, 0.02)
	objs = append(objs, objs[0])
	objs[2].Name = "z"
	three := func(s *Side) *Side {
		out := &Side{Name: s.Name}
		for _, p := range s.Points {
			q := Point{ID: p.ID, Values: append(p.Values, p.Values[0])}
			if p.Runs != nil {
				q.Runs = append(p.Runs, p.Runs[0])
			}
			out.Points = append(out.Points, q)
		}
		return out
	}
	rep3, err := Run([]*Side{three(a), three(b)}, Options{Objectives: objs, Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := rep3.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	schematest.Validate(t, "compare", buf.Bytes())
	if !bytes.Contains(buf.Bytes(), []byte(`"leads":{"a":[`)) || bytes.Contains(buf.Bytes(), []byte(`"uplift":`)) {
		t.Errorf("three objectives: want leads and no uplift:\n%s", buf.Bytes())
	}
}
