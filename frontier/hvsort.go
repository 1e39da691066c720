package frontier

import "math/bits"

// hvBitTree is a 64-ary tree of bitsets over [0, n): level 0 has one bit per
// element, and bit i of level l+1 is set iff word i of level l is non-zero.
// It answers predecessor and successor queries in O(log64 n) without
// per-node allocation.
type hvBitTree struct {
	levels [][]uint64
}

// reset empties the tree and sizes it for elements [0, n).
func (t *hvBitTree) reset(n int) {
	depth := 0
	for m := n; ; m = (m + 63) / 64 {
		words := max((m+63)/64, 1)
		if depth < len(t.levels) && cap(t.levels[depth]) >= words {
			t.levels[depth] = t.levels[depth][:words]
			clear(t.levels[depth])
		} else if depth < len(t.levels) {
			t.levels[depth] = make([]uint64, words)
		} else {
			t.levels = append(t.levels, make([]uint64, words))
		}
		depth++
		if words == 1 {
			break
		}
	}
	t.levels = t.levels[:depth]
}

func (t *hvBitTree) insert(i int) {
	for _, lv := range t.levels {
		w := i >> 6
		old := lv[w]
		lv[w] = old | 1<<(uint(i)&63)
		if old != 0 {
			return
		}
		i = w
	}
}

func (t *hvBitTree) remove(i int) {
	for _, lv := range t.levels {
		w := i >> 6
		lv[w] &^= 1 << (uint(i) & 63)
		if lv[w] != 0 {
			return
		}
		i = w
	}
}

// pred returns the largest member < i, or -1.
func (t *hvBitTree) pred(i int) int {
	l := 0
	for ; l < len(t.levels); l++ {
		w := i >> 6
		if m := t.levels[l][w] & (1<<(uint(i)&63) - 1); m != 0 {
			i = w<<6 | (63 - bits.LeadingZeros64(m))
			break
		}
		i = w
	}
	if l == len(t.levels) {
		return -1
	}
	for l--; l >= 0; l-- {
		i = i<<6 | (63 - bits.LeadingZeros64(t.levels[l][i]))
	}
	return i
}

// succ returns the smallest member > i, or -1.
func (t *hvBitTree) succ(i int) int {
	l := 0
	for ; l < len(t.levels); l++ {
		w := i >> 6
		sh := uint(i)&63 + 1
		var m uint64
		if sh < 64 {
			m = t.levels[l][w] >> sh << sh
		}
		if m != 0 {
			i = w<<6 | bits.TrailingZeros64(m)
			break
		}
		i = w
	}
	if l == len(t.levels) {
		return -1
	}
	for l--; l >= 0; l-- {
		i = i<<6 | bits.TrailingZeros64(t.levels[l][i])
	}
	return i
}

// first returns the smallest member, or -1.
func (t *hvBitTree) first() int {
	if t.levels[0][0]&1 != 0 {
		return 0
	}
	return t.succ(0)
}
