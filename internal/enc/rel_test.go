package enc

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestAppendRelMatchesStrconv holds AppendRel to strconv's 'g', 6 byte for
// byte: values spread over every magnitude (and past the fast path's
// range), exact decimals of seven digits ending in 5 (the rounding ties),
// their neighbours, powers of ten and their neighbours, integers, relative
// differences of uniform values, and the special values.
func TestAppendRelMatchesStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 6))
	check := func(v float64) {
		t.Helper()
		if got, want := string(AppendRel(nil, v)), strconv.FormatFloat(v, 'g', 6, 64); got != want {
			t.Fatalf("AppendRel(%v) = %q, want %q", v, got, want)
		}
	}
	for _, v := range []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 0.5, 1e-17, 1e28,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 999999.5, 9999995, 0.0001, 0.00001, 123456, 1234567, 100000, 1e6, 1e21, 1e22} {
		check(v)
		check(math.Nextafter(v, 0))
		check(math.Nextafter(v, math.Inf(1)))
	}
	for e := -30; e <= 40; e++ {
		p := math.Pow(10, float64(e))
		for _, v := range []float64{p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)), 9.999995 * p, 9.99999 * p, 1.000005 * p} {
			check(v)
			check(-v)
		}
	}
	for range 500_000 {
		// seven-digit decimals ending in 5, at every magnitude: the ties
		// and their neighbours
		v := float64(1_000_000+rng.IntN(9_000_000)/10*10+5) * math.Pow(10, float64(rng.IntN(60)-35))
		check(v)
		check(math.Nextafter(v, 0))
		check(math.Nextafter(v, math.Inf(1)))
		check(math.Exp(rng.Float64()*140 - 70)) // every magnitude
		check(-math.Exp(rng.Float64()*20 - 10))
		a, b := rng.Float64(), rng.Float64()
		check((a - b) / b)
		check(float64(rng.IntN(10_000_000)))
		check(math.Float64frombits(rng.Uint64()))
	}
}

func BenchmarkAppendRel(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	vs := make([]float64, 1<<12)
	for i := range vs {
		vs[i] = -rng.Float64()
	}
	for _, impl := range []string{"AppendRel", "strconv"} {
		b.Run("impl="+impl, func(b *testing.B) {
			var buf []byte
			i := 0
			for b.Loop() {
				if impl == "strconv" {
					buf = strconv.AppendFloat(buf[:0], vs[i&(len(vs)-1)], 'g', 6, 64)
				} else {
					buf = AppendRel(buf[:0], vs[i&(len(vs)-1)])
				}
				i++
			}
		})
	}
}
