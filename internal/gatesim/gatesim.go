// Package gatesim is the false-admit simulation of pareto gate (issue 22):
// a driver that measures a baseline and a stream of candidates with
// seeded log-normal noise, asks the gate, and adds the runs each verdict
// asks for until it decides, as a CI job or the tuning loop would.
//
// Each Cell is a grid point: the noise of the two objectives (output token
// throughput, maximised, and p99 TTFT, minimised), the minimum improvement
// δ (the noise band is δ too, as pareto gate's default), the gate's
// confidence and the candidates' true effect (none, or a multiple of δ on
// one objective). Baselines are independent: each draws its own runs
// (BaselineRuns to start, plus those the gate asks for, which later
// candidates of the same baseline reuse), so that a baseline drawn off its
// true value affects the candidates judged against it as in real use, and
// the false-admit rate's interval comes from a bootstrap over baselines.
//
// The gate is asked through a Decider: Library calls decide.Gate on the
// measured sides, CLI runs pareto gate (cli.Main, in process) on result
// files recorded in a fresh SQLite store per decision. Both see the same
// values, so that a grid run both ways gives the same decisions.
package gatesim

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/cli"
	"github.com/pareto-llm/pareto/repeat"
)

// Objective names of the simulated runs, as pareto gate's -o takes them.
const (
	Throughput = "output_token_throughput"
	TTFT       = "ttft.p99"
)

// truth is the baseline's true throughput (tokens/s) and p99 TTFT (ms).
var truth = [2]float64{1000, 200}

// Cell is one point of the grid.
type Cell struct {
	// CV is the coefficient of variation of throughput and p99 TTFT.
	CV [2]float64
	// MinImprove is δ on both objectives (the noise band too).
	MinImprove float64
	// Confidence is the gate's --confidence (0: its default).
	Confidence float64
	// Effect is the candidates' true improvement as a multiple of δ on
	// objective EffectOn (0 throughput, 1 TTFT); zero means no change.
	Effect   float64
	EffectOn int
	// Baselines independent baselines, PerBaseline candidates each.
	Baselines, PerBaseline int
	// BaselineRuns is the baseline's runs before the first candidate,
	// MinRepeats the candidate's first runs and the gate's --min-repeats;
	// MaxRuns and MaxBaselineRuns the gate's caps (0: its defaults).
	BaselineRuns, MinRepeats int
	MaxRuns, MaxBaselineRuns int
	// NoRegression is the gate's --no-regression.
	NoRegression bool
	// Seed seeds the draws; baseline b uses the stream (Seed, b).
	Seed uint64
}

// Result is a cell's outcome.
type Result struct {
	Cell Cell
	// Candidates judged, Admitted among them, and per baseline the
	// admits (the candidates per baseline are Cell.PerBaseline).
	Candidates, Admitted int
	AdmittedBy           []int
	// CandidateRuns is the candidates' runs in all, BaselineRuns the
	// baseline runs the gate asked for in all; Looks the gate calls.
	CandidateRuns, BaselineRuns, Looks int
	// Codes counts the verdicts' codes; Warned the candidates whose
	// last verdict warned that δ is below the noise.
	Codes  map[string]int
	Warned int
	// Decisions is every candidate's decision, in order (to compare two
	// deciders).
	Decisions []decide.Decision
}

// Rate returns Admitted / Candidates.
func (r Result) Rate() float64 { return float64(r.Admitted) / float64(max(r.Candidates, 1)) }

// RunsPerDecision returns the mean candidate runs per candidate.
func (r Result) RunsPerDecision() float64 {
	return float64(r.CandidateRuns) / float64(max(r.Candidates, 1))
}

// Bootstrap returns the level interval of the admit rate from resamples
// of the baselines with replacement (seeded, percentile interval).
func (r Result) Bootstrap(resamples int, level float64, seed uint64) (lo, hi float64) {
	b := len(r.AdmittedBy)
	if b == 0 {
		return math.NaN(), math.NaN()
	}
	rng := rand.New(rand.NewPCG(seed, 22))
	rates := make([]float64, resamples)
	for k := range rates {
		s := 0
		for range b {
			s += r.AdmittedBy[rng.IntN(b)]
		}
		rates[k] = float64(s) / float64(b*r.Cell.PerBaseline)
	}
	slices.Sort(rates)
	at := func(p float64) float64 { return rates[min(int(p*float64(resamples)), resamples-1)] }
	return at((1 - level) / 2), at((1 + level) / 2)
}

// Decider asks the gate about a candidate's runs against the baseline's:
// runs[i] holds the values of objective i.
type Decider interface {
	Gate(cfg decide.GateConfig, cand, base [2][]float64) (decide.Verdict, error)
}

// Library is the gate as a library call (decide.Gate).
type Library struct{}

// Gate implements Decider.
func (Library) Gate(cfg decide.GateConfig, cand, base [2][]float64) (decide.Verdict, error) {
	side := func(name string, runs [2][]float64) decide.Side {
		m := decide.Measured{Workload: repeat.Workload{Dataset: "random", InputTokens: 1024, OutputTokens: 256, Concurrency: 8}}
		for _, v := range runs {
			m.Stats = append(m.Stats, repeat.Summarize(v, repeat.Median))
		}
		return decide.Side{Name: name, Workloads: []decide.Measured{m}}
	}
	return decide.Gate(cfg, side("candidate", cand), side("baseline", base), nil), nil
}

// CLI is the gate as pareto gate: each decision writes the runs as
// bench_serving JSONL result files in Dir, records them in a fresh SQLite
// store there and prints the verdict, through cli.Main.
type CLI struct{ Dir string }

// Gate implements Decider.
func (c CLI) Gate(cfg decide.GateConfig, cand, base [2][]float64) (decide.Verdict, error) {
	dir, err := os.MkdirTemp(c.Dir, "gate-")
	if err != nil {
		return decide.Verdict{}, err
	}
	defer os.RemoveAll(dir)
	cp, bp := filepath.Join(dir, "candidate.jsonl"), filepath.Join(dir, "baseline.jsonl")
	if err := writeRuns(cp, 256, cand); err != nil {
		return decide.Verdict{}, err
	}
	if err := writeRuns(bp, 128, base); err != nil {
		return decide.Verdict{}, err
	}
	pct := func(v float64) string { return strconv.FormatFloat(100*v, 'g', -1, 64) + "%" }
	args := []string{"gate", "--store", filepath.Join(dir, "s.db"), "--study", "sim", "--candidate", cp, "--baseline", bp,
		"-o", Throughput + ":max", "-o", TTFT + ":min", "--no-label", "--session", "sim",
		"--min-improve", Throughput + "=" + pct(cfg.Objectives[0].MinImprove),
		"--min-improve", TTFT + "=" + pct(cfg.Objectives[1].MinImprove),
		"--min-repeats", strconv.Itoa(cfg.MinRepeats)}
	if cfg.Confidence > 0 {
		args = append(args, "--confidence", strconv.FormatFloat(cfg.Confidence, 'g', -1, 64))
	}
	if cfg.MaxRuns > 0 {
		args = append(args, "--max-runs", strconv.Itoa(cfg.MaxRuns))
	}
	if cfg.MaxBaselineRuns > 0 {
		args = append(args, "--max-baseline-runs", strconv.Itoa(cfg.MaxBaselineRuns))
	}
	if cfg.NoRegression {
		args = append(args, "--no-regression")
	}
	var stdout, stderr bytes.Buffer
	code := cli.Main(context.Background(), args, nil, &stdout, &stderr)
	var v decide.Verdict
	if err := json.Unmarshal(stdout.Bytes(), &v); err != nil || code == 2 {
		return v, fmt.Errorf("pareto gate exited %d: %s (%v)", code, stderr.String(), err)
	}
	return v, nil
}

// writeRuns writes one bench_serving line per run; maxNumSeqs tells the
// candidate's configuration from the baseline's.
func writeRuns(path string, maxNumSeqs int, runs [2][]float64) error {
	var b bytes.Buffer
	for k := range runs[0] {
		fmt.Fprintf(&b, `{"backend":"sglang","dataset_name":"random","max_concurrency":8,"random_input_len":1024,`+
			`"random_output_len":256,"server_info":{"version":"0.5.6"},"max_num_seqs":%d,"duration":120.0,"completed":600,`+
			`"output_throughput":%s,"p99_ttft_ms":%s}`+"\n", maxNumSeqs,
			strconv.FormatFloat(runs[0][k], 'g', -1, 64), strconv.FormatFloat(runs[1][k], 'g', -1, 64))
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// Config returns the gate's configuration for the cell.
func (c Cell) Config() decide.GateConfig {
	objs := []frontier.Objective{
		{Name: Throughput, Direction: frontier.Maximize, MinImprove: c.MinImprove, Noise: c.MinImprove},
		{Name: TTFT, Direction: frontier.Minimize, MinImprove: c.MinImprove, Noise: c.MinImprove},
	}
	return decide.GateConfig{Objectives: objs, MinRepeats: c.MinRepeats, Confidence: c.Confidence,
		MaxRuns: c.MaxRuns, MaxBaselineRuns: c.MaxBaselineRuns, NoRegression: c.NoRegression}
}

// draw appends n log-normal runs around t with the cell's CVs (mean t).
func (c Cell) draw(rng *rand.Rand, runs *[2][]float64, t [2]float64, n int) {
	for range n {
		for i := range runs {
			s := math.Sqrt(math.Log1p(c.CV[i] * c.CV[i]))
			runs[i] = append(runs[i], t[i]*math.Exp(s*rng.NormFloat64()-s*s/2))
		}
	}
}

// candidateTruth is the true values of the cell's candidates.
func (c Cell) candidateTruth() [2]float64 {
	t := truth
	if c.Effect != 0 {
		g := c.Effect * c.MinImprove
		if c.EffectOn == 0 {
			t[0] *= 1 + g
		} else {
			t[1] *= 1 - g
		}
	}
	return t
}

// maxLooks bounds the gate calls per candidate (a gate that keeps asking
// for runs past its caps is an error).
const maxLooks = 200

// Run simulates the cell with d.
func Run(c Cell, d Decider) (Result, error) {
	cfg := c.Config()
	res := Result{Cell: c, Codes: map[string]int{}, AdmittedBy: make([]int, c.Baselines)}
	ct := c.candidateTruth()
	for b := range c.Baselines {
		rng := rand.New(rand.NewPCG(c.Seed, uint64(b)))
		var base [2][]float64
		c.draw(rng, &base, truth, c.BaselineRuns)
		for range c.PerBaseline {
			var cand [2][]float64
			c.draw(rng, &cand, ct, c.MinRepeats)
			var v decide.Verdict
			for look := 0; ; look++ {
				if look == maxLooks {
					return res, fmt.Errorf("baseline %d: still inconclusive after %d looks (%d candidate, %d baseline runs)",
						b, look, len(cand[0]), len(base[0]))
				}
				var err error
				if v, err = d.Gate(cfg, cand, base); err != nil {
					return res, err
				}
				res.Looks++
				if v.Decision != decide.Inconclusive {
					break
				}
				if v.MoreRuns.Candidate+v.MoreRuns.Baseline == 0 {
					return res, fmt.Errorf("baseline %d: inconclusive verdict asking for no runs: %q", b, v.Reasons)
				}
				c.draw(rng, &cand, ct, v.MoreRuns.Candidate)
				c.draw(rng, &base, truth, v.MoreRuns.Baseline)
				res.BaselineRuns += v.MoreRuns.Baseline
			}
			res.Candidates++
			res.CandidateRuns += len(cand[0])
			res.Codes[v.Code]++
			res.Decisions = append(res.Decisions, v.Decision)
			if len(v.Warnings) > 0 {
				res.Warned++
			}
			if v.Decision == decide.Admit {
				res.Admitted++
				res.AdmittedBy[b]++
			}
		}
	}
	return res, nil
}

// Grid returns the acceptance grid of issue 22: p99 TTFT CV 4% and 10%,
// throughput CV 1.5%; δ 1%, 2%, 3% and 5%; no change, +δ and +2δ on each
// objective; at the default confidence and at 0.95; baselines × perBaseline
// candidates per cell, each baseline starting from 5 runs, candidates from 3,
// the gate's default caps and --no-regression.
func Grid(baselines, perBaseline int, seed uint64) []Cell {
	var cells []Cell
	for _, conf := range []float64{0, 0.95} {
		for _, cv := range []float64{0.04, 0.10} {
			for _, d := range []float64{0.01, 0.02, 0.03, 0.05} {
				for _, e := range []struct {
					effect float64
					on     int
				}{{0, 0}, {1, 0}, {1, 1}, {2, 0}, {2, 1}} {
					cells = append(cells, Cell{CV: [2]float64{0.015, cv}, MinImprove: d, Confidence: conf,
						Effect: e.effect, EffectOn: e.on, Baselines: baselines, PerBaseline: perBaseline,
						BaselineRuns: 5, MinRepeats: 3, NoRegression: true, Seed: seed})
				}
			}
		}
	}
	slices.SortStableFunc(cells, func(a, b Cell) int { return cmp.Compare(a.Confidence, b.Confidence) })
	return cells
}
