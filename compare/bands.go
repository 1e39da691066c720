package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// MinNoiseDF is the fewest degrees of freedom (the sum over
// configurations of their repeats less one) a band measured from the
// repeats needs: with fewer, the band is unmeasured and the verdict
// cannot tell.
const MinNoiseDF = 2

// Where an objective's bands come from (Objective.Band).
const (
	// BandGiven: Options gave a noise band or a minimum improvement.
	BandGiven = "given"
	// BandMeasured: none was given; both are the noise the repeats of
	// every side show (as pareto noise suggests it).
	BandMeasured = "measured"
	// BandUnmeasured: none was given and the repeats are too few to
	// measure one; every pair is inconclusive.
	BandUnmeasured = "unmeasured"
)

// NoiseMeasure is the run-to-run noise of an objective measured from the
// repeats of every side (decide.EstimateNoise).
type NoiseMeasure struct {
	// CV is the pooled coefficient of variation and CVHigh its upper
	// bound at the report's confidence; the band is twice CVHigh, rounded
	// up to 0.5%.
	CV     Num `json:"cv"`
	CVHigh Num `json:"cv_high"`
	// Suggested is the band the noise suggests: twice CVHigh, rounded up
	// to 0.5% (the band of a measured objective).
	Suggested Num `json:"suggested"`
	// DF are the pooled degrees of freedom, Configs the configurations
	// with at least two repeats.
	DF      int `json:"df"`
	Configs int `json:"configs"`
}

// measureBands returns the objectives with the bands they are judged
// with and the noise every side's repeats show: an objective with neither band given gets both from the noise the
// repeats of every side show (the band pareto noise suggests: twice the
// upper bound of the pooled coefficient of variation), and is unmeasured
// (ok false) when the repeats have fewer than MinNoiseDF degrees of
// freedom. A zero band is never assumed: it is measured (repeats that
// never differ) or given.
func measureBands(sides []*Side, objs []frontier.Objective, conf float64) ([]frontier.Objective, []Objective, bool) {
	out := make([]frontier.Objective, len(objs))
	info := make([]Objective, len(objs))
	est := pooledNoise(sides, objs, conf)
	ok := true
	for i, o := range objs {
		m := est.Metrics[i]
		info[i] = Objective{Name: o.Name, Direction: o.Direction.String(), Band: BandGiven}
		if m.DF > 0 {
			info[i].Measured = &NoiseMeasure{CV: Num(m.CV), CVHigh: Num(m.High), Suggested: Num(m.Band), DF: m.DF, Configs: m.Configs}
		}
		if o.Noise == 0 && o.MinImprove == 0 {
			info[i].Band = BandUnmeasured
			if info[i].Measured == nil {
				info[i].Measured = &NoiseMeasure{CV: Num(math.NaN()), CVHigh: Num(math.NaN()), Suggested: Num(math.NaN())}
			}
			if m.DF >= MinNoiseDF && !math.IsNaN(m.Band) {
				info[i].Band = BandMeasured
				o.Noise, o.MinImprove = m.Band, m.Band
			} else {
				ok = false
			}
		}
		out[i] = o
		info[i].Noise, info[i].MinImprove = Num(o.Noise), Num(o.MinImprove)
	}
	return out, info, ok
}

// belowNoise returns a warning for every objective whose given noise
// band is narrower than the run-to-run noise its repeats show (the
// coefficient of variation of one run, from at least MinNoiseDF degrees
// of freedom), and then the objectives with such bands widened to the
// band the noise suggests (nil when none is below): there, point
// estimates within the band do not show that the sides are the same, nor
// differences beyond it that they differ.
func belowNoise(info []Objective, objs []frontier.Objective) ([]string, []frontier.Objective) {
	var warn []string
	var wide []frontier.Objective
	for i, o := range info {
		m := o.Measured
		if o.Band != BandGiven || m == nil || m.DF < MinNoiseDF || !(float64(o.Noise) < float64(m.CV)) {
			continue
		}
		warn = append(warn, fmt.Sprintf("the noise band of %s (%s) is below the run-to-run noise its repeats show (CV %s): a lead counts only beyond the band the noise suggests (%s), and a difference within the band only when the resamples rule it out",
			o.Name, fmtPct1(float64(o.Noise)), fmtPct1(float64(m.CV)), fmtPct1(float64(m.Suggested))))
		if wide == nil {
			wide = slices.Clone(objs)
		}
		wide[i].Noise = max(wide[i].Noise, float64(m.Suggested))
		wide[i].MinImprove = max(wide[i].MinImprove, float64(m.Suggested))
	}
	return warn, wide
}

// fmtPct1 renders a fraction as a percentage with one decimal ("3.0%").
func fmtPct1(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

// pooledNoise estimates every objective's noise from the repeats of every
// point of every side (a side given twice counts once).
func pooledNoise(sides []*Side, objs []frontier.Objective, conf float64) decide.NoiseReport {
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = o.Name
	}
	var pts []repeat.Point
	seen := map[*Side]bool{}
	for _, s := range sides {
		if seen[s] {
			continue
		}
		seen[s] = true
		for j := range s.Points {
			p := &s.Points[j]
			if p.runs() < 2 {
				continue
			}
			dp := repeat.Point{Group: &repeat.Group{}}
			for o := range objs {
				dp.Stats = append(dp.Stats, repeat.Stat{N: len(p.Runs[o]), Samples: p.Runs[o]})
			}
			pts = append(pts, dp)
		}
	}
	return decide.EstimateNoise(pts, names, conf, 0)
}

// checkPositive returns an error naming the first point whose value (or
// run) on an objective with a band is not positive: relative bands need
// positive values (frontier.NoiseFront).
func checkPositive(sides []*Side, objs []frontier.Objective) error {
	for _, s := range sides {
		for j := range s.Points {
			p := &s.Points[j]
			for o, ob := range objs {
				if ob.Noise == 0 && ob.MinImprove == 0 {
					continue
				}
				vals := []float64{p.Values[o]}
				if p.Runs != nil {
					vals = append(vals, p.Runs[o]...)
				}
				for _, v := range vals {
					if !(v > 0) || math.IsInf(v, 0) {
						return fmt.Errorf("side %s point %s: %s is %v: a relative noise band needs positive values", s.Name, p.ID, ob.Name, v)
					}
				}
			}
		}
	}
	return nil
}
