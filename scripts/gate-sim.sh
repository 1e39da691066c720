#!/bin/sh
# The gate's false-admit simulation grid (issue 22, docs/DECISIONS.md):
# p99 TTFT CV 4% and 10%, throughput CV 1.5%, log-normal noise; δ 1, 2, 3,
# 5%; no change, +δ and +2δ on one objective; default confidence and 0.95;
# 50 independent baselines × 20 candidates per cell (80,000 candidates),
# each decision through pareto gate (cli.Main on result files and a
# SQLite store per decision) and through decide.Gate (the library), which
# must decide every candidate alike; the table is the CLI's. CPU heavy
# (about 40 CPU-minutes): it runs under nice.
#
#	scripts/gate-sim.sh [OUTDIR]
set -eu
out=${1:-gate-sim}
mkdir -p "$out"
go build -o "$out/gatesim" ./internal/gatesim/gatesim
nice -n 10 "$out/gatesim" -baselines 50 -per 20 -jobs 2 -compare -json "$out/cli.json" > "$out/cli.md"
cat "$out/cli.md"
