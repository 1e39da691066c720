package repeat

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/pareto-llm/pareto/trial"
)

// RunParams are parameters that describe a run rather than the served
// configuration; Config ignores them. The workload parameters are among
// them because the Workload is compared on its own.
var RunParams = []string{
	"date", "run_number", "num_prompts", "seed", "benchmark_id", "result_dir", "result_filename",
	"max_concurrency", "request_rate", "burstiness", "dataset_name", "dataset_path",
	"random_input_len", "random_output_len", "random_range_ratio", "random_prefix_len",
	"sharegpt_output_len", "sonnet_input_len", "sonnet_output_len", "sonnet_prefix_len",
	"start_time", "end_time", "random_seed", "was_cancelled",
}

// runParamPrefixes are prefixes of parameter names that describe a run
// (AIPerf's output locations and UI settings, say, and AIPerf 0.11's
// run_info: the run's benchmark and sweep IDs, trial number, run label,
// seed and command line); Config ignores them too.
var runParamPrefixes = []string{"artifacts.", "runtime.", "output.", "run_info."}

// IsRunParam reports whether parameter k describes the run, not the
// configuration (RunParams and the run-parameter prefixes): Config
// ignores it.
func IsRunParam(k string) bool { return isRunParam(k) }

// isRunParam reports whether parameter k describes the run, not the
// configuration.
func isRunParam(k string) bool {
	if slices.Contains(RunParams, k) {
		return true
	}
	for _, p := range runParamPrefixes {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// KeyLength is the number of hex digits of a configuration key.
const KeyLength = 12

// KeyVersion names the definition of the configuration and repeat keys
// (Config, KnownConfig, WorkloadOf, KeyOf): it is hashed into every key,
// and a store keeps it beside the repeat keys it computed at ingest
// (store.Columns), which a pareto with another definition then does not
// use. Change it whenever a key of a trial would change.
const KeyVersion = "pareto-config-v1"

// Config returns the configuration key of t: a hash of its parameters
// (all but RunParams, or only keys when keys is not empty) and its Scope.
func Config(t *trial.Trial, keys []string) string {
	// The hashed bytes are built in one buffer and hashed at once: a read
	// of a study keys every trial (10⁶ at a time), where a hash.Hash and
	// a write per string cost twice as much.
	var kb [16]string
	names := appendConfigParams(kb[:0], t, keys)
	var bb [512]byte
	b := append(append(bb[:0], KeyVersion...), 0)
	sc := ScopeOf(t).fields()
	for _, v := range sc[:5] {
		b = append(append(b, v...), 0)
	}
	if v := sc[5]; v != "" { // the Dynamo release, hashed only when known: the other trials keep their keys
		b = append(append(append(b, 1), v...), 0)
	}
	for _, k := range names {
		b = append(append(b, k...), 0)
		b = append(append(b, paramOrLabel(t, k)...), 0)
	}
	return shortHex(sha256.Sum256(b))
}

// shortHex is the first KeyLength hex digits of sum.
func shortHex(sum [sha256.Size]byte) string {
	var hx [KeyLength]byte
	hex.Encode(hx[:], sum[:KeyLength/2])
	return string(hx[:])
}

// paramOrLabel returns parameter k, or label k when no parameter has that
// name (so that --config-key can name a label set at ingest, such as
// config=tp4).
func paramOrLabel(t *trial.Trial, k string) string {
	if v, ok := t.Params[k]; ok {
		return v
	}
	return t.Labels[k]
}

// KnownConfig reports whether t records the configuration it was measured
// with, so that trials can be recognised as repeats: explicit keys were
// given, t comes from a CloudAI run (its executed test-run.toml) or an
// Optuna study (its parameters are the configuration), or its parameters
// include server settings (serverHints, e.g. SGLang's server_info). A
// result file that records only the benchmark client's settings (a vLLM
// bench serve file, say) cannot tell two server configurations apart, so
// two such files at the same load are not assumed to be repeats.
func KnownConfig(t *trial.Trial, keys []string) bool { return knownConfig(t, keys, nil) }

// knownConfig is KnownConfig, through m's memo of server settings when m
// is not nil.
func knownConfig(t *trial.Trial, keys []string, m *KeyMemo) bool {
	if len(keys) > 0 || t.Labels[trial.LabelTestCase] != "" || t.Source.Format == "optuna" {
		return true
	}
	for k := range t.Params {
		if m == nil && serverHint(k) || m != nil && m.hint(k) {
			return true
		}
	}
	return false
}

// serverHint reports whether k contains one of serverHints: at each byte
// from which the shortest hint still fits, only the hints that start with
// it and go on with the next byte are compared in full (KnownConfig runs
// for every trial a query keys, on every parameter name).
func serverHint(k string) bool {
	for i := 0; i+minHint <= len(k); i++ {
		for _, h := range hintsByFirst[k[i]] {
			if h[1] == k[i+1] && strings.HasPrefix(k[i:], h) {
				return true
			}
		}
	}
	return false
}

// hintsByFirst holds serverHints by their first byte.
var hintsByFirst = func() (t [256][]string) {
	for _, h := range serverHints {
		t[h[0]] = append(t[h[0]], h)
	}
	return t
}()

// minHint is the length of the shortest of serverHints (each has two bytes
// at least).
var minHint = func() int {
	n := len(serverHints[0])
	for _, h := range serverHints {
		n = min(n, len(h))
	}
	return n
}()

// serverHints are parameter-name fragments that only server settings have.
var serverHints = []string{"server_info.", "server_args.", "tensor_parallel", "tensor-parallel", "tp_size",
	"dp_size", "pp_size", "pipeline_parallel", "pipeline-parallel", "max_num_seqs", "max-num-seqs",
	"max_num_batched_tokens", "max-num-batched-tokens", "gpu_memory_utilization", "gpu-memory-utilization",
	"kv_cache", "kv-cache", "quantization", "max_model_len", "max-model-len"}

// configParams returns the sorted parameter names that make up t's
// configuration.
func configParams(t *trial.Trial, keys []string) []string {
	return appendConfigParams(nil, t, keys)
}

// appendConfigParams appends configParams of t to out.
func appendConfigParams(out []string, t *trial.Trial, keys []string) []string {
	if len(keys) > 0 {
		out = append(out, keys...)
		slices.Sort(out)
		return slices.Compact(out)
	}
	for k := range t.Params {
		if !isRunParam(k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Key returns the repeat identity of t: its configuration key and its
// workload, hashed.
func Key(config string, w Workload) string { return KeyOf(config, w.String()) }

// RepeatKey returns the key that t shares with its repeats under the
// configuration keys (KeyOf of Config and of its workload, rendered by
// render, Workload.String when nil), and false when t does not record
// its configuration (KnownConfig): it then repeats no other trial.
func RepeatKey(t *trial.Trial, keys []string, render func(Workload) string) (string, bool) {
	return repeatKey(t, keys, render, nil)
}

// repeatKey is RepeatKey, through m's memo of server settings when m is
// not nil.
func repeatKey(t *trial.Trial, keys []string, render func(Workload) string, m *KeyMemo) (string, bool) {
	if !knownConfig(t, keys, m) {
		return "", false
	}
	w := WorkloadOf(t)
	if render == nil {
		return KeyOf(Config(t, keys), w.String()), true
	}
	return KeyOf(Config(t, keys), render(w)), true
}

// KeyMemo computes repeat keys for trial after trial (RepeatKey),
// remembering what recurs across them: the rendering of the last workload
// (WorkloadNames) and whether recently seen parameter names are server
// settings (KnownConfig), by the memory of the name: readers intern the
// names their files share. Its zero value is ready to use; it is not safe
// for concurrent use.
type KeyMemo struct {
	names WorkloadNames
	hints [512]hintSlot // direct-mapped: a few readers' names of a few dozen parameters
}

// hintSlot remembers serverHint of one parameter name; holding the name
// keeps its memory from holding another.
type hintSlot struct {
	name string
	hint bool
}

// Key returns RepeatKey(t, keys, nil).
func (m *KeyMemo) Key(t *trial.Trial, keys []string) (string, bool) {
	return repeatKey(t, keys, m.names.Render, m)
}

// hint is serverHint(k), remembered by the memory of k.
func (m *KeyMemo) hint(k string) bool {
	p := uintptr(unsafe.Pointer(unsafe.StringData(k)))
	slot := &m.hints[(uint64(p)>>3^uint64(len(k)))*0x9e3779b97f4a7c15>>(64-9)]
	if len(slot.name) == len(k) && unsafe.StringData(slot.name) == unsafe.StringData(k) {
		return slot.hint
	}
	*slot = hintSlot{k, serverHint(k)}
	return slot.hint
}

// WorkloadNames renders workloads (Workload.String) for repeat keys
// (RepeatKey), once for a run of trials of one workload. Its zero value
// is ready to use.
type WorkloadNames struct {
	w    Workload
	name string
	ok   bool
}

// Render returns w.String().
func (c *WorkloadNames) Render(w Workload) string {
	if !c.ok || w != c.w {
		c.w, c.name, c.ok = w, w.String(), true
	}
	return c.name
}

// KeyOf is Key of a workload already rendered (Workload.String): a caller
// keying many trials of few workloads renders each once.
func KeyOf(config, workload string) string {
	var bb [256]byte
	b := append(append(append(bb[:0], config...), 0), workload...)
	return shortHex(sha256.Sum256(b))
}

// Group is the set of repeats of one configuration under one workload in
// one scope.
type Group struct {
	// Key identifies the group (configuration and workload); Config the
	// configuration alone (parameters and scope).
	Key, Config string
	Scope       Scope
	Workload    Workload
	// Trials are the repeats in input order (oldest first for store reads).
	Trials []*trial.Trial
	// Newest is the input position of the group's last trial.
	Newest int
}

// Params returns the configuration parameters of the group's first trial
// (all parameters but RunParams, or keys when not empty).
func (g *Group) Params(keys []string) map[string]string {
	out := map[string]string{}
	if len(g.Trials) == 0 {
		return out
	}
	t := g.Trials[0]
	for _, k := range configParams(t, keys) {
		if v, ok := t.Params[k]; ok {
			out[k] = v
		}
	}
	return out
}

// GroupRepeats groups trials into repeats, keyed by Config(t, keys) and
// the workload. Groups are ordered by their first trial; trials with a
// Problem are left out. Trials with the same ID are counted once.
func GroupRepeats(ts []trial.Trial, keys []string) []Group {
	index := map[string]int{}
	seen := map[string]bool{}
	var out []Group
	for i := range ts {
		t := &ts[i]
		if t.Problem != "" || (t.ID != "" && seen[t.ID]) {
			continue
		}
		seen[t.ID] = true
		cfg, w := Config(t, keys), WorkloadOf(t)
		k := Key(cfg, w)
		j, ok := index[k]
		if !ok {
			j = len(out)
			index[k] = j
			out = append(out, Group{Key: k, Config: cfg, Scope: ScopeOf(t), Workload: w})
		}
		out[j].Trials = append(out[j].Trials, t)
		out[j].Newest = i
	}
	return out
}

// IDs returns the IDs of the group's trials, sorted.
func (g *Group) IDs() []string {
	out := make([]string, len(g.Trials))
	for i, t := range g.Trials {
		out[i] = t.ID
	}
	sort.Strings(out)
	return out
}

// matchesKey reports whether prefix (at least 4 hex digits) starts s.
func matchesKey(s, prefix string) bool {
	return len(prefix) >= 4 && strings.HasPrefix(s, strings.ToLower(prefix))
}

// HasKey reports whether prefix (at least 4 hex digits, as key:HEX names
// it) starts t's configuration key (Config(t, keys)) or its repeat key
// (Key, with its workload): pareto trials --where key=HEX.
func HasKey(t *trial.Trial, keys []string, prefix string) bool {
	cfg := Config(t, keys)
	return matchesKey(cfg, prefix) || matchesKey(Key(cfg, WorkloadOf(t)), prefix)
}
