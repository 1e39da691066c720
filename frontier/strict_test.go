package frontier

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteDominators is the O(n²·k) reference: true where some other point
// strictly dominates the row.
func bruteDominated(data []float64, k int) []bool {
	n := len(data) / k
	out := make([]bool, n)
	for b := range n {
		for a := range n {
			if dominates(data, k, int32(a), int32(b)) {
				out[b] = true
				break
			}
		}
	}
	return out
}

// randomPoints draws n points with k coordinates from a few integer levels
// (many ties and duplicates) or uniformly, seeded.
func randomPoints(rng *rand.Rand, n, k int, levels int) []float64 {
	data := make([]float64, n*k)
	for i := range data {
		if levels > 0 {
			data[i] = float64(rng.IntN(levels))
		} else {
			data[i] = rng.Float64()
		}
	}
	return data
}

func checkStrict(t *testing.T, data []float64, k int) {
	t.Helper()
	dom := StrictFront(data, k)
	want := bruteDominated(data, k)
	for i, d := range dom {
		if (d >= 0) != want[i] {
			t.Fatalf("point %d %v: dominated=%v, want %v", i, data[i*k:i*k+k], d >= 0, want[i])
		}
		if d >= 0 {
			if !dominates(data, k, d, int32(i)) {
				t.Fatalf("point %d: reported dominator %d does not dominate it", i, d)
			}
			if dom[d] != -1 {
				t.Fatalf("point %d: reported dominator %d is not on the frontier", i, d)
			}
		}
	}
}

func TestStrictFrontMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 2, 3, 4, 5, 6} {
		for _, n := range []int{0, 1, 2, 3, 10, 100, 700, 1500} {
			for _, levels := range []int{0, 3, 10} {
				t.Run(fmt.Sprintf("k=%d/n=%d/levels=%d", k, n, levels), func(t *testing.T) {
					checkStrict(t, randomPoints(rng, n, k, levels), k)
				})
			}
		}
	}
}

func TestStrictFrontAllNonDominated(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{2, 3, 4} {
		data := simplexPoints(rng, 2000, k)
		dom := StrictFront(data, k)
		if i := slices.IndexFunc(dom, func(d int32) bool { return d >= 0 }); i >= 0 {
			t.Fatalf("k=%d: simplex point %d reported dominated", k, i)
		}
	}
}

// simplexPoints draws n points on the simplex sum = 1 (mutually
// non-dominated).
func simplexPoints(rng *rand.Rand, n, k int) []float64 {
	data := make([]float64, n*k)
	for i := range n {
		s := 0.0
		row := data[i*k : i*k+k]
		for c := range row {
			row[c] = rng.ExpFloat64()
			s += row[c]
		}
		for c := range row {
			row[c] /= s
		}
	}
	return data
}

func TestStrictFrontOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{2, 3, 4} {
		data := randomPoints(rng, 900, k, 6)
		dom := StrictFront(data, k)
		perm := rng.Perm(900)
		shuffled := make([]float64, len(data))
		for i, p := range perm {
			copy(shuffled[i*k:i*k+k], data[p*k:p*k+k])
		}
		dom2 := StrictFront(shuffled, k)
		for i, p := range perm {
			if (dom2[i] >= 0) != (dom[p] >= 0) {
				t.Fatalf("k=%d: point %d changes status under permutation", k, p)
			}
		}
	}
}
