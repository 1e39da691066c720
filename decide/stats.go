package decide

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is the estimate of the difference of the means of the log values
// of two samples a and b (ln of the ratio of their geometric means), with
// its standard error and Welch–Satterthwaite degrees of freedom.
type Interval struct {
	Est, SE, DF float64
	// VarA and VarB are the variances of the log values used for each
	// side, NA and NB the sample sizes; they say how the interval would
	// shrink with more runs of either side.
	VarA, VarB float64
	NA, NB     int
}

// LogDiff returns the interval of mean(ln a) - mean(ln b). Values must be
// positive. A side with fewer than two values borrows the other side's
// variance (noise is assumed to be a similar fraction of the value on both
// sides); with fewer than two values on both sides, or an empty side, the
// standard error is +Inf.
func LogDiff(a, b []float64) Interval {
	ma, va := logMoments(a)
	mb, vb := logMoments(b)
	iv := Interval{Est: ma - mb, NA: len(a), NB: len(b), SE: math.Inf(1), DF: 1}
	if len(a) == 0 || len(b) == 0 {
		iv.Est = math.NaN()
		return iv
	}
	switch {
	case len(a) < 2 && len(b) < 2:
		return iv
	case len(a) < 2:
		va = vb
		iv.DF = float64(len(b) - 1)
	case len(b) < 2:
		vb = va
		iv.DF = float64(len(a) - 1)
	}
	iv.VarA, iv.VarB = va, vb
	ea, eb := va/float64(len(a)), vb/float64(len(b))
	iv.SE = math.Sqrt(ea + eb)
	if len(a) >= 2 && len(b) >= 2 {
		iv.DF = welchDF(ea, eb, len(a), len(b))
	}
	return iv
}

// welchDF is the Welch–Satterthwaite approximation of the degrees of
// freedom of ea+eb (the squared standard errors of each side).
func welchDF(ea, eb float64, na, nb int) float64 {
	den := ea*ea/float64(na-1) + eb*eb/float64(nb-1)
	if den == 0 {
		return float64(na + nb - 2)
	}
	return (ea + eb) * (ea + eb) / den
}

// logMoments returns the mean and sample variance of ln(v).
func logMoments(v []float64) (mean, variance float64) {
	if len(v) == 0 {
		return math.NaN(), 0
	}
	for _, x := range v {
		mean += math.Log(x)
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	for _, x := range v {
		d := math.Log(x) - mean
		variance += d * d
	}
	return mean, variance / float64(len(v)-1)
}

// HalfWidth returns the half-width of the two-sided interval at level
// conf (0.95 for 95%).
func (iv Interval) HalfWidth(conf float64) float64 {
	if math.IsInf(iv.SE, 1) {
		return math.Inf(1)
	}
	if iv.SE == 0 {
		return 0
	}
	return tQuantile((1+conf)/2, iv.DF) * iv.SE
}

// Bounds returns the two-sided interval at level conf.
func (iv Interval) Bounds(conf float64) (lo, hi float64) {
	h := iv.HalfWidth(conf)
	return iv.Est - h, iv.Est + h
}

// tQuantile is the p quantile of Student's t with df degrees of freedom.
func tQuantile(p, df float64) float64 {
	if math.IsInf(df, 1) || df > 1e7 {
		return distuv.UnitNormal.Quantile(p)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: math.Max(df, 1)}.Quantile(p)
}

// moreRuns estimates how many more runs each side needs so that the
// half-width at conf falls below gap, with the variances measured so far
// and the t quantile of the grown samples: more runs of side a alone when
// at most maxAlone of them suffice, else both sides grown in proportion
// (the half-width shrinks as 1/√n).
func (iv Interval) moreRuns(conf, gap float64) (a, b int) {
	if gap <= 0 || math.IsNaN(gap) || iv.HalfWidth(conf) < gap {
		return 0, 0
	}
	if iv.NA < 2 || iv.NB < 2 || iv.VarA+iv.VarB == 0 {
		return max(2-iv.NA, 1), max(2-iv.NB, 0)
	}
	fits := func(na, nb int) bool {
		ea, eb := iv.VarA/float64(na), iv.VarB/float64(nb)
		return tQuantile((1+conf)/2, welchDF(ea, eb, na, nb))*math.Sqrt(ea+eb) < gap
	}
	const maxAlone = 1000
	if fits(iv.NA+maxAlone, iv.NB) {
		n := smallest(func(n int) bool { return fits(iv.NA+n, iv.NB) }, maxAlone)
		return n, 0
	}
	k := smallest(func(k int) bool { return fits(iv.NA*(k+1), iv.NB*(k+1)) }, 1<<20)
	return iv.NA * k, iv.NB * k
}

// smallest returns the least n in [1, hi] with ok(n), given ok monotone and
// ok(hi); hi when none is smaller.
func smallest(ok func(int) bool, hi int) int {
	lo := 1
	for lo < hi {
		mid := (lo + hi) / 2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
