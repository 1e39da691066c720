package repeat

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

func mk(id, version string, params map[string]string, conc float64) trial.Trial {
	t := trial.Trial{ID: id, Params: params, Workload: trial.Workload{Concurrency: conc}}
	t.SetLabel(trial.LabelEngine, "vllm")
	t.SetLabel(trial.LabelEngineVersion, version)
	t.SetLabel("role", params["role"])
	return t
}

func TestGroupRepeats(t *testing.T) {
	ts := []trial.Trial{
		mk("a1", "0.8", map[string]string{"max_num_seqs": "64", "date": "1", "role": "baseline"}, 8),
		mk("a2", "0.8", map[string]string{"max_num_seqs": "64", "date": "2", "role": "baseline"}, 8),
		mk("a3", "0.8", map[string]string{"max_num_seqs": "64", "date": "3", "role": "baseline"}, 16),
		mk("b1", "0.8", map[string]string{"max_num_seqs": "128", "date": "4"}, 8),
		mk("a4", "0.9", map[string]string{"max_num_seqs": "64", "date": "5", "role": "baseline"}, 8),
		mk("a2", "0.8", map[string]string{"max_num_seqs": "64", "date": "2", "role": "baseline"}, 8),
	}
	gs := GroupRepeats(ts, nil)
	if got := []int{len(gs), len(gs[0].Trials)}; got[0] != 4 || got[1] != 2 {
		t.Fatalf("GroupRepeats: %d groups, first has %d trials; want 4 and 2", got[0], got[1])
	}
	if gs[0].Config != gs[1].Config || gs[0].Key == gs[1].Key {
		t.Errorf("same configuration on two workloads: config %s/%s key %s/%s", gs[0].Config, gs[1].Config, gs[0].Key, gs[1].Key)
	}
	if gs[0].Config == gs[3].Config {
		t.Errorf("engine versions 0.8 and 0.9 share a configuration key")
	}
	if k := GroupRepeats(ts, []string{"role"}); len(k) != 4 || len(k[2].Trials) != 1 {
		t.Errorf("explicit keys: %d groups; want 4", len(k))
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{4, 1, 3, 2}, Median)
	if s.N != 4 || s.Value != 2.5 || s.Min != 1 || s.Max != 4 || s.Q1 != 1.75 || s.Q3 != 3.25 || s.IQR() != 1.5 {
		t.Errorf("Summarize = %+v", s)
	}
	if m := Summarize([]float64{1, 2, 6}, Mean); m.Value != 3 || m.Median != 2 {
		t.Errorf("Summarize(mean) = %+v", m)
	}
}

// TestWorkloadString renders workloads as the keys have always rendered
// them (a changed rendering changes every repeat key: KeyVersion): the
// known fields that are set, in order, joined by spaces, "default" when
// none is.
func TestWorkloadString(t *testing.T) {
	for _, tt := range []struct {
		w    Workload
		want string
	}{
		{Workload{}, "default"},
		{Workload{Dataset: "sharegpt"}, "dataset=sharegpt"},
		{Workload{InputTokens: 1024, OutputTokens: 128, Concurrency: 16}, "input_tokens=1024 output_tokens=128 concurrency=16"},
		{Workload{Dataset: "d", RequestRate: math.Inf(1), Users: 2.5}, "dataset=d request_rate=inf users=2.5"},
		{Workload{Concurrency: math.NaN(), InputTokens: -1e-7}, "input_tokens=-1e-07 concurrency=nan"},
		{Workload{OutputTokens: math.Inf(-1), InputTokens: math.Copysign(0, -1)}, "output_tokens=-inf"},
	} {
		if got := tt.w.String(); got != tt.want {
			t.Errorf("%+v.String() = %q; want %q", tt.w, got, tt.want)
		}
	}
}

// TestServerHint checks serverHint against strings.Contains over every
// hint, on the hints themselves, their fragments and random keys built
// from their bytes.
func TestServerHint(t *testing.T) {
	brute := func(k string) bool {
		for _, h := range serverHints {
			if strings.Contains(k, h) {
				return true
			}
		}
		return false
	}
	keys := []string{"", "x", "server_info.version", "sglang.server_info", "tp", "tp_siz", "a.tp_size.b", "quantization", "kv-cach"}
	for _, h := range serverHints {
		keys = append(keys, h, h[1:], h[:len(h)-1], "pre"+h+"post")
	}
	alphabet := strings.Join(serverHints, "")
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			if r.IntN(4) == 0 { // a run of a hint, to make matches likely
				h := serverHints[r.IntN(len(serverHints))]
				b = append(b[:i], h[:r.IntN(len(h)+1)]...)
				break
			}
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		keys = append(keys, string(b))
	}
	matched := 0
	for _, k := range keys {
		if got, want := serverHint(k), brute(k); got != want {
			t.Fatalf("serverHint(%q) = %v; want %v", k, got, want)
		} else if got {
			matched++
		}
	}
	if matched < 100 || matched == len(keys) {
		t.Fatalf("%d of %d keys matched: the keys do not test both outcomes", matched, len(keys))
	}
}
