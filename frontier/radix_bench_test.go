package frontier

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSortByKey measures the radix sort behind the sweeps.
func BenchmarkSortByKey(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		rng := rand.New(rand.NewPCG(1, 2))
		keys0 := make([]uint64, n)
		for i := range keys0 {
			keys0[i] = floatKey(rng.Float64())
		}
		keys, idx := make([]uint64, n), make([]int32, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(keys, keys0)
				for i := range idx {
					idx[i] = int32(i)
				}
				sortByKey(keys, idx)
			}
		})
	}
}
