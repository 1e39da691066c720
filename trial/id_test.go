package trial

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// spelledOut is the brute-force reference of ComputeID's content: every
// field ComputeID covers, spelled out for every measurement in canonical
// order. Two trials must get the same ID exactly when these agree.
func spelledOut(t *Trial) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%q %d %q %q %v %d %d %q\n", t.Source.File(), t.Source.Index, t.Labels, t.Params, t.Workload,
		t.Succeeded, t.Failed, t.Problem)
	ms := slices.Clone(t.Measurements)
	slices.SortStableFunc(ms, cmpMeasurement)
	for _, m := range ms {
		fmt.Fprintf(&sb, "%q %q %x %q\n", m.Metric, m.Dims, m.Value, m.Unit)
	}
	return sb.String()
}

// randomTrial draws a trial from a small alphabet, so that random pairs
// often agree and differ in one field only. Dims are shared between
// measurements when share is true, as the fast readers do.
func randomTrial(r *rand.Rand, share bool) Trial {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	dimsPool := []Dims{nil, {{"statistic", "mean"}}, {{"statistic", "p99"}},
		{{"phase", "warmup"}, {"statistic", "mean"}}, {{"gpu", "0"}, {"statistic", "avg"}}}
	t := Trial{Labels: map[string]string{}, Params: map[string]string{}, Succeeded: int64(r.IntN(2)), Failed: -1}
	t.Source.Path = pick("a.json", "b.json")
	t.Source.Index = r.IntN(2)
	if r.IntN(2) == 0 {
		t.Labels["tool"] = pick("aiperf", "vllm")
	}
	if r.IntN(2) == 0 {
		t.Params["tp"] = pick("1", "2")
	}
	t.Workload.Concurrency = float64(r.IntN(2))
	for range r.IntN(6) {
		d := dimsPool[r.IntN(len(dimsPool))]
		if !share && d != nil {
			d = slices.Clone(d)
		}
		t.Measurements = append(t.Measurements, Measurement{
			Metric: pick("ttft", "tpot", "ttf"), Dims: d, Value: float64(r.IntN(3)), Unit: pick("ms", "", "s"),
			Native: pick("a", "b"),
		})
	}
	return t
}

func TestComputeIDMatchesSpelledOut(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ids := map[string]string{} // spelled-out content -> ID
	byID := map[string]string{}
	for range 200000 {
		a := randomTrial(r, r.IntN(2) == 0)
		id, s := ComputeID(&a), spelledOut(&a)
		if prev, ok := ids[s]; ok && prev != id {
			t.Fatalf("same content, different IDs %s and %s:\n%s", prev, id, s)
		}
		if prev, ok := byID[id]; ok && prev != s {
			t.Fatalf("ID %s for different contents:\n%s\n%s", id, prev, s)
		}
		ids[s], byID[id] = id, s
	}
	if len(ids) < 1000 {
		t.Fatalf("only %d distinct trials drawn", len(ids))
	}
}

func TestComputeIDIgnoresSharingAndOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		a := randomTrial(r, true)
		b := a
		b.Measurements = slices.Clone(a.Measurements)
		for i := range b.Measurements {
			b.Measurements[i].Dims = slices.Clone(b.Measurements[i].Dims)
		}
		for i := range b.Measurements { // the canonical order does not look at units
			a.Measurements[i].Unit = a.Measurements[i].Metric + "/s"
			b.Measurements[i].Unit = a.Measurements[i].Unit
		}
		r.Shuffle(len(b.Measurements), func(i, j int) { b.Measurements[i], b.Measurements[j] = b.Measurements[j], b.Measurements[i] })
		if ComputeID(&a) != ComputeID(&b) {
			t.Fatalf("IDs differ with dims sharing or order:\n%s", spelledOut(&a))
		}
	}
}

// BenchmarkComputeID hashes a trial shaped like a realistic AIPerf
// profile: 40 metrics with the same 8 shared statistics dims.
func BenchmarkComputeID(b *testing.B) {
	stats := []string{"avg", "max", "min", "p50", "p90", "p95", "p99", "std"}
	dims := make([]Dims, len(stats))
	for i, s := range stats {
		dims[i] = Dims{{DimStatistic, s}}
	}
	for _, n := range []int{40} {
		t := Trial{Labels: map[string]string{"tool": "aiperf", "model": "m"}, Params: map[string]string{"a.b": "1"}}
		for j := range n {
			metric := fmt.Sprintf("metric_%02d", j) // shared by the block, as readers do
			for i := range dims {
				t.Measurements = append(t.Measurements, Measurement{Metric: metric, Dims: dims[i], Value: float64(i * j), Unit: "ms"})
			}
		}
		b.Run(fmt.Sprintf("measurements=%d", len(t.Measurements)), func(b *testing.B) {
			for b.Loop() {
				ComputeID(&t)
			}
		})
	}
}

// TestIDTemplate checks IDTemplate against ComputeIDSorted over a series
// of trials that repeat the previous one's measurements with new values
// (the template's fast path), share its strings and dims but not their
// order, or are new.
func TestIDTemplate(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var p IDTemplate
	prev := randomTrial(r, true)
	for i := range 100000 {
		var tr Trial
		switch r.IntN(4) {
		case 0, 1: // same keys, new values and labels
			tr = prev
			tr.Measurements = slices.Clone(prev.Measurements)
			for j := range tr.Measurements {
				tr.Measurements[j].Value = float64(r.IntN(3))
			}
			tr.Labels = map[string]string{"i": fmt.Sprint(i % 3)}
		case 2: // same strings, shuffled or shortened
			tr = prev
			tr.Measurements = slices.Clone(prev.Measurements)
			r.Shuffle(len(tr.Measurements), func(a, b int) { tr.Measurements[a], tr.Measurements[b] = tr.Measurements[b], tr.Measurements[a] })
			tr.Measurements = tr.Measurements[:r.IntN(len(tr.Measurements)+1)]
		default:
			tr = randomTrial(r, r.IntN(2) == 0)
		}
		tr.Sort()
		if got, want := p.ComputeIDSorted(&tr), ComputeIDSorted(&tr); got != want {
			t.Fatalf("trial %d: template ID %s, ComputeIDSorted %s:\n%s", i, got, want, spelledOut(&tr))
		}
		prev = tr
	}
}

// TestComputeIDPosition checks that the position (Source.File and Index)
// is part of the ID, and nothing else of Source.
func TestComputeIDPosition(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	base := randomTrial(r, true)
	base.Source = Source{Path: "runs/a.json", Format: "vllm"}
	id := ComputeID(&base)
	same := []func(*Trial){
		func(t *Trial) { t.Source.Key = "runs/a.json" }, // the key Path stands for
		func(t *Trial) { t.Source.Path, t.Source.Key = "/elsewhere/runs/a.json", "runs/a.json" },
		func(t *Trial) { t.Source.Line = 7 },
		func(t *Trial) { t.Source.Format, t.Source.FormatVersion = "sglang", "x" },
		func(t *Trial) { t.Deployment = &Deployment{ServingGPUs: 8, Config: "x = 1"} },
		func(t *Trial) { t.Warnings = []string{"w"} },
	}
	for i, f := range same {
		c := base
		f(&c)
		if got := ComputeID(&c); got != id {
			t.Errorf("change %d: ID %s; want %s", i, got, id)
		}
	}
	differ := []func(*Trial){
		func(t *Trial) { t.Source.Path = "runs/b.json" },
		func(t *Trial) { t.Source.Key = "other/a.json" },
		func(t *Trial) { t.Source.Index = 1 },
	}
	for i, f := range differ {
		c := base
		f(&c)
		if got := ComputeID(&c); got == id {
			t.Errorf("position change %d: same ID %s", i, got)
		}
	}
}
