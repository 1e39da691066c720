package search

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"
)

// The Sobol sequence: point i of dimension j is the XOR of the direction
// numbers v_j,k for the set bits k of i (a digital (t, s)-sequence in
// base 2), here with 32-bit direction numbers and a random digital shift
// per dimension (an XOR with a seeded 32-bit word, which keeps every
// t-value).
//
// The direction numbers are not taken from a published table: they are
// computed here, the same on every run. Dimension 0 is the van der
// Corput sequence (v_0,k = 2^-k). Dimension j ≥ 1 takes the j-th
// primitive polynomial over GF(2), found by search in order of degree
// and then of value (x+1, x²+x+1, x³+x+1, x³+x²+1, ...), whose degree s
// and coefficients a_1..a_s-1 drive the recurrence
//
//	m_k = 2a_1·m_k-1 ⊕ 4a_2·m_k-2 ⊕ ... ⊕ 2^(s-1)a_s-1·m_k-s+1 ⊕ 2^s·m_k-s ⊕ m_k-s
//
// from s free initial values m_1..m_s (m_k odd, m_k < 2^k), and v_j,k =
// m_k/2^k. The initial values are chosen greedily, one dimension after
// the other: among sobolCandidates candidates drawn from a generator
// seeded by j, the one whose two-dimensional projections with every
// earlier dimension have the smallest sum of t-values over the first 2^m
// points, m = 1..sobolQualityBits (the criterion of Joe and Kuo, 2008,
// simplified). The t-value of a projection is computed exactly from the
// generator matrices.

const (
	sobolBits        = 32
	sobolCandidates  = 24
	sobolQualityBits = 12
	// MaxSobolDim is the most dimensions (parameters) the Sobol sampler
	// handles.
	MaxSobolDim = 64
)

// sobolTable caches the direction numbers computed so far.
var sobolTable struct {
	sync.Mutex
	polys [][2]uint32 // degree, polynomial bits (x^s + ... + 1)
	dirs  [][sobolBits]uint32
}

// sobolDirections returns the direction numbers of dimensions 0..dim-1.
func sobolDirections(dim int) [][sobolBits]uint32 {
	t := &sobolTable
	t.Lock()
	defer t.Unlock()
	for len(t.dirs) < dim {
		j := len(t.dirs)
		if j == 0 {
			var v [sobolBits]uint32
			for k := range v {
				v[k] = 1 << (sobolBits - 1 - k)
			}
			t.dirs = append(t.dirs, v)
			continue
		}
		if len(t.polys) < j {
			t.polys = primitivePolynomials(j)
		}
		t.dirs = append(t.dirs, bestDirections(t.polys[j-1], t.dirs))
	}
	return t.dirs[:dim]
}

// primitivePolynomials returns the first n primitive polynomials over
// GF(2) of degree ≥ 1, by degree and then value, as (degree, bits).
func primitivePolynomials(n int) [][2]uint32 {
	var out [][2]uint32
	for deg := uint32(1); len(out) < n; deg++ {
		for p := uint32(1)<<deg | 1; p < 1<<(deg+1) && len(out) < n; p += 2 {
			if primitive(p, deg) {
				out = append(out, [2]uint32{deg, p})
			}
		}
	}
	return out
}

// primitive reports whether the polynomial p of degree deg (bit i is the
// coefficient of x^i) is primitive: irreducible, with x of order 2^deg - 1
// modulo p.
func primitive(p, deg uint32) bool {
	if deg == 1 {
		return p == 0b11
	}
	// Irreducible: no factor of degree 1..deg/2.
	for d := uint32(1); 2*d <= deg; d++ {
		for q := uint32(1) << d; q < 1<<(d+1); q++ {
			if polyMod(p, q) == 0 {
				return false
			}
		}
	}
	order := uint64(1)<<deg - 1
	if polyPowX(order, p, deg) != 1 {
		return false
	}
	for _, f := range primeFactors(order) {
		if polyPowX(order/f, p, deg) == 1 {
			return false
		}
	}
	return true
}

// polyMod returns a mod b over GF(2).
func polyMod(a, b uint32) uint32 {
	db := bits.Len32(b)
	for {
		da := bits.Len32(a)
		if da < db {
			return a
		}
		a ^= b << (da - db)
	}
}

// polyMulMod returns a·b mod p over GF(2), p of degree deg.
func polyMulMod(a, b, p, deg uint32) uint32 {
	var r uint32
	for b != 0 {
		if b&1 != 0 {
			r ^= a
		}
		b >>= 1
		a <<= 1
		if a&(1<<deg) != 0 {
			a ^= p
		}
	}
	return r
}

// polyPowX returns x^e mod p.
func polyPowX(e uint64, p, deg uint32) uint32 {
	result, base := uint32(1), polyMod(0b10, p)
	for ; e > 0; e >>= 1 {
		if e&1 != 0 {
			result = polyMulMod(result, base, p, deg)
		}
		base = polyMulMod(base, base, p, deg)
	}
	return result
}

func primeFactors(n uint64) []uint64 {
	var out []uint64
	for f := uint64(2); f*f <= n; f++ {
		if n%f == 0 {
			out = append(out, f)
			for n%f == 0 {
				n /= f
			}
		}
	}
	if n > 1 {
		out = append(out, n)
	}
	return out
}

// directions expands initial values m_1..m_s by the polynomial's
// recurrence into 32 direction numbers.
func directions(poly [2]uint32, init []uint32) [sobolBits]uint32 {
	s, p := int(poly[0]), poly[1]
	m := make([]uint32, sobolBits)
	copy(m, init)
	for k := s; k < sobolBits; k++ {
		v := m[k-s] ^ m[k-s]<<s
		for i := 1; i < s; i++ {
			if p>>(s-i)&1 != 0 {
				v ^= m[k-i] << i
			}
		}
		m[k] = v
	}
	var out [sobolBits]uint32
	for k := range out {
		out[k] = m[k] << (sobolBits - 1 - k)
	}
	return out
}

// bestDirections chooses the initial values of a new dimension (see the
// comment at the top of the file).
func bestDirections(poly [2]uint32, prev [][sobolBits]uint32) [sobolBits]uint32 {
	j := uint64(len(prev))
	rng := rand.New(rand.NewPCG(0x736f626f6c, j)) // "sobol"
	s := int(poly[0])
	var best [sobolBits]uint32
	bestScore := -1
	for range sobolCandidates {
		init := make([]uint32, s)
		for k := range init {
			init[k] = uint32(rng.IntN(1<<k))<<1 | 1 // odd, below 2^(k+1)
		}
		v := directions(poly, init)
		score := 0
		for i := range prev {
			score += projectionT(&prev[i], &v)
			if bestScore >= 0 && score >= bestScore {
				break
			}
		}
		if bestScore < 0 || score < bestScore {
			best, bestScore = v, score
		}
	}
	return best
}

// projectionT returns the sum over m = 1..sobolQualityBits of the
// t-value of the first 2^m points of the two-dimensional sequence with
// direction numbers a and b.
func projectionT(a, b *[sobolBits]uint32) int {
	sum := 0
	for m := 1; m <= sobolQualityBits; m++ {
		sum += netT(a, b, m)
	}
	return sum
}

// netT returns the t-value of the (t, m, 2)-net formed by the first 2^m
// points: m minus the largest k such that, for every d1 + d2 = k, the
// first d1 rows of one generator matrix and the first d2 of the other
// (restricted to m columns) are linearly independent.
func netT(a, b *[sobolBits]uint32, m int) int {
	ra, rb := rows(a, m), rows(b, m)
	// reach[d1] = the most rows of b that stay independent after the
	// first d1 rows of a.
	k := m
	for d1 := 0; d1 <= m && d1 <= k; d1++ {
		var basis [sobolBits]uint32 // by leading bit
		independent := true
		for i := 0; i < d1; i++ {
			if !insert(&basis, ra[i]) {
				independent = false
				break
			}
		}
		if !independent {
			k = min(k, d1-1)
			break
		}
		d2 := 0
		for d2 < m && d1+d2 < k && insert(&basis, rb[d2]) {
			d2++
		}
		if d1+d2 < k {
			k = d1 + d2
		}
	}
	return m - k
}

// rows returns the first m rows of a generator matrix restricted to its
// first m columns: row r holds bit r (from the top) of v_c in bit c.
func rows(v *[sobolBits]uint32, m int) []uint32 {
	out := make([]uint32, m)
	for r := range out {
		for c := 0; c < m; c++ {
			out[r] |= (v[c] >> (sobolBits - 1 - r) & 1) << c
		}
	}
	return out
}

// insert adds x to a GF(2) basis kept by leading bit and reports whether
// it was independent of it.
func insert(basis *[sobolBits]uint32, x uint32) bool {
	for x != 0 {
		h := bits.Len32(x) - 1
		if basis[h] == 0 {
			basis[h] = x
			return true
		}
		x ^= basis[h]
	}
	return false
}

// sobolSeq generates digitally shifted Sobol points.
type sobolSeq struct {
	dirs  [][sobolBits]uint32
	shift []uint32
}

// newSobol returns a sequence of dim dimensions whose digital shift is
// drawn from seed.
func newSobol(dim int, seed uint64) (*sobolSeq, error) {
	if dim < 1 || dim > MaxSobolDim {
		return nil, fmt.Errorf("search: the Sobol sampler handles 1 to %d parameters, not %d", MaxSobolDim, dim)
	}
	rng := rand.New(rand.NewPCG(seed, 0x7368696674)) // "shift"
	s := &sobolSeq{dirs: sobolDirections(dim), shift: make([]uint32, dim)}
	for j := range s.shift {
		s.shift[j] = rng.Uint32()
	}
	return s, nil
}

// point writes point i (i < 2^32) into u, each coordinate in [0, 1).
func (s *sobolSeq) point(i uint64, u []float64) {
	for j := range s.dirs {
		x := s.shift[j]
		for k, n := 0, i; n != 0; k, n = k+1, n>>1 {
			if n&1 != 0 {
				x ^= s.dirs[j][k]
			}
		}
		u[j] = float64(x) / (1 << sobolBits)
	}
}
