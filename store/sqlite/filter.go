package sqlite

import "hash/maphash"

// filterBits is the size of an idFilter: 8 MiB, about 0.2 % false
// positives at 3·10⁶ IDs, 4 % at 10⁷.
const filterBits = 1 << 26

// idFilter is a Bloom filter of trial IDs (three probes): has is true
// for every ID added, and for few others.
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
	for range 3 {
		i := h % filterBits
		f.bits[i/64] |= 1 << (i % 64)
		h += step
	}
}

func (f *idFilter) has(id string) bool {
	h, step := f.probes(id)
	for range 3 {
		i := h % filterBits
		if f.bits[i/64]&(1<<(i%64)) == 0 {
			return false
		}
		h += step
	}
	return true
}
