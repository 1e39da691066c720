package simulate

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Noise holds the run-to-run coefficient of variation of each metric
// group: every statistic of a group (mean, median, standard deviation,
// percentiles) is scaled by one log-normal factor per run whose median is
// 1 and whose coefficient of variation is the group's.
type Noise struct {
	// Throughput scales the request, output and total token throughputs
	// (and so the run's duration).
	Throughput float64
	TTFT       float64
	TPOT       float64
	ITL        float64
	E2EL       float64
}

// DefaultNoise is a quiet, dedicated machine: 1.5 % on throughput, 4 % on
// TTFT, 2 % on TPOT, ITL and end-to-end latency.
var DefaultNoise = Noise{Throughput: 0.015, TTFT: 0.04, TPOT: 0.02, ITL: 0.02, E2EL: 0.02}

// NoiseGroups names the groups of Noise, as --cv takes them.
var NoiseGroups = []string{"throughput", "ttft", "tpot", "itl", "e2el"}

// Set sets the coefficient of variation of one group, or of every group
// when name is "".
func (n *Noise) Set(name string, cv float64) error {
	if !(cv >= 0) || math.IsInf(cv, 0) {
		return fmt.Errorf("coefficient of variation %g must be a non-negative number", cv)
	}
	fields := []*float64{&n.Throughput, &n.TTFT, &n.TPOT, &n.ITL, &n.E2EL}
	for i, g := range NoiseGroups {
		if name == "" || name == g {
			*fields[i] = cv
			if name != "" {
				return nil
			}
		}
	}
	if name != "" {
		return fmt.Errorf("unknown metric group %q (have throughput, ttft, tpot, itl, e2el)", name)
	}
	return nil
}

// Stats are the statistics a benchmark client reports for one latency
// metric, in milliseconds.
type Stats struct {
	Mean, Median, Std, P99 float64
}

func statsOf(d Dist, factor float64) Stats {
	const ms = 1e3
	return Stats{Mean: ms * factor * d.Mean, Median: ms * factor * d.Median(), Std: ms * factor * d.Std(), P99: ms * factor * d.P99()}
}

// Result is one simulated run: what a benchmark client would report.
type Result struct {
	Config Config
	// Seed is the run's seed: the same configuration and seed give the
	// same result.
	Seed uint64
	// Completed requests (every prompt: the model has no failures), and
	// their token totals.
	Completed, TotalInputTokens, TotalOutputTokens int
	// Duration in seconds; throughputs in requests/s and tokens/s.
	Duration, RequestThroughput, OutputThroughput, TotalThroughput float64
	// MaxConcurrentRequests is the client's concurrency.
	MaxConcurrentRequests int
	TTFT, TPOT, ITL, E2EL Stats
	// Steady is the noise-free model behind the numbers.
	Steady Steady
}

// Run simulates one benchmark run of c on hw: the steady state (Solve)
// scaled by seeded run-to-run noise.
func Run(c Config, hw Hardware, noise Noise, seed uint64) (Result, error) {
	s, err := Solve(c, hw)
	if err != nil {
		return Result{}, err
	}
	// The factors are drawn in a fixed order from a generator seeded by
	// the seed alone, so that a run's noise does not depend on its
	// configuration (common random numbers across configurations).
	rng := rand.New(rand.NewPCG(seed, 0x70617265746f)) // "pareto"
	draw := func(cv float64) float64 {
		z := rng.NormFloat64()
		return math.Exp(math.Sqrt(math.Log1p(cv*cv)) * z)
	}
	thr, ttft, tpot, itl, e2el := draw(noise.Throughput), draw(noise.TTFT), draw(noise.TPOT), draw(noise.ITL), draw(noise.E2EL)
	r := Result{
		Config:                c,
		Seed:                  seed,
		Completed:             c.NumPrompts,
		TotalInputTokens:      c.NumPrompts * c.InputLen,
		TotalOutputTokens:     c.NumPrompts * c.OutputLen,
		RequestThroughput:     thr * s.RequestThroughput,
		OutputThroughput:      thr * s.OutputThroughput,
		TotalThroughput:       thr * s.TotalThroughput,
		MaxConcurrentRequests: int(s.Concurrency),
		TTFT:                  statsOf(s.TTFT, ttft),
		TPOT:                  statsOf(s.TPOT, tpot),
		ITL:                   statsOf(s.ITL, itl),
		E2EL:                  statsOf(s.E2EL, e2el),
		Steady:                s,
	}
	r.Duration = float64(c.NumPrompts) / r.RequestThroughput
	return r, nil
}
