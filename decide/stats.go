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
// half-width at the level conf gives for the grown samples falls below gap,
// with the variances measured so far and the t quantile of the grown
// samples. Runs are added one at a time to the side whose next run shrinks
// the standard error more (the baseline when it is the larger part of the
// uncertainty), never beyond capA runs of side a and capB of side b; when
// even the caps do not settle it, the runs up to the caps.
func (iv Interval) moreRuns(conf func(na, nb int) float64, gap float64, capA, capB int) (a, b int) {
	if gap <= 0 || math.IsNaN(gap) || iv.HalfWidth(conf(iv.NA, iv.NB)) < gap {
		return 0, 0
	}
	if iv.NA < 2 || iv.NB < 2 || iv.VarA+iv.VarB == 0 {
		return max(2-iv.NA, 1), max(2-iv.NB, 0)
	}
	fits := func(na, nb int) bool {
		ea, eb := iv.VarA/float64(na), iv.VarB/float64(nb)
		return tQuantile((1+conf(na, nb))/2, welchDF(ea, eb, na, nb))*math.Sqrt(ea+eb) < gap
	}
	na, nb := iv.NA, iv.NB
	for !fits(na, nb) {
		canA, canB := na < capA, nb < capB
		if !canA && !canB {
			break
		}
		gainA := iv.VarA / float64(na) / float64(na+1)
		gainB := iv.VarB / float64(nb) / float64(nb+1)
		if canA && (!canB || gainA >= gainB) {
			na++
		} else {
			nb++
		}
	}
	return na - iv.NA, nb - iv.NB
}

// fixed is a level that does not depend on the runs.
func fixed(conf float64) func(int, int) float64 { return func(int, int) float64 { return conf } }
