// Command gatesim runs the gate's false-admit simulation grid (package
// gatesim) and prints one Markdown table row per cell; scripts/gate-sim.sh
// runs it.
//
//	go run ./internal/gatesim/gatesim -baselines 50 -per 20 [-cli] [-effects none] [-json out.json]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/internal/gatesim"
)

func main() {
	baselines := flag.Int("baselines", 50, "independent baselines per cell")
	per := flag.Int("per", 20, "candidates per baseline")
	seed := flag.Uint64("seed", 1, "seed")
	useCLI := flag.Bool("cli", false, "ask pareto gate (cli.Main on a SQLite store per decision) instead of decide.Gate")
	compare := flag.Bool("compare", false, "run every cell both ways and report whether the decisions agree")
	effects := flag.String("effects", "all", "all, or none (no-change cells only)")
	out := flag.String("json", "", "also write the results as JSON to this file")
	jobs := flag.Int("jobs", runtime.NumCPU(), "cells run at once")
	flag.Parse()
	var cells []gatesim.Cell
	for _, c := range gatesim.Grid(*baselines, *per, *seed) {
		if *effects == "none" && c.Effect != 0 {
			continue
		}
		cells = append(cells, c)
	}
	tmp, err := os.MkdirTemp("", "gatesim-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	var deciders []gatesim.Decider
	switch {
	case *compare:
		deciders = []gatesim.Decider{gatesim.Library{}, gatesim.CLI{Dir: tmp}}
	case *useCLI:
		deciders = []gatesim.Decider{gatesim.CLI{Dir: tmp}}
	default:
		deciders = []gatesim.Decider{gatesim.Library{}}
	}
	results := make([][]gatesim.Result, len(cells))
	errs := make([]error, len(cells))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(*jobs, 1))
	for i, c := range cells {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			for _, d := range deciders {
				r, err := gatesim.Run(c, d)
				if err != nil {
					errs[i] = err
					return
				}
				results[i] = append(results[i], r)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			fail(err)
		}
	}
	fmt.Println("| confidence | TTFT CV | δ | effect | candidates | admitted | rate | 95% bootstrap | cand. runs/decision | baseline runs asked | max_runs rejects | warned |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	var all []gatesim.Result
	disagree := 0
	for i, rs := range results {
		r := rs[len(rs)-1] // with -compare, the table is the CLI's
		all = append(all, r)
		if len(rs) == 2 {
			for k := range r.Decisions {
				if r.Decisions[k] != rs[0].Decisions[k] {
					disagree++
				}
			}
		}
		c := cells[i]
		lo, hi := r.Bootstrap(2000, 0.95, 1)
		conf := "0.99 (default)"
		if c.Confidence != 0 {
			conf = fmt.Sprint(c.Confidence)
		}
		effect := "none"
		if c.Effect != 0 {
			effect = fmt.Sprintf("+%gδ %s", c.Effect, []string{"throughput", "TTFT"}[c.EffectOn])
		}
		fmt.Printf("| %s | %g%% | %g%% | %s | %d | %d | %.2f%% | [%.2f%%, %.2f%%] | %.2f | %d | %d | %d |\n",
			conf, 100*c.CV[1], 100*c.MinImprove, effect, r.Candidates, r.Admitted, 100*r.Rate(), 100*lo, 100*hi,
			r.RunsPerDecision(), r.BaselineRuns, r.Codes[decide.CodeRejectedMaxRuns], r.Warned)
	}
	if *compare {
		fmt.Printf("\nlibrary and CLI decisions differ on %d candidates\n", disagree)
	}
	if *out != "" {
		b, err := json.MarshalIndent(all, "", " ")
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(*out, b, 0o644); err != nil {
			fail(err)
		}
	}
	if disagree > 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gatesim:", err)
	os.Exit(1)
}
