package frontier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// hvtGrid computes the hypervolume exactly by cell decomposition: the grid
// spanned by all point coordinates and ref splits space into boxes, each of
// which is either entirely dominated (its lower corner is >= some point) or
// not. Exponential in k; meant for n <= 8, k <= 4.
func hvtGrid(data []float64, k int, ref []float64) float64 {
	axes := make([][]float64, k)
	for c := range k {
		ax := []float64{ref[c]}
		for i := c; i < len(data); i += k {
			if data[i] < ref[c] {
				ax = append(ax, data[i])
			}
		}
		slices.Sort(ax)
		axes[c] = slices.Compact(ax)
	}
	idx := make([]int, k)
	total := 0.0
	for {
		vol, ok := 1.0, true
		for c := range k {
			if idx[c]+1 >= len(axes[c]) {
				ok = false
				break
			}
			vol *= axes[c][idx[c]+1] - axes[c][idx[c]]
		}
		if ok && hvtCovered(data, k, ref, axes, idx) {
			total += vol
		}
		c := 0
		for ; c < k; c++ {
			idx[c]++
			if idx[c] < len(axes[c]) {
				break
			}
			idx[c] = 0
		}
		if c == k {
			return total
		}
	}
}

func hvtCovered(data []float64, k int, ref []float64, axes [][]float64, idx []int) bool {
	for i := 0; i < len(data); i += k {
		in := true
		for c := range k {
			v := data[i+c]
			if !(v < ref[c]) || v > axes[c][idx[c]] {
				in = false
				break
			}
		}
		if in {
			return true
		}
	}
	return false
}

func hvtClose(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// TestHypervolumeMatchesGrid compares Hypervolume with the cell
// decomposition on random small-integer points (many ties, duplicates,
// points on the reference boundary) for k = 1..4, and on real-valued points
// for k = 5, 6 through a larger grid.
func TestHypervolumeMatchesGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 9))
	for k := 1; k <= 6; k++ {
		maxN := 8
		if k >= 5 {
			maxN = 6
		}
		for trial := range 300 {
			n := rng.IntN(maxN + 1)
			data := make([]float64, n*k)
			for i := range data {
				data[i] = float64(rng.IntN(5))
			}
			if trial%3 == 0 {
				for i := range data {
					data[i] += rng.Float64()
				}
			}
			ref := hvtOnes(k, 4)
			got, want := Hypervolume(data, k, ref), hvtGrid(data, k, ref)
			if !hvtClose(got, want) {
				t.Fatalf("k=%d n=%d data=%v: Hypervolume = %v; want %v", k, n, data, got, want)
			}
		}
	}
}

// TestHypervolumeProperty checks, on rapid-generated inputs, agreement with
// the grid, invariance under permutation and duplication of points, and the
// scaling and translation of a column.
func TestHypervolumeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(1, 4).Draw(t, "k")
		n := rapid.IntRange(0, 7).Draw(t, "n")
		vals := rapid.SliceOfN(rapid.IntRange(0, 4), n*k, n*k).Draw(t, "vals")
		data := make([]float64, n*k)
		for i, v := range vals {
			data[i] = float64(v)
		}
		ref := hvtOnes(k, 4)
		hv := Hypervolume(data, k, ref)
		if want := hvtGrid(data, k, ref); !hvtClose(hv, want) {
			t.Fatalf("Hypervolume = %v; want %v", hv, want)
		}
		perm := rapid.Permutation(seq(n)).Draw(t, "perm")
		pd := make([]float64, 0, 2*n*k)
		for _, i := range perm {
			pd = append(pd, data[i*k:(i+1)*k]...)
		}
		pd = append(pd, data...) // every point twice
		if got := Hypervolume(pd, k, ref); !hvtClose(got, hv) {
			t.Fatalf("permuted and duplicated: %v; want %v", got, hv)
		}
		c := rapid.IntRange(0, k-1).Draw(t, "col")
		moved, mref := slices.Clone(data), slices.Clone(ref)
		for i := c; i < len(moved); i += k {
			moved[i] = 2*moved[i] - 3 // scale by 2 and translate one column
		}
		mref[c] = 2*mref[c] - 3
		if got := Hypervolume(moved, k, mref); !hvtClose(got, 2*hv) {
			t.Fatalf("column %d scaled by 2: %v; want %v", c, got, 2*hv)
		}
	})
}

// TestHypervolumeAnalytic checks the analytic families of
// FRONTIER-ALGORITHMS.md §9 (from Optuna's test_wfg.py).
func TestHypervolumeAnalytic(t *testing.T) {
	for _, n := range []int{1, 2, 7, 30, 200} {
		var d2 []float64
		for i := range n {
			d2 = append(d2, float64(i), float64(n-1-i))
		}
		for i := 0; i <= n; i++ {
			d2 = append(d2, float64(i), float64(n-i))
		}
		fn := float64(n)
		if got, want := Hypervolume(d2, 2, []float64{fn, fn}), fn*fn-fn*(fn-1)/2; got != want {
			t.Errorf("2D staircase n=%d: %v; want %v", n, got, want)
		}
		var d3 []float64
		for x := range n {
			for y := 0; x+y <= n-1; y++ {
				d3 = append(d3, float64(x), float64(y), float64(n-1-x-y))
			}
		}
		if got, want := Hypervolume(d3, 3, []float64{fn, fn, fn}), fn*fn*fn-(fn-1)*fn*(fn+1)/6; got != want {
			t.Errorf("3D lattice simplex n=%d: %v; want %v", n, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for k := 2; k <= 8; k++ {
		for _, extra := range []int{0, 5, 60} {
			var data []float64
			for c := range k {
				for j := range k {
					data = append(data, float64(min(1, max(0, 1-(c-j)*(c-j))))) // identity row e_c
				}
			}
			for range extra {
				for range k {
					data = append(data, float64(1+rng.IntN(9)))
				}
			}
			want := math.Pow(10, float64(k)) - 1
			if got := Hypervolume(data, k, hvtOnes(k, 10)); got != want {
				t.Errorf("k=%d identity+%d: %v; want %v", k, extra, got, want)
			}
		}
	}
}

func TestHypervolumeDetail(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, tt := range []struct {
		name      string
		k         int
		data, ref []float64
		want      float64
		discarded int
	}{
		{"empty", 3, nil, []float64{1, 1, 1}, 0, 0},
		{"moocore docstring", 2, []float64{5, 5, 4, 6, 2, 7, 7, 4}, []float64{10, 10}, 38, 0},
		{"on the boundary", 2, []float64{1, 10, 10, 1, 5, 5}, []float64{10, 10}, 25, 2},
		{"all discarded", 2, []float64{0, 0}, []float64{0, 0}, 0, 1},
		{"NaN point", 2, []float64{nan, 1, 1, 1}, []float64{2, 2}, 1, 1},
		{"NaN ref", 2, []float64{1, 1}, []float64{nan, 2}, 0, 1},
		{"-Inf coordinate", 3, []float64{-inf, 0, 0, 1, 1, 1}, []float64{2, 2, 2}, inf, 0},
		{"+Inf reference", 2, []float64{1, 1}, []float64{inf, 2}, inf, 0},
		{"+Inf point", 2, []float64{inf, 1, 1, 1}, []float64{2, 2}, 1, 1},
		{"k=1", 1, []float64{3, 1, 2}, []float64{4}, 3, 0},
		{"duplicates 5D", 5, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, hvtOnes(5, 2), 1, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hv, disc := HypervolumeDetail(tt.data, tt.k, tt.ref)
			if hv != tt.want || disc != tt.discarded {
				t.Errorf("HypervolumeDetail = %v, %d; want %v, %d", hv, disc, tt.want, tt.discarded)
			}
		})
	}
}

func TestHypervolumePanics(t *testing.T) {
	for _, tt := range []struct {
		name      string
		k         int
		data, ref []float64
	}{
		{"k=0", 0, nil, nil},
		{"ragged", 2, []float64{1, 2, 3}, []float64{4, 4}},
		{"short ref", 2, []float64{1, 2}, []float64{4}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("Hypervolume did not panic")
				}
			}()
			Hypervolume(tt.data, tt.k, tt.ref)
		})
	}
}

// TestHypervolumeLargeAgree cross-checks the algorithms on larger inputs by
// embedding: adding a constant coordinate at 0 with reference 1 must not
// change the volume (2D vs 3D sweep, 3D vs 4D sweep, 4D vs 5D recursion).
func TestHypervolumeLargeAgree(t *testing.T) {
	for _, tt := range []struct{ k, n int }{{2, 5000}, {3, 3000}, {4, 600}} {
		for _, kind := range []string{"uniform", "simplex"} {
			t.Run(fmt.Sprintf("k=%d/n=%d/data=%s", tt.k, tt.n, kind), func(t *testing.T) {
				data := hvtUniform(tt.n, tt.k, 4)
				if kind == "simplex" {
					data = hvtSimplex(tt.n, tt.k, 4)
				}
				ext := make([]float64, 0, tt.n*(tt.k+1))
				for i := 0; i < len(data); i += tt.k {
					ext = append(ext, data[i:i+tt.k]...)
					ext = append(ext, 0)
				}
				ref := hvtOnes(tt.k+1, 1)
				want := Hypervolume(data, tt.k, ref[:tt.k])
				got := Hypervolume(ext, tt.k+1, ref)
				if math.Abs(got-want) > 1e-13*want {
					t.Errorf("embedded in %dD: %v; want %v", tt.k+1, got, want)
				}
			})
		}
	}
}

func TestAutoReference(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, tt := range []struct {
		name string
		k    int
		data []float64
		want []float64
	}{
		{"empty", 2, nil, nil},
		{"one point", 3, []float64{10, -5, 0}, []float64{11, -4.5, 0.1}},
		{"range", 2, []float64{0, 10, 10, 30}, []float64{11, 32}},
		{"equal values", 1, []float64{2, 2}, []float64{2.2}},
		{"non-finite ignored", 2, []float64{nan, 1, 0, inf, 10, 2}, []float64{11, 2.1}},
		{"no finite value", 1, []float64{nan}, []float64{inf}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := AutoReference(tt.data, tt.k)
			if len(got) != len(tt.want) {
				t.Fatalf("AutoReference = %v; want %v", got, tt.want)
			}
			for c := range got {
				if got[c] != tt.want[c] && !hvtClose(got[c], tt.want[c]) {
					t.Errorf("AutoReference = %v; want %v", got, tt.want)
				}
			}
		})
	}
	data := hvtUniform(100, 3, 8)
	ref := AutoReference(data, 3)
	if _, disc := HypervolumeDetail(data, 3, ref); disc != 0 {
		t.Errorf("AutoReference leaves %d points discarded", disc)
	}
	huge := []float64{1e308, -1e308, 1e300}
	for _, r := range AutoReference(huge, 1) {
		if !(r > 1e308) {
			t.Errorf("AutoReference(%v) = %v; want > max", huge, r)
		}
	}
}

// TestHypervolumeContributions compares HypervolumeContributions with the
// definition HV(S) - HV(S without p), on S itself and, with
// ignoreDominated, on the non-dominated subset (dominated points get 0).
func TestHypervolumeContributions(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 7))
	for k := 1; k <= 5; k++ {
		for range 200 {
			n := rng.IntN(9)
			data := make([]float64, n*k)
			for i := range data {
				data[i] = float64(rng.IntN(5))
			}
			ref := hvtOnes(k, 4)
			rank := Ranks(data, k)
			for _, ignore := range []bool{false, true} {
				got := HypervolumeContributions(data, k, ref, ignore)
				set := make([]int, 0, n)
				for i := range n {
					if !ignore || rank[i] == 0 {
						set = append(set, i)
					}
				}
				total := Hypervolume(hvtRows(data, k, set, -1), k, ref)
				for i := range n {
					want := 0.0
					if !ignore || rank[i] == 0 {
						want = total - Hypervolume(hvtRows(data, k, set, i), k, ref)
					}
					if !hvtClose(got[i], want) {
						t.Fatalf("k=%d ignore=%v data=%v: contribution %d = %v; want %v", k, ignore, data, i, got[i], want)
					}
				}
			}
		}
	}
}

// hvtRows returns the rows of data listed in set, except row skip.
func hvtRows(data []float64, k int, set []int, skip int) []float64 {
	var out []float64
	for _, i := range set {
		if i != skip {
			out = append(out, data[i*k:(i+1)*k]...)
		}
	}
	return out
}
