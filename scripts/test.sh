#!/usr/bin/env bash
# The whole test suite: installs or reports the test dependencies
# (scripts/deps.sh), then vet, staticcheck and deadcode, every package's tests, and a one-iteration
# smoke run of every benchmark so that none rots, and a bounded mutation
# fuzz of every Fuzz target (scripts/fuzz.sh). The README's test command
# and what .ci/run runs. Tests write only to temporary directories: the
# checkout's git status (ignored files included) must be the same after.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
source scripts/deps.sh
tree_status() { git status --porcelain --ignored 2>/dev/null || true; }
status_before="$(tree_status)"
echo "== go: $(go version)"
# Every tracked Go file as gofmt writes it.
unformatted="$(git ls-files -z '*.go' | xargs -0 gofmt -l)"
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi
go vet ./...
# Static analysis, pinned: staticcheck clean, and no function that nothing
# reaches, not even a test (deadcode -test: the internal test-support
# packages are reached from the tests).
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
dead="$(go run golang.org/x/tools/cmd/deadcode@v0.52.0 -test ./...)"
if [ -n "$dead" ]; then
	echo "$dead"
	echo "deadcode: unreachable functions (delete them)"
	exit 1
fi
go test -count=1 -timeout 30m ./...
log="$(mktemp)"
if ! go test -count=1 -run '^$' -bench . -benchtime 1x ./... > "$log" 2>&1; then
	cat "$log"
	echo "benchmarks: smoke run FAILED"
	exit 1
fi
echo "benchmarks: smoke run ok ($(grep -c '^Benchmark' "$log") benchmarks)"
rm -f "$log"
bash scripts/fuzz.sh
if [ "$(tree_status)" != "$status_before" ]; then
	echo "the tests changed the checkout (git status --ignored, before and after):"
	diff <(echo "$status_before") <(tree_status) || true
	exit 1
fi
