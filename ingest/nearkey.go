package ingest

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/trial"
)

// A member name a reader does not map, within a small edit distance of
// one it maps (p99_ttft_mz beside p99_ttft_ms), is likely a damaged or
// renamed metric: the trial gets a warning naming both, so that a metric
// does not vanish (or become a parameter) without a trace. Only unknown
// names are compared, once per file and name, against the reader's known
// names.

// nearMiss returns the name of known within the edit distance allowed for
// name (nearDistance), or "".
func nearMiss(name string, known []string) string {
	max := nearDistance(name)
	if max == 0 {
		return ""
	}
	for _, k := range known {
		if k != name && editDistance(name, k, max) <= max {
			return k
		}
	}
	return ""
}

// nearDistance is the edit distance within which a name counts as a near
// miss: none under 3 bytes (too short to tell a typo from another name),
// 1 up to 11 bytes, 2 from 12.
func nearDistance(name string) int {
	switch {
	case len(name) < 3:
		return 0
	case len(name) < 12:
		return 1
	}
	return 2
}

// nearWarning is the trial warning for name, close to known.
func nearWarning(name, known string) string {
	return "key " + textin.Excerpt(name) + " is not read, but is close to " + strconv.Quote(known) +
		", which is: a damaged or renamed metric?"
}

// editDistance returns the optimal string alignment distance (Damerau-
// Levenshtein with adjacent transpositions) between a and b, or max+1 as
// soon as it is known to exceed max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	if len(a) > 64 || len(b) > 64 {
		return max + 1 // names of metrics are short; a long one is no typo of one
	}
	var rows [3][65]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			low = min(low, d)
		}
		if low > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// servingKnown are the names the vLLM and SGLang readers map: result
// scalars, per-request arrays, setup keys and the statistics they write
// ({mean,median,std,pP,max,min}_{ttft,tpot,itl,e2el,e2e_latency}_ms).
var servingKnown = func() []string {
	var out []string
	for k := range servingScalars {
		out = append(out, k)
	}
	for k := range servingArrays {
		out = append(out, k)
	}
	for k := range vllmLabels {
		out = append(out, k)
	}
	out = append(out, "request_rate", "max_concurrency", "num_prompts", // both tools
		"backend", "dataset_name", "tag", "random_input_len", "random_output_len", "server_info") // SGLang
	for _, m := range []string{"ttft", "tpot", "itl", "e2el", "e2e_latency"} {
		for _, s := range []string{"mean", "median", "std", "max", "min", "p25", "p50", "p75", "p90", "p95", "p99", "p99.9"} {
			out = append(out, s+"_"+m+"_ms")
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}()

// servingNearMiss returns the known serving name key is a near miss of,
// or "" (also for a statistic key the reader maps by its pattern).
func servingNearMiss(key string) string {
	if _, _, _, ok := parseServingStat(key); ok {
		return ""
	}
	return nearMiss(key, servingKnown)
}

// perfKnown are the metric tags the AIPerf and GenAI-Perf readers map to
// canonical metrics, and the top-level keys they read.
var perfKnown = func() []string {
	out := trial.NativeNames(trial.ToolAIPerf)
	out = append(out, trial.NativeNames(trial.ToolGenAIPerf)...)
	for k := range perfTopLevel {
		out = append(out, k)
	}
	slices.Sort(out)
	return slices.Compact(out)
}()

// perfNearMiss returns the known AIPerf name tag is a near miss of, or "".
func perfNearMiss(tool, tag string) string {
	if _, ok := trial.Canonical(tool, tag); ok || perfTopLevel[tag] {
		return ""
	}
	return nearMiss(tag, perfKnown)
}

// statKnown are the statistic names of metric blocks.
var statKnown = []string{"avg", "mean", "median", "min", "max", "std", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "p99.9"}

// statNearMiss returns the statistic name is a near miss of, or "".
func statNearMiss(name string) string {
	if strings.HasPrefix(name, "p") { // p-anything near a percentile is another percentile, or a typo of one
		if _, ok := trial.NormalizeStatistic(name); ok {
			return ""
		}
	}
	return nearMiss(name, statKnown)
}
