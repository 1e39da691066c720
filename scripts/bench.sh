#!/usr/bin/env bash
# Runs the benchmarks behind docs/PERFORMANCE.md and writes them, with the
# machine's description and load, to bench/<short-sha>.txt (git-ignored).
# Usage: scripts/bench.sh [PACKAGES...] (default ./...); BENCHTIME=3x by default.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
mkdir -p bench
out="bench/$(git rev-parse --short HEAD 2>/dev/null || echo worktree).txt"
{
	echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
	echo "go: $(go version)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs) ($(nproc) cores)"
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
	go test -run '^$' -bench "${BENCH:-.}" -benchtime "${BENCHTIME:-3x}" -timeout 60m "${@:-./...}"
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"
echo "wrote $out" >&2
