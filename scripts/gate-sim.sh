#!/bin/sh
# The gate's false-admit simulation grid (issue 22, docs/DECISIONS.md):
# p99 TTFT CV 4% and 10%, throughput CV 1.5%, log-normal noise; δ 1, 2, 3,
# 5%; no change, +δ and +2δ on one objective; default confidence and 0.95;
# 50 independent baselines × 20 candidates per cell, through decide.Gate
# (the library), then a smaller grid run both through the library and
# through pareto gate (cli.Main on result files and a SQLite store per
# decision) that must decide every candidate alike. CPU heavy: it runs
# under nice.
#
#	scripts/gate-sim.sh [OUTDIR]
set -eu
out=${1:-gate-sim}
mkdir -p "$out"
go build -o "$out/gatesim" ./internal/gatesim/gatesim
nice -n 10 "$out/gatesim" -baselines 50 -per 20 -jobs 2 -json "$out/library.json" > "$out/library.md"
nice -n 10 "$out/gatesim" -baselines 3 -per 10 -jobs 2 -compare > "$out/cli-compare.md"
cat "$out/library.md" "$out/cli-compare.md"
