#!/usr/bin/env bash
# The whole test suite: vet, every package's tests, and a one-iteration
# smoke run of every benchmark so that none rots. Used by the README and by
# .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
go vet ./...
go test -count=1 ./...
go test -count=1 -run '^$' -bench . -benchtime 1x ./... > /dev/null
echo "benchmarks: smoke run ok"
