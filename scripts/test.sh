#!/usr/bin/env bash
# The whole test suite: installs or reports the test dependencies
# (scripts/deps.sh), then vet, every package's tests, and a one-iteration
# smoke run of every benchmark so that none rots. The README's test command
# and what .ci/run runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
source scripts/deps.sh
echo "== go: $(go version)"
go vet ./...
go test -count=1 ./...
log="$(mktemp)"
if ! go test -count=1 -run '^$' -bench . -benchtime 1x ./... > "$log" 2>&1; then
	cat "$log"
	echo "benchmarks: smoke run FAILED"
	exit 1
fi
echo "benchmarks: smoke run ok ($(grep -c '^Benchmark' "$log") benchmarks)"
