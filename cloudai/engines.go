package cloudai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// vLLM and SGLang file names written by CloudAI into the run directory.
const (
	vllmBenchJSON       = "vllm-bench.json"
	vllmBenchLog        = "vllm-bench.log"
	vllmGSM8K           = "vllm-gsm8k.json"
	vllmSemanticLog     = "vllm-semantic-eval.log"
	sglangBenchJSONL    = "sglang-bench.jsonl"
	sglangSemanticLog   = "sglang-semantic-eval.log"
	vllmResultHeader    = "============ Serving Benchmark Result ============"
	vllmSuccessfulLabel = "Successful requests:"
)

// vllmRuns checks CloudAI's vLLM success marker (the bench log's result block
// with more than 0 successful requests) and lists vllm-bench.json.
func vllmRuns(p runPos, r Run) ([]Run, []Exclusion) {
	r.Benchmark = "vllm-bench"
	log := filepath.Join(p.dir, vllmBenchLog)
	n, err := vllmSuccessful(log)
	if err != nil {
		return nil, []Exclusion{p.exclude("", ExcludeRunFailed, err.Error())}
	}
	r.Evidence = append(r.Evidence, fmt.Sprintf("%s: %s %d", vllmBenchLog, vllmSuccessfulLabel, n))
	js := filepath.Join(p.dir, vllmBenchJSON)
	if !exists(js) {
		return nil, []Exclusion{p.exclude("", ExcludeResultMissing, vllmBenchJSON+" not found")}
	}
	r.Files = []File{{Path: js, Kind: KindVLLMJSON}}
	r.addAccuracy(p.dir, []File{{vllmGSM8K, KindAccuracyJSON}, {vllmSemanticLog, KindAccuracyLog}})
	return []Run{r}, nil
}

// vllmSuccessful returns the "Successful requests:" count that follows the
// result header in the vLLM bench log, or why there is none.
func vllmSuccessful(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("%s not found", vllmBenchLog)
	}
	i := bytes.Index(data, []byte(vllmResultHeader))
	if i < 0 {
		return 0, fmt.Errorf("%s has no benchmark result block", vllmBenchLog)
	}
	sc := bufio.NewScanner(bytes.NewReader(data[i:]))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), vllmSuccessfulLabel)
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(rest))
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("%s reports %q successful requests", vllmBenchLog, strings.TrimSpace(rest))
		}
		return n, nil
	}
	return 0, fmt.Errorf("%s result block has no %q line", vllmBenchLog, vllmSuccessfulLabel)
}

// completedRE finds the completed count of one SGLang JSONL record.
var completedRE = regexp.MustCompile(`"completed"\s*:\s*(-?[0-9]+(?:\.[0-9]+)?)`)

// sglangRuns checks that sglang-bench.jsonl has a record with completed > 0.
// Every record is a trial: pareto does not repeat CloudAI's first-line-only
// policy, so the marker counts all records.
func sglangRuns(p runPos, r Run) ([]Run, []Exclusion) {
	r.Benchmark = "sglang-bench"
	path := filepath.Join(p.dir, sglangBenchJSONL)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, []Exclusion{p.exclude("", ExcludeResultMissing, sglangBenchJSONL+" not found")}
	}
	total, ok, damaged := 0, 0, false
	for line := range bytes.Lines(data) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		total++
		damaged = damaged || !json.Valid(line)
		if m := completedRE.FindSubmatch(line); m != nil {
			if v, err := strconv.ParseFloat(string(m[1]), 64); err == nil && v > 0 {
				ok++
			}
		}
	}
	// A record that is not JSON (a file cut short, damaged) is not a
	// failed run: the reader reports it with its position.
	if ok == 0 && !damaged {
		return nil, []Exclusion{p.exclude("", ExcludeRunFailed,
			fmt.Sprintf("%s has no record with completed > 0 (%d record(s))", sglangBenchJSONL, total))}
	}
	r.Evidence = append(r.Evidence, fmt.Sprintf("%s: %d of %d record(s) with completed > 0", sglangBenchJSONL, ok, total))
	r.Files = []File{{Path: path, Kind: KindSGLangJSONL}}
	r.addAccuracy(p.dir, []File{{sglangSemanticLog, KindAccuracyLog}})
	return []Run{r}, nil
}

// addAccuracy attaches the first existing accuracy file among candidates
// (names relative to dir). A configured but missing accuracy result is a
// warning: throughput and latency points stay valid.
func (r *Run) addAccuracy(dir string, candidates []File) {
	for _, c := range candidates {
		if p := filepath.Join(dir, c.Path); exists(p) {
			r.AccuracyFiles = append(r.AccuracyFiles, File{Path: p, Kind: c.Kind})
			return
		}
	}
	if hasSemanticEval(r.Params) {
		r.Warnings = append(r.Warnings, "semantic evaluation is configured but no accuracy result was found")
	}
}

// hasSemanticEval reports whether accuracy was configured: vLLM/SGLang
// semantic_eval_cmd_args or Dynamo cmd_args.aiperf_accuracy.
func hasSemanticEval(ps []Param) bool {
	for _, p := range ps {
		if strings.HasPrefix(p.Key, "semantic_eval_cmd_args.") || strings.HasPrefix(p.Key, "aiperf_accuracy.") {
			return true
		}
	}
	return false
}
