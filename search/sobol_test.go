package search

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestPrimitivePolynomials: the search finds φ(2^d - 1)/d polynomials of
// each degree d, each with an LFSR period of 2^d - 1 (checked by running
// it), in order.
func TestPrimitivePolynomials(t *testing.T) {
	polys := primitivePolynomials(1 + 1 + 2 + 2 + 6 + 6 + 18 + 16 + 48) // degrees 1..9
	count := map[uint32]int{}
	prev := uint32(0)
	for _, p := range polys {
		deg, poly := p[0], p[1]
		if poly <= prev {
			t.Errorf("polynomial %b out of order after %b", poly, prev)
		}
		prev = poly
		count[deg]++
		// The period of x under multiplication modulo p.
		state, period := uint32(1), 0
		for {
			state <<= 1
			if state&(1<<deg) != 0 {
				state ^= poly
			}
			period++
			if state == 1 || period > 1<<deg {
				break
			}
		}
		if period != 1<<deg-1 {
			t.Errorf("polynomial %b (degree %d) has period %d; want %d", poly, deg, period, 1<<deg-1)
		}
	}
	for d := uint32(1); d <= 9; d++ {
		if want := totient(1<<d-1) / int(d); count[d] != want {
			t.Errorf("%d primitive polynomials of degree %d; want φ(2^%d-1)/%d = %d", count[d], d, d, d, want)
		}
	}
	if polys[0] != [2]uint32{1, 0b11} || polys[1] != [2]uint32{2, 0b111} || polys[2] != [2]uint32{3, 0b1011} || polys[3] != [2]uint32{3, 0b1101} {
		t.Errorf("first polynomials %b; want x+1, x²+x+1, x³+x+1, x³+x²+1", polys[:4])
	}
}

func totient(n int) int {
	out := n
	for p := 2; p*p <= n; p++ {
		if n%p == 0 {
			for n%p == 0 {
				n /= p
			}
			out -= out / p
		}
	}
	if n > 1 {
		out -= out / n
	}
	return out
}

// TestSobolDirections: every direction number is m_k/2^k with m_k odd
// and below 2^k, and follows its polynomial's recurrence.
func TestSobolDirections(t *testing.T) {
	dirs := sobolDirections(MaxSobolDim)
	polys := primitivePolynomials(MaxSobolDim - 1)
	for j, v := range dirs {
		for k, x := range v {
			if bits.TrailingZeros32(x) != sobolBits-1-k {
				t.Fatalf("dimension %d: v_%d = %032b is not m/2^%d with m odd", j, k+1, x, k+1)
			}
		}
		if j == 0 {
			continue
		}
		s := int(polys[j-1][0])
		init := make([]uint32, s)
		for k := range init {
			init[k] = v[k] >> (sobolBits - 1 - k)
		}
		if directions(polys[j-1], init) != v {
			t.Fatalf("dimension %d does not follow the recurrence of %b", j, polys[j-1][1])
		}
	}
}

// TestSobolStratified: the first 2^m points of every dimension fall one
// in each interval [i/2^m, (i+1)/2^m), shift or not.
func TestSobolStratified(t *testing.T) {
	for _, seed := range []uint64{0, 1, 99} {
		seq, err := newSobol(MaxSobolDim, seed)
		if err != nil {
			t.Fatal(err)
		}
		const m = 10
		seen := make([][]bool, MaxSobolDim)
		for j := range seen {
			seen[j] = make([]bool, 1<<m)
		}
		u := make([]float64, MaxSobolDim)
		for i := range uint64(1 << m) {
			seq.point(i, u)
			for j, x := range u {
				cell := int(x * (1 << m))
				if seen[j][cell] {
					t.Fatalf("seed %d, dimension %d: two of the first %d points in cell %d", seed, j, 1<<m, cell)
				}
				seen[j][cell] = true
			}
		}
	}
}

// TestNetT: the t-value computed from the generator matrices is the one
// found by counting the points in every elementary interval.
func TestNetT(t *testing.T) {
	dirs := sobolDirections(12)
	for _, pair := range [][2]int{{0, 1}, {1, 2}, {3, 7}, {5, 11}, {9, 10}} {
		a, b := &dirs[pair[0]], &dirs[pair[1]]
		for m := 1; m <= 8; m++ {
			if got, want := netT(a, b, m), bruteT(a, b, m); got != want {
				t.Errorf("dimensions %v, m = %d: t = %d; counting gives %d", pair, m, got, want)
			}
		}
	}
}

// bruteT counts: the smallest t such that every box [i/2^d1, (i+1)/2^d1)
// × [j/2^d2, (j+1)/2^d2) with d1 + d2 = m - t holds exactly 2^t of the
// first 2^m points.
func bruteT(a, b *[sobolBits]uint32, m int) int {
	n := 1 << m
	xs, ys := make([]uint32, n), make([]uint32, n)
	for i := range n {
		for k := 0; k < m; k++ {
			if i>>k&1 != 0 {
				xs[i] ^= a[k]
				ys[i] ^= b[k]
			}
		}
	}
	for t := 0; t <= m; t++ {
		ok := true
		for d1 := 0; d1 <= m-t && ok; d1++ {
			d2 := m - t - d1
			cells := map[[2]uint32]int{}
			for i := range n {
				cells[[2]uint32{xs[i] >> (sobolBits - d1) & (1<<d1 - 1), ys[i] >> (sobolBits - d2) & (1<<d2 - 1)}]++
			}
			for _, c := range cells {
				if c != 1<<t {
					ok = false
				}
			}
			if len(cells) != n>>t {
				ok = false
			}
		}
		if ok {
			return t
		}
	}
	return m
}

// TestSobolIntegration: on Sobol's g-function in 8 dimensions (integral
// 1) the sequence's error at 4096 points is far below Monte Carlo's
// standard error (0.015 there).
func TestSobolIntegration(t *testing.T) {
	const dim, n = 8, 4096
	g := func(u []float64) float64 {
		p := 1.0
		for _, x := range u {
			p *= (math.Abs(4*x-2) + 1) / 2
		}
		return p
	}
	for seed := range uint64(10) {
		seq, _ := newSobol(dim, seed)
		u := make([]float64, dim)
		sum := 0.0
		for i := range uint64(n) {
			seq.point(i, u)
			sum += g(u)
		}
		if err := math.Abs(sum/n - 1); err > 0.002 {
			t.Errorf("seed %d: Sobol error %.5f at %d points; want < 0.002", seed, err, n)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	u := make([]float64, dim)
	sum := 0.0
	for range n {
		for i := range u {
			u[i] = rng.Float64()
		}
		sum += g(u)
	}
	t.Logf("Monte Carlo error at %d points: %.4f", n, math.Abs(sum/n-1))
}

func TestSobolLimits(t *testing.T) {
	if _, err := newSobol(MaxSobolDim+1, 0); err == nil {
		t.Errorf("newSobol(%d) succeeded", MaxSobolDim+1)
	}
	if _, err := newSobol(0, 0); err == nil {
		t.Errorf("newSobol(0) succeeded")
	}
}
