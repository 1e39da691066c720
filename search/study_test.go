package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"pgregory.net/rapid"
)

func exampleSpace(t testing.TB) *Space {
	t.Helper()
	s, err := ReadSpace(filepath.Join("..", "examples", "search", "vllm.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var twoObjectives = []frontier.Objective{{Name: "a", Direction: frontier.Minimize}, {Name: "b", Direction: frontier.Maximize}}

// synthetic gives every configuration two objective values from its
// numbers (a stand-in for a benchmark).
func synthetic(c Config) []float64 {
	a, b := 0.0, 0.0
	for _, k := range c.Names() {
		x, _ := c[k].Float()
		if c[k].String() == "true" {
			x = 1
		}
		a += math.Log1p(math.Abs(x)) * float64(len(k)%3+1)
		b += math.Sqrt(math.Abs(x)) * float64(len(k)%2+1)
	}
	return []float64{a, b}
}

const smallGrid = `
constraints = ["a * b <= 4"]
[params.a]
values = [1, 2, 4]
[params.b]
low = 1
high = 4
[params.c]
values = ["x", "y"]
when = { a = [2, 4] }
[params.d]
low = 0.5
high = 1.0
step = 0.25
when = { c = "y" }
`

// TestGridExhaustive: the grid asks every valid configuration exactly
// once, then says it is exhausted.
func TestGridExhaustive(t *testing.T) {
	space, err := ParseSpace("small.toml", []byte(smallGrid))
	if err != nil {
		t.Fatal(err)
	}
	// The valid configurations, enumerated directly.
	want := map[string]bool{}
	for _, a := range []float64{1, 2, 4} {
		for b := 1.0; b <= 4; b++ {
			if a*b > 4 {
				continue
			}
			base := Config{"a": Num(a), "b": Num(b)}
			if a == 1 {
				want[base.Key()] = true
				continue
			}
			want[with(base, "c", Text("x")).Key()] = true
			for _, d := range []float64{0.5, 0.75, 1} {
				want[with(base, "c", Text("y"), "d", Num(d)).Key()] = true
			}
		}
	}
	for _, seed := range []uint64{0, 1, 2} {
		st, err := NewStudy(space, Options{Sampler: Grid, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		var order []string
		for {
			tr, err := st.Ask()
			if errors.Is(err, ErrExhausted) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if got[tr.Config.Key()] {
				t.Fatalf("seed %d: %s asked twice", seed, tr.Config)
			}
			got[tr.Config.Key()] = true
			order = append(order, tr.Config.String())
		}
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d configurations; want %d", seed, len(got), len(want))
		}
		for k := range want {
			if !got[k] {
				t.Fatalf("seed %d: %s never asked", seed, k)
			}
		}
		t.Logf("seed %d: %s ...", seed, strings.Join(order[:3], ", "))
	}
	if _, err := NewStudy(exampleSpaceFloat(t), Options{Sampler: Grid}); err == nil || !strings.Contains(err.Error(), "needs values or a step") {
		t.Errorf("a grid over a continuous float: %v", err)
	}
}

func exampleSpaceFloat(t *testing.T) *Space {
	s, err := ParseSpace("f.toml", []byte("[params.f]\nlow = 0.0\nhigh = 1.0\n"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func with(c Config, kv ...any) Config {
	out := Config{}
	for k, v := range c {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1].(Value)
	}
	return out
}

// TestSamplersValid: every sampler only asks configurations of the space
// (active parameters only, values in range, constraints met), and new
// ones while there are.
func TestSamplersValid(t *testing.T) {
	space := exampleSpace(t)
	for _, sampler := range Samplers {
		t.Run(sampler, func(t *testing.T) {
			st, err := NewStudy(space, Options{Sampler: sampler, Seed: 3, Objectives: twoObjectives, Population: 20})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for i := range 300 {
				tr, err := st.Ask()
				if err != nil {
					t.Fatal(err)
				}
				if tr.ID != i {
					t.Fatalf("trial ID %d; want %d", tr.ID, i)
				}
				if err := space.Check(tr.Config); err != nil {
					t.Fatalf("trial %d: %s: %v", i, tr.Config, err)
				}
				if seen[tr.Config.Key()] {
					t.Fatalf("trial %d repeats %s", i, tr.Config)
				}
				seen[tr.Config.Key()] = true
				r := Result{Values: synthetic(tr.Config)}
				if i%7 == 3 {
					r = Result{Failed: true}
				}
				if err := st.Tell(tr.ID, r); err != nil {
					t.Fatal(err)
				}
			}
			if sampler == NSGA2 && st.Generation() < 5 {
				t.Errorf("NSGA-II at generation %d after 300 trials of a population of 20", st.Generation())
			}
		})
	}
}

// TestDeterministic: the same seed gives the same trials; another seed
// other trials.
func TestDeterministic(t *testing.T) {
	space := exampleSpace(t)
	run := func(sampler string, seed uint64) string {
		st, err := NewStudy(space, Options{Sampler: sampler, Seed: seed, Objectives: twoObjectives, Population: 10})
		if err != nil {
			t.Fatal(err)
		}
		for range 60 {
			tr, err := st.Ask()
			if err != nil {
				t.Fatal(err)
			}
			st.Tell(tr.ID, Result{Values: synthetic(tr.Config)})
		}
		b, _ := json.Marshal(st.Trials())
		return string(b)
	}
	for _, sampler := range Samplers {
		if a, b := run(sampler, 5), run(sampler, 5); a != b {
			t.Errorf("%s: two studies with seed 5 differ", sampler)
		}
		if a, b := run(sampler, 5), run(sampler, 6); a == b {
			t.Errorf("%s: seeds 5 and 6 give the same trials", sampler)
		}
	}
}

// TestResume: a study saved and resumed after every call continues
// exactly as one never interrupted, whatever the calls (asks, tells of
// running trials in any order, failures, enqueued configurations).
func TestResume(t *testing.T) {
	space := exampleSpace(t)
	rapid.Check(t, func(t *rapid.T) {
		sampler := rapid.SampledFrom(Samplers).Draw(t, "sampler")
		opts := Options{Sampler: sampler, Seed: rapid.Uint64().Draw(t, "seed"), Objectives: twoObjectives,
			Population: rapid.IntRange(2, 8).Draw(t, "population")}
		a, err := NewStudy(space, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := NewStudy(space, opts)
		defaults, _ := space.Defaults()
		var running []int
		for step := range rapid.IntRange(1, 80).Draw(t, "steps") {
			switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
			case op == 0:
				if err := a.Enqueue(defaults); err != nil {
					t.Fatal(err)
				}
				b.Enqueue(defaults)
			case op < 5 || len(running) == 0:
				ta, ea := a.Ask()
				tb, eb := b.Ask()
				if (ea == nil) != (eb == nil) || ea == nil && !ta.Config.Equal(tb.Config) {
					t.Fatalf("step %d: ask %s / %v, resumed %s / %v", step, ta.Config, ea, tb.Config, eb)
				}
				if ea == nil {
					running = append(running, ta.ID)
				}
			default:
				i := rapid.IntRange(0, len(running)-1).Draw(t, "which")
				id := running[i]
				running = slices.Delete(running, i, i+1)
				tr, _ := a.Trial(id)
				r := Result{Values: synthetic(tr.Config), Violation: float64(rapid.IntRange(0, 2).Draw(t, "violation"))}
				if op == 9 {
					r = Result{Failed: true}
				}
				if err := a.Tell(id, r); err != nil {
					t.Fatal(err)
				}
				if err := b.Tell(id, r); err != nil {
					t.Fatal(err)
				}
			}
			saved, err := b.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if b, err = ResumeStudy(space, saved); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			sa, _ := a.MarshalJSON()
			if sb, _ := b.MarshalJSON(); !bytes.Equal(sa, sb) {
				t.Fatalf("step %d: the resumed study's state differs:\n%s\n%s", step, sa, sb)
			}
		}
	})
}

func TestResumeRefusals(t *testing.T) {
	space := exampleSpace(t)
	st, _ := NewStudy(space, Options{Objectives: twoObjectives})
	saved, _ := st.MarshalJSON()
	other, _ := ParseSpace("o.toml", []byte("[params.x]\nvalues = [1]\n"))
	if _, err := ResumeStudy(other, saved); err == nil || !strings.Contains(err.Error(), "another search space") {
		t.Errorf("resume on another space: %v", err)
	}
	if _, err := ResumeStudy(space, []byte(`{"format":"nope"}`)); err == nil {
		t.Errorf("resume of another format succeeded")
	}
	if _, err := ResumeStudy(space, []byte(`{`)); err == nil {
		t.Errorf("resume of bad JSON succeeded")
	}
}

func TestTellErrors(t *testing.T) {
	st, err := NewStudy(exampleSpace(t), Options{Objectives: twoObjectives})
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := st.Ask()
	for _, tt := range []struct {
		id   int
		r    Result
		want string
	}{
		{7, Result{Values: []float64{1, 2}}, "no trial 7"},
		{tr.ID, Result{Values: []float64{1}}, "1 values for 2 objectives"},
		{tr.ID, Result{Values: []float64{1, math.NaN()}}, "not finite"},
		{tr.ID, Result{Values: []float64{1, 2}, Violation: -1}, "non-negative"},
	} {
		if err := st.Tell(tt.id, tt.r); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Tell(%d, %+v) = %v; want %q", tt.id, tt.r, err, tt.want)
		}
	}
	if err := st.Tell(tr.ID, Result{Values: []float64{1, 2}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Tell(tr.ID, Result{Values: []float64{1, 2}}); err == nil || !strings.Contains(err.Error(), "already complete") {
		t.Errorf("a second Tell: %v", err)
	}
	if err := st.Enqueue(Config{"tensor_parallel_size": Num(3)}); err == nil {
		t.Errorf("Enqueue of an invalid configuration succeeded")
	}
	if _, err := NewStudy(exampleSpace(t), Options{}); err == nil {
		t.Errorf("NSGA-II without objectives started")
	}
	if _, err := NewStudy(exampleSpace(t), Options{Sampler: "tpe"}); err == nil {
		t.Errorf("an unknown sampler started")
	}
}

// TestEnqueue: enqueued configurations come first, in order, marked.
func TestEnqueue(t *testing.T) {
	space := exampleSpace(t)
	st, _ := NewStudy(space, Options{Objectives: twoObjectives})
	d, _ := space.Defaults()
	e := with(d, "max_concurrency", Num(256))
	st.Enqueue(d)
	st.Enqueue(e)
	a, _ := st.Ask()
	b, _ := st.Ask()
	c, _ := st.Ask()
	if !a.Config.Equal(d) || !b.Config.Equal(e) || !a.Enqueued || !b.Enqueued || c.Enqueued {
		t.Errorf("asked %s (%v), %s (%v), %s (%v)", a.Config, a.Enqueued, b.Config, b.Enqueued, c.Config, c.Enqueued)
	}
}

// TestNSGA2Generations: a generation ends when Population of its trials
// completed; failures do not count; the parents are the survivors.
func TestNSGA2Generations(t *testing.T) {
	space, _ := ParseSpace("z.toml", []byte("[params.x]\nlow = 0.0\nhigh = 1.0\n[params.y]\nlow = 0.0\nhigh = 1.0\n"))
	st, err := NewStudy(space, Options{Objectives: twoObjectives, Population: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		tr, _ := st.Ask()
		r := Result{Values: synthetic(tr.Config)}
		if i == 1 {
			r = Result{Failed: true}
		}
		st.Tell(tr.ID, r)
		if want := 0; i < 4 && st.Generation() != want {
			t.Fatalf("after %d tells: generation %d; want %d", i+1, st.Generation(), want)
		}
	}
	if st.Generation() != 1 || len(st.parents) != 4 || slices.Contains(st.parents, 1) {
		t.Errorf("generation %d, parents %v; want generation 1 with the 4 complete trials", st.Generation(), st.parents)
	}
	tr, _ := st.Ask()
	if tr.Generation != 1 {
		t.Errorf("a child of generation %d; want 1", tr.Generation)
	}
}

// TestNSGA2Converges: on ZDT1 (30 variables), 100 generations of 100
// come close to the optimal hypervolume, which random search with the
// same budget is far from.
func TestNSGA2Converges(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		b.WriteString("[params.x" + string(rune('a'+i/26)) + string(rune('a'+i%26)) + "]\nlow = 0.0\nhigh = 1.0\n")
	}
	space, err := ParseSpace("zdt1.toml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	zdt1 := func(c Config) []float64 {
		x := make([]float64, len(space.Params))
		for i, p := range space.Params {
			x[i], _ = c[p.Name].Float()
		}
		g := 0.0
		for _, v := range x[1:] {
			g += v
		}
		g = 1 + 9*g/float64(len(x)-1)
		return []float64{x[0], g * (1 - math.Sqrt(x[0]/g))}
	}
	objs := []frontier.Objective{{Name: "f1"}, {Name: "f2"}}
	hv := map[string]float64{}
	for _, sampler := range []string{NSGA2, Random} {
		st, _ := NewStudy(space, Options{Sampler: sampler, Objectives: objs, Population: 100, Seed: 1})
		var pts []float64
		for range 10000 {
			tr, _ := st.Ask()
			v := zdt1(tr.Config)
			st.Tell(tr.ID, Result{Values: v})
			pts = append(pts, v...)
		}
		hv[sampler] = frontier.Hypervolume(pts, 2, []float64{1.1, 1.1})
	}
	// The true front's hypervolume is 1.21 - 1/3 ≈ 0.877.
	if hv[NSGA2] < 0.83 || hv[NSGA2] <= hv[Random]+0.1 {
		t.Errorf("ZDT1 hypervolume: NSGA-II %.3f, random %.3f; want NSGA-II above 0.83 and well above random", hv[NSGA2], hv[Random])
	}
	t.Logf("ZDT1 after 10000 evaluations: NSGA-II %.4f, random %.4f (optimum 0.8767)", hv[NSGA2], hv[Random])
}
