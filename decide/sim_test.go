package decide

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
)

// simConfig describes the seeded tuning-loop simulation of the issue.
type simConfig struct {
	candidates, baselineRuns, startRuns, maxRuns int
	cv                                           []float64 // per objective
	objs                                         []frontier.Objective
}

// simResult holds the three figures the simulation reports.
type simResult struct {
	falseAdmit, trueAdmit, meanRuns float64
	askedBaseline                   int
}

// measure draws n log-normal runs of a configuration whose true values are
// truth, with coefficients of variation cv.
func measure(rng *rand.Rand, truth, cv []float64, n int) [][]float64 {
	out := make([][]float64, len(truth))
	for i := range truth {
		s := math.Sqrt(math.Log1p(cv[i] * cv[i]))
		for range n {
			out[i] = append(out[i], truth[i]*math.Exp(s*rng.NormFloat64()-s*s/2))
		}
	}
	return out
}

func side(name string, samples [][]float64) Side {
	m := Measured{Workload: repeat.Workload{Concurrency: 8}}
	for _, s := range samples {
		m.Stats = append(m.Stats, repeat.Summarize(s, repeat.Median))
	}
	return Side{Name: name, Workloads: []Measured{m}}
}

// truth draws a candidate's true values: even candidates within ±1% of the
// baseline everywhere, odd ones better by 2 to 3 times the minimum
// improvement on one objective and unchanged on the others.
func truth(rng *rand.Rand, k int, base []float64, objs []frontier.Objective) ([]float64, bool) {
	t := make([]float64, len(base))
	if k%2 == 0 {
		for i := range base {
			t[i] = base[i] * (0.99 + 0.02*rng.Float64())
		}
		return t, false
	}
	copy(t, base)
	j := rng.IntN(len(base))
	gain := objs[j].MinImprove * (2 + rng.Float64())
	if objs[j].Direction == frontier.Maximize {
		t[j] *= 1 + gain
	} else {
		t[j] *= 1 - gain
	}
	return t, true
}

func simulate(cfg GateConfig, sc simConfig, seed uint64) simResult {
	rng := rand.New(rand.NewPCG(seed, 2))
	baseTruth := []float64{1000, 200}
	base := side("baseline", measure(rng, baseTruth, sc.cv, sc.baselineRuns))
	var res simResult
	admitted, runs := [2]int{}, 0
	for k := range sc.candidates {
		t, better := truth(rng, k, baseTruth, sc.objs)
		samples := measure(rng, t, sc.cv, sc.startRuns)
		n := sc.startRuns
		for {
			v := Gate(cfg, side("candidate", samples), base, nil)
			if v.Decision == Admit {
				admitted[b2i(better)]++
			}
			if v.Decision != Inconclusive || n >= sc.maxRuns {
				break
			}
			add := min(v.MoreRuns.Candidate, sc.maxRuns-n)
			if add == 0 {
				res.askedBaseline++
				break
			}
			more := measure(rng, t, sc.cv, add)
			for i := range samples {
				samples[i] = append(samples[i], more[i]...)
			}
			n += add
		}
		runs += n
	}
	half := float64(sc.candidates / 2)
	res.falseAdmit, res.trueAdmit = float64(admitted[0])/half, float64(admitted[1])/half
	res.meanRuns = float64(runs) / float64(sc.candidates)
	return res
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSimulation runs the seeded tuning loop of the issue: a baseline with
// 10 repeats, 1,000 candidates with log-normal noise (CV 1.5% throughput,
// 4% p99 TTFT), minimum improvements 3% and 5%, 3 runs to start and up to
// 20 per candidate.
func TestSimulation(t *testing.T) {
	objs := []frontier.Objective{
		{Name: "output_token_throughput", Direction: frontier.Maximize, MinImprove: 0.03, Noise: 0.03},
		{Name: "ttft.p99", Direction: frontier.Minimize, MinImprove: 0.05, Noise: 0.05},
	}
	sc := simConfig{candidates: 1000, baselineRuns: 10, startRuns: 3, maxRuns: 20, cv: []float64{0.015, 0.04}, objs: objs}
	// The caps are the loop's: 20 candidate runs, the 10 baseline runs it
	// never adds to.
	cfg := GateConfig{Objectives: objs, MinRepeats: 3, MaxRuns: sc.maxRuns, MaxBaselineRuns: sc.baselineRuns}
	res := simulate(cfg, sc, 1)
	msg := fmt.Sprintf("simulation: false-admit rate %.1f%%, true-admit rate %.1f%%, mean runs per candidate %.2f",
		100*res.falseAdmit, 100*res.trueAdmit, res.meanRuns)
	t.Log(msg)
	fmt.Println(msg)
	if res.askedBaseline > 0 {
		t.Logf("%d candidates asked for baseline runs only", res.askedBaseline)
	}
	if res.falseAdmit > 0.01 {
		t.Errorf("false-admit rate %.3f; want <= 0.01", res.falseAdmit)
	}
	// The power is that of a test whose false admits stay below 1% over
	// every look and both objectives (95% true admits in 9.3 runs was that
	// of 95% intervals at every look, uncorrected).
	if res.trueAdmit < 0.8 {
		t.Errorf("true-admit rate %.3f; want >= 0.8", res.trueAdmit)
	}
	if res.meanRuns > 12 {
		t.Errorf("mean runs per candidate %.2f; want <= 12", res.meanRuns)
	}
}
