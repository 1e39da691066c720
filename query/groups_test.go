package query

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/table"
)

// TestEachGroup checks that eachGroup calls every index exactly once,
// with one worker and with several, for no, one and many groups.
func TestEachGroup(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 2, 7, 300} {
			t.Run(fmt.Sprintf("procs=%d/n=%d", procs, n), func(t *testing.T) {
				calls := make([]atomic.Int32, n)
				eachGroup(n, func(i int) { calls[i].Add(1) })
				for i := range calls {
					if c := calls[i].Load(); c != 1 {
						t.Errorf("group %d analysed %d times", i, c)
					}
				}
			})
		}
	}
}

// TestGroupsConcurrent checks that groups analysed on several cores give
// the answer of the one-core path in every output, byte for byte: 60
// groups of random 5D points of varied sizes (mutually non-dominated on
// a sphere, or uniform), with invalid cells, an SLO and a hypervolume
// reference that leaves some points outside.
func TestGroupsConcurrent(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("id,set,a,b,c,d,e,lat\n")
	rng := rand.New(rand.NewPCG(3, 4))
	id := 0
	for g := range 60 {
		sphere := g%2 == 0
		for range 1 + rng.IntN(150) {
			v := make([]float64, 5)
			norm := 0.0
			for j := range v {
				v[j] = rng.Float64()
				if sphere {
					v[j] = rng.NormFloat64()
				}
				norm += v[j] * v[j]
			}
			fmt.Fprintf(&sb, "%d,g%02d", id, g)
			for j := range v {
				x := v[j]
				if sphere {
					x = math.Abs(x) / math.Sqrt(norm)
				}
				cell := strconv.FormatFloat(x, 'g', -1, 64)
				if rng.IntN(200) == 0 {
					cell = "n/a"
				}
				sb.WriteString("," + cell)
			}
			fmt.Fprintf(&sb, ",%d\n", rng.IntN(100))
			id++
		}
	}
	q := Query{GroupBy: "set", Reference: []float64{0.95, 0.95, 0.95, 0.95, 0.95},
		SLOs: []frontier.SLO{{Name: "lat", Op: frontier.LT, Bound: 90}}}
	for _, o := range "abcde" {
		q.Objectives = append(q.Objectives, frontier.Objective{Name: string(o)})
	}
	add := func(r *Rows) {
		tb, err := table.Read(strings.NewReader(sb.String()), "sets.csv", q.TableSpec())
		if err != nil {
			t.Fatal(err)
		}
		r.AddTable(tb)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, frontierOnly := range []bool{false, true} {
		q.FrontierOnly = frontierOnly
		runtime.GOMAXPROCS(1)
		want := answer(t, &q, add)
		runtime.GOMAXPROCS(4)
		got := answer(t, &q, add)
		if !bytes.Contains(want["json"], []byte(`"hypervolume"`)) || !bytes.Contains(want["json"], []byte(`"g59"`)) {
			t.Fatalf("frontier-only=%v: the answer has no hypervolume or lacks groups:\n%.500s", frontierOnly, want["json"])
		}
		for format, w := range want {
			if !bytes.Equal(got[format], w) {
				t.Errorf("frontier-only=%v: %s output on four workers differs from one worker's:\n%.2000s\nwant\n%.2000s",
					frontierOnly, format, got[format], w)
			}
		}
	}
}
