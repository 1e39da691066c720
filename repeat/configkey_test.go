package repeat

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"sort"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestConfigKeyStable pins configuration and repeat keys: they are
// printed (gate's key:HEX), matched (trials --where key=HEX) and kept in
// gate archives, so that a faster Config or KeyOf must give the same
// digits as the hash.Hash-per-string code they replaced (refConfig).
func TestConfigKeyStable(t *testing.T) {
	vllm := mk("a", "0.8.5", map[string]string{"max_num_seqs": "64", "seed": "3", "tensor_parallel_size": "2",
		"gpu_memory_utilization": "0.90"}, 8)
	vllm.SetLabel(trial.LabelGPU, "H100")
	bare := trial.Trial{Params: map[string]string{"x": "1"}}
	dynamo := mk("a", "0.8.5", maps.Clone(vllm.Params), 8)
	dynamo.SetLabel(trial.LabelGPU, "H100")
	dynamo.SetLabel(trial.LabelDynamoVersion, "1.3.1")
	many := trial.Trial{Params: map[string]string{}}
	for i := range 40 { // more names than Config's stack buffer holds
		many.Params[fmt.Sprintf("p%02d", i)] = fmt.Sprintf("%0100d", i)
	}
	tests := []struct {
		name        string
		t           trial.Trial
		keys        []string
		config, key string // pinned where not empty
	}{
		{name: "vllm", t: vllm, config: "47e1a20f7226", key: "cb71258c27be"},
		{name: "dynamo release", t: dynamo},
		{name: "explicit keys", t: vllm, keys: []string{"tensor_parallel_size", "max_num_seqs", "max_num_seqs"}},
		{name: "no labels", t: bare},
		{name: "empty", t: trial.Trial{}},
		{name: "40 long params", t: many},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, want := Config(&tc.t, tc.keys), refConfig(&tc.t, tc.keys)
			if got != want {
				t.Errorf("Config = %s; want %s", got, want)
			}
			w := WorkloadOf(&tc.t)
			sum := sha256.Sum256([]byte(want + "\x00" + w.String()))
			if k, wantKey := Key(got, w), hex.EncodeToString(sum[:])[:KeyLength]; k != wantKey {
				t.Errorf("Key = %s; want %s", k, wantKey)
			}
			if tc.config != "" && (got != tc.config || Key(got, w) != tc.key) {
				t.Errorf("Config, Key = %s, %s; pinned %s, %s", got, Key(got, w), tc.config, tc.key)
			}
		})
	}
}

// refConfig is Config as first written: one hash write per string.
func refConfig(t *trial.Trial, keys []string) string {
	h := sha256.New()
	write := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	write("pareto-config-v1")
	sc := ScopeOf(t).fields()
	for _, v := range sc[:5] {
		write(v)
	}
	if sc[5] != "" { // the Dynamo release, added after the keys were first pinned
		write("\x01" + sc[5])
	}
	var names []string
	if len(keys) > 0 {
		names = append(names, keys...)
		sort.Strings(names)
		names = compact(names)
	} else {
		for k := range t.Params {
			if !isRunParam(k) {
				names = append(names, k)
			}
		}
		sort.Strings(names)
	}
	for _, k := range names {
		write(k)
		write(paramOrLabel(t, k))
	}
	return hex.EncodeToString(h.Sum(nil))[:KeyLength]
}

func compact(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func BenchmarkConfigKey(b *testing.B) {
	tr := mk("a", "0.8.5", map[string]string{"max_num_seqs": "64", "seed": "3", "tensor_parallel_size": "2",
		"gpu_memory_utilization": "0.90", "max_num_batched_tokens": "2048", "run_number": "1"}, 8)
	w := WorkloadOf(&tr).String()
	for _, impl := range []struct {
		name string
		fn   func(*trial.Trial, []string) string
	}{{"Config", Config}, {"reference", refConfig}} {
		b.Run("impl="+impl.name, func(b *testing.B) {
			for b.Loop() {
				_ = KeyOf(impl.fn(&tr, nil), w)
			}
		})
	}
}
