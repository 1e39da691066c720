package frontier

// columnsFront answers the strict frontier of rows (no band) from the
// columns themselves: StrictFront's pivot filter reads p.Values in place,
// and only the rows it leaves undecided (sub, as indices into rows) are
// gathered into a row-major matrix, data, in natural orientation. A
// million rows of three objectives are not copied (24 bytes a row): on
// uniform data a few thousand rows survive the filter. by[i] is the index
// into rows of a frontier row that dominates rows[i], or -1.
//
// The pivots, the filter and the resolution of the survivors are those of
// StrictFront on the gathered rows, so the result is the same, dominators
// included. It needs len(rows) >= pivotFilterMin.
//
// When the filter leaves every row of five objectives and a hypervolume is
// asked for, the volume is computed first (hvMutual): if it finds the
// rows mutually non-dominated, they are the frontier without the k-d tree
// (a set of 10³ non-dominated 5D points costs the tree about a tenth of
// the volume), and hv carries the volume; else hv.ok is false.
func (p *Problem) columnsFront(rows []int32) (by, sub []int32, data []float64, hv hvResult) {
	k := len(p.Objectives)
	// sign maps a value to min space (maximised objectives negated, which
	// is exact).
	sign := make([]float64, k)
	for c, o := range p.Objectives {
		sign[c] = 1
		if o.Direction == Maximize {
			sign[c] = -1
		}
	}
	by = make([]int32, len(rows))
	for i := range by {
		by[i] = -1
	}
	piv := p.columnPivots(rows, sign)
	pv := make([]float64, len(piv)*k) // the pivots' values, in min space
	for j, i := range piv {
		for c := range k {
			pv[j*k+c] = sign[c] * p.Values[c][rows[i]]
		}
	}
	x := make([]float64, k)
	sub = make([]int32, 0, 1024)
	last := 0
	for i, r := range rows {
		for c := range k {
			x[c] = sign[c] * p.Values[c][r]
		}
		if dominatesPoint(pv[last*k:last*k+k], x) {
			by[i] = piv[last]
			continue
		}
		found := false
		for j := range piv {
			if j != last && dominatesPoint(pv[j*k:j*k+k], x) {
				by[i], last, found = piv[j], j, true
				break
			}
		}
		if !found {
			sub = append(sub, int32(i))
		}
	}
	data = make([]float64, len(sub)*k)
	for c, col := range p.Values {
		for j, i := range sub {
			data[j*k+c] = col[rows[i]]
		}
	}
	m := minSpace(data, p.Objectives)
	if k == 5 && len(sub) == len(rows) {
		if ref := p.hvReference(m); ref != nil {
			if hv.volume, hv.ok = hvMutual(m, ref); hv.ok {
				hv.ref = ref
				return by, sub, data, hv
			}
		}
	}
	dom := make([]int32, len(sub))
	for j := range dom {
		dom[j] = -1
	}
	resolveStrict(m, k, allRows(len(sub)), dom)
	liftDominators(dom)
	for j, d := range dom {
		if d >= 0 {
			by[sub[j]] = sub[d]
		}
	}
	return by, sub, data, hv
}

// dominatesPoint reports whether a strictly dominates b (minimised).
func dominatesPoint(a, b []float64) bool { return cornerHits(a, b, b) }

// columnPivots is findPivots over the columns of rows (values times sign):
// the same minimisers, as indices into rows.
func (p *Problem) columnPivots(rows []int32, sign []float64) []int32 {
	k := len(p.Objectives)
	lo := make([]float64, k)
	hi := make([]float64, k)
	for c, col := range p.Values {
		s := sign[c]
		l := s * col[rows[0]]
		h := l
		for _, r := range rows[1:] {
			v := s * col[r]
			l, h = min(l, v), max(h, v)
		}
		lo[c], hi[c] = l, h
	}
	pv := newPivots(lo, hi)
	x := make([]float64, k)
	for i, r := range rows {
		for c := range k {
			x[c] = sign[c] * p.Values[c][r]
		}
		pv.add(int32(i), x)
	}
	return pv.arg
}
