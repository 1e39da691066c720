#!/usr/bin/env bash
# Bounded mutation fuzzing: every Fuzz target of the module (the readers',
# the configuration parsers', and FuzzCommands, which runs the reading
# commands on mutated real files) for PARETO_FUZZ_TIME each (default 3s).
# A crash is saved by go test under the package's testdata/fuzz and fails
# the run. When the fuzzing engine itself fails without a crash (its
# workers can be killed on a loaded machine), the target's seeds and saved
# inputs are run as plain tests: if they pass, fuzzing is tried once more,
# and only a second engine failure without a reproducible input is
# reported and tolerated. Called by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
fuzztime="${PARETO_FUZZ_TIME:-3s}"
n=0
while IFS=: read -r file target; do
	pkg="./$(dirname "$file")"
	log="$(mktemp)"
	ok=0
	for attempt in 1 2; do
		if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" > "$log" 2>&1; then
			ok=1
			break
		fi
		if grep -q "Failing input written to" "$log" || ! go test -count=1 -run "^${target}\$" "$pkg" > /dev/null 2>&1; then
			cat "$log"
			echo "fuzz: $pkg $target FAILED (a reproducible input; see the package's testdata/fuzz)"
			exit 1
		fi
		echo "fuzz: $pkg $target: the fuzzing engine failed without a failing input (attempt $attempt):"
		grep -v '^fuzz: elapsed' "$log" | tail -5
	done
	[ "$ok" = 1 ] || echo "fuzz: $pkg $target: tolerated (no reproducible failing input)"
	rm -f "$log"
	n=$((n + 1))
done < <(grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' . | sed 's|^\./||; s|:func |:|' | sort)
echo "fuzz: $n targets, $fuzztime each, no failure"
