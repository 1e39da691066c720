package frontier

import (
	"math"
	"slices"
)

// floatKey maps a finite float64 to a uint64 whose unsigned order is the
// numeric order of the floats. Negative zero maps to the key of +0 so that
// equal values have equal keys.
func floatKey(v float64) uint64 {
	if v == 0 {
		v = 0
	}
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// smallSort is the size below which insertion sort beats radix passes.
const smallSort = 64

// sortByKey sorts keys ascending, stably, permuting idx alongside (idx[i]
// belongs to keys[i]).
func sortByKey(keys []uint64, idx []int32) {
	sortByKeyBuf(keys, idx, nil, nil)
}

// sortByKeyBuf is sortByKey with scratch buffers (grown when shorter than
// keys). It is an LSD radix sort that skips digits shared by every key:
// 8-bit digits below 2^14 keys (the histogram stays tiny), 16-bit digits
// above (half the passes). The histogram counts in int32, as idx indexes
// in int32: the 16-bit one is 256 KB.
func sortByKeyBuf(keys []uint64, idx []int32, tk []uint64, ti []int32) {
	n := len(keys)
	if n < smallSort {
		insertionSortKeys(keys, idx)
		return
	}
	if len(tk) < n {
		tk = make([]uint64, n)
	}
	if len(ti) < n {
		ti = make([]int32, n)
	}
	bitsPer := uint(16)
	if n < 1<<14 {
		bitsPer = 8
	}
	mask := uint64(1)<<bitsPer - 1
	var small [1 << 8]int32 // the 8-bit histogram stays on the stack
	count := small[:]
	if bitsPer > 8 {
		count = make([]int32, 1<<bitsPer)
	}
	srcK, srcI := keys, idx
	dstK, dstI := tk[:n], ti[:n]
	for shift := uint(0); shift < 64; shift += bitsPer {
		clear(count)
		for _, k := range srcK {
			count[(k>>shift)&mask]++
		}
		if int(count[(srcK[0]>>shift)&mask]) == n {
			continue
		}
		sum := int32(0)
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for i, k := range srcK {
			d := (k >> shift) & mask
			p := count[d]
			count[d]++
			dstK[p] = k
			dstI[p] = srcI[i]
		}
		srcK, dstK = dstK, srcK
		srcI, dstI = dstI, srcI
	}
	if &srcK[0] != &keys[0] {
		copy(keys, srcK)
		copy(idx, srcI)
	}
}

func insertionSortKeys(keys []uint64, idx []int32) {
	for i := 1; i < len(keys); i++ {
		k, x := keys[i], idx[i]
		j := i
		for j > 0 && keys[j-1] > k {
			keys[j], idx[j] = keys[j-1], idx[j-1]
			j--
		}
		keys[j], idx[j] = k, x
	}
}

// sortRowsLex sorts the row indices idx lexicographically by their
// coordinates in data (k columns): a radix sort on the first coordinate,
// then a comparison sort inside each run of equal first coordinates.
func sortRowsLex(data []float64, k int, idx []int32) {
	keys := make([]uint64, len(idx))
	for i, r := range idx {
		keys[i] = floatKey(data[int(r)*k])
	}
	sortByKey(keys, idx)
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && keys[hi] == keys[lo] {
			hi++
		}
		if hi-lo > 1 {
			sortRunLex(data, k, idx[lo:hi])
		}
		lo = hi
	}
}

func sortRunLex(data []float64, k int, run []int32) {
	less := func(a, b int32) int {
		pa, pb := data[int(a)*k:int(a)*k+k], data[int(b)*k:int(b)*k+k]
		for c := 1; c < k; c++ {
			if pa[c] < pb[c] {
				return -1
			}
			if pa[c] > pb[c] {
				return 1
			}
		}
		return int(a) - int(b)
	}
	slices.SortFunc(run, less)
}
