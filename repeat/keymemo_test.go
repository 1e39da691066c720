package repeat

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestKeyMemoAgainstRepeatKey computes the repeat keys of random trials
// with one KeyMemo and with RepeatKey, and wants the same key every time:
// parameter names shared by the trials (as a reader interns them), the
// same names in other memory, server settings and client settings, labels
// and keys that make the configuration known, and changing workloads.
func TestKeyMemoAgainstRepeatKey(t *testing.T) {
	vocab := []string{"endpoint.model_names.0", "loadgen.concurrency", "server_info.tp_size", "tensor_parallel_size",
		"input.prompt.input_tokens.mean", "max_num_seqs", "backend", "kv-cache-dtype", "x", "quantization", ""}
	rng := rand.New(rand.NewPCG(27, 3))
	var m KeyMemo
	known := 0
	for n := 0; n < 20000; n++ {
		tr := &trial.Trial{Params: map[string]string{}, Workload: trial.Workload{Concurrency: float64(rng.IntN(3))}}
		for range rng.IntN(5) {
			k := vocab[rng.IntN(len(vocab))]
			if rng.IntN(3) == 0 {
				k = strings.Clone(k) // the same name in memory of its own
			}
			if k == "server_info.tp_size" && rng.IntN(2) == 0 {
				k = "client_" + fmt.Sprint(rng.IntN(4)) // a name built per trial
			}
			tr.Params[k] = fmt.Sprint(rng.IntN(3))
		}
		if rng.IntN(10) == 0 {
			tr.SetLabel(trial.LabelTestCase, "case")
		}
		var keys []string
		if rng.IntN(10) == 0 {
			keys = []string{"backend"}
		}
		want, wok := RepeatKey(tr, keys, nil)
		got, gok := m.Key(tr, keys)
		if got != want || gok != wok {
			t.Fatalf("trial %d %v keys %v: KeyMemo %q, %v; RepeatKey %q, %v", n, tr.Params, keys, got, gok, want, wok)
		}
		if wok {
			known++
		}
	}
	if known < 5000 || known > 15000 {
		t.Fatalf("%d of 20000 trials known: the cases do not cover both", known)
	}
}
