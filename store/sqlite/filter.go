package sqlite

import "hash/maphash"

// filterBits is the size of an idFilter: 8 MiB, with filterProbes about
// 3·10⁻⁸ false positives at 10⁶ IDs, 0.007 % at 3·10⁶ and 6 % at 10⁷. An
// ID the filter may hold is looked up in trials_key, which an ingest into
// a store without trials then builds at once (restoreKey): eight probes
// rather than three keep a 10⁶-row table from meeting one (three give
// 0.008 %, about 80 of the million).
const filterBits = 1 << 26

// filterProbes is the number of bits an ID sets.
const filterProbes = 8

// idFilter is a Bloom filter of trial IDs: has is true for every ID
// added, and for few others.
type idFilter struct {
	bits []uint64
	seed maphash.Seed
}

func newIDFilter() *idFilter {
	return &idFilter{bits: make([]uint64, filterBits/64), seed: maphash.MakeSeed()}
}

// probes returns the first probe and the step between probes of id.
func (f *idFilter) probes(id string) (h, step uint64) {
	h = maphash.String(f.seed, id)
	return h, h>>33 | 1
}

func (f *idFilter) add(id string) {
	h, step := f.probes(id)
	for range filterProbes {
		i := h % filterBits
		f.bits[i/64] |= 1 << (i % 64)
		h += step
	}
}

func (f *idFilter) has(id string) bool {
	h, step := f.probes(id)
	for range filterProbes {
		i := h % filterBits
		if f.bits[i/64]&(1<<(i%64)) == 0 {
			return false
		}
		h += step
	}
	return true
}
