package decide

import (
	"math"

	"github.com/pareto-llm/pareto/repeat"
	"gonum.org/v1/gonum/stat/distuv"
)

// NoiseEstimate is the run-to-run variation of one metric, pooled over
// configurations.
type NoiseEstimate struct {
	Name string
	// CV is the pooled coefficient of variation, sqrt(exp(s²)-1) with s²
	// the pooled variance of the log values; Low and High bound it at the
	// requested confidence (chi-square interval on s²).
	CV, Low, High float64
	// DF is the pooled degrees of freedom Σ(n-1); Configs counts the
	// groups with at least two repeats that contributed.
	DF, Configs int
	// Band is the suggested noise band: twice the upper bound of the CV,
	// rounded up to 0.5%, which holds about 95% of single runs around their
	// configuration's typical value.
	Band float64
}

// FewRepeats is a group with fewer repeats than wanted.
type FewRepeats struct {
	Key, Config string
	Workload    repeat.Workload
	N           int
}

// NoiseReport is EstimateNoise's answer.
type NoiseReport struct {
	// Configurations is the number of points (configuration × workload ×
	// environment) measured.
	Configurations int
	Metrics        []NoiseEstimate
	// Few lists the groups with fewer than the wanted repeats.
	Few []FewRepeats
}

// EstimateNoise pools the log-scale variance of the repeats of every point
// for each column (names[i] names points' Stats[i]) and bounds the
// coefficient of variation at level conf. Points with fewer than minRepeats
// repeats are listed in Few.
func EstimateNoise(points []repeat.Point, names []string, conf float64, minRepeats int) NoiseReport {
	rep := NoiseReport{Configurations: len(points)}
	for _, p := range points {
		if n := len(p.Group.Trials); n < minRepeats {
			rep.Few = append(rep.Few, FewRepeats{p.Group.Key, p.Group.Config, p.Group.Workload, n})
		}
	}
	for c, name := range names {
		rep.Metrics = append(rep.Metrics, pooled(points, c, name, conf))
	}
	return rep
}

func pooled(points []repeat.Point, c int, name string, conf float64) NoiseEstimate {
	return poolNoise(name, conf, len(points), func(k int) []float64 { return points[k].Stats[c].Samples })
}

// poolNoise is the estimate of one metric from n groups of repeats,
// samples(k) being the values of group k: the pooled log-scale variance
// of the groups with at least two positive values.
func poolNoise(name string, conf float64, n int, samples func(k int) []float64) NoiseEstimate {
	e := NoiseEstimate{Name: name, CV: math.NaN(), Low: math.NaN(), High: math.NaN(), Band: math.NaN()}
	ss := 0.0
	for k := range n {
		s := samples(k)
		if len(s) < 2 || !allPositive(s) {
			continue
		}
		_, v := logMoments(s)
		ss += v * float64(len(s)-1)
		e.DF += len(s) - 1
		e.Configs++
	}
	if e.DF == 0 {
		return e
	}
	s2 := ss / float64(e.DF)
	chi := distuv.ChiSquared{K: float64(e.DF)}
	df := float64(e.DF)
	e.CV = cvOf(s2)
	e.Low = cvOf(df * s2 / chi.Quantile((1+conf)/2))
	e.High = cvOf(df * s2 / chi.Quantile((1-conf)/2))
	e.Band = math.Ceil(2*e.High*200) / 200
	return e
}

func cvOf(logVar float64) float64 { return math.Sqrt(math.Expm1(logVar)) }

func allPositive(v []float64) bool {
	for _, x := range v {
		if !(x > 0) {
			return false
		}
	}
	return true
}
