package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pareto-llm/pareto/internal/realbench"
	"github.com/pareto-llm/pareto/internal/schematest"
	"github.com/pareto-llm/pareto/mcpserver"
	"github.com/pareto-llm/pareto/simulate"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/tune"
)

// realSpace: the baseline (chunked prefill, a 2048-token budget) is
// beaten on the median TTFT by an 8192-token budget in the simulator's
// model, and traded against by the others.
const realSpace = `
[params.max_num_seqs]
values = [32, 64, 256]
default = 256

[params.enable_chunked_prefill]
values = [true, false]
default = true

[params.max_num_batched_tokens]
values = [2048, 8192]
default = 2048
`

// measure writes what a run of a measured leaves in dir and returns the
// paths to tell.
type measure func(t *testing.T, dir string, a tune.AskResult) []string

// mcpLoop drives a tuning study through the MCP ask and tell tools until
// the budget is spent, each run measured by m into a folder of its own,
// and returns each configuration's decision and the study's frontier.
func mcpLoop(t *testing.T, m measure) (map[int]string, []int) {
	dir := t.TempDir()
	space := filepath.Join(dir, "space.toml")
	if err := os.WriteFile(space, []byte(realSpace), 0o644); err != nil {
		t.Fatal(err)
	}
	loc := filepath.Join(dir, "tune.db")
	cs := connect(t, mcpserver.Options{Store: loc})
	// One look per configuration (3 runs, --max-runs 3): the gate spends
	// its whole false-admit bound on it, so that the loop admits some.
	first := map[string]any{"study": "s", "space": space, "objectives": []string{"output_token_throughput:max", "ttft.p50:min"},
		"budget": 24, "repeats": 3, "max_runs": 3, "sampler": "sobol", "seed": 3}
	for i := 0; ; i++ {
		if i > 40 {
			t.Fatal("ask gave more than 40 runs for a budget of 16")
		}
		args := map[string]any{"study": "s"}
		if i == 0 {
			args = first
		}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			if strings.Contains(text(res), "budget") {
				break
			}
			t.Fatalf("ask: %s", text(res))
		}
		b, _ := json.Marshal(res.StructuredContent)
		var a tune.AskResult
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatal(err)
		}
		runDir := filepath.Join(dir, "run-"+strconv.FormatInt(a.Run, 10))
		out := call(t, cs, "tell", map[string]any{"study": "s", "trial": a.Run, "files": m(t, runDir, a)})
		schematest.Validate(t, "tell", out)
		var r tune.TellResult
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Mismatches) > 0 {
			t.Errorf("tell of run %d: mismatches %+v", a.Run, r.Mismatches)
		}
	}
	ctx := context.Background()
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tu, err := tune.OpenExisting(ctx, st, "s")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := tu.Summarize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	decisions := map[int]string{}
	for _, tr := range sum.Trials {
		decisions[tr.Number] = tr.Decision
	}
	return decisions, sum.Frontier
}

// config is the simulator's configuration of an asked run.
func config(t *testing.T, a tune.AskResult) (simulate.Config, uint64) {
	cfg, err := realbench.Config(func(k string) string { return a.Env[k] })
	if err != nil {
		t.Fatal(err)
	}
	seed, err := strconv.ParseUint(a.Env["PARETO_SEED"], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, seed
}

// TestTellRealOutputs: an agent that tells the MCP server the folders of
// its runs, where a real benchmark client (vLLM, SGLang, guidellm) left
// its result beside a server log and GPU telemetry, with no server
// settings in it, reaches the decisions and the frontier of the same loop
// told pareto simulate's results.
func TestTellRealOutputs(t *testing.T) {
	want, wantFront := mcpLoop(t, func(t *testing.T, dir string, a tune.AskResult) []string {
		cfg, seed := config(t, a)
		r, err := simulate.Run(cfg, simulate.DefaultHardware, simulate.DefaultNoise, seed)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, "result.json"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := simulate.WriteVLLM(f, &r); err != nil {
			t.Fatal(err)
		}
		return []string{f.Name()}
	})
	admitted := 0
	for _, d := range want {
		if d == "admit" {
			admitted++
		}
	}
	if admitted == 0 || len(wantFront) == 0 {
		t.Fatalf("the simulator's loop admitted nothing (%v), frontier %v: a weak reference", want, wantFront)
	}
	for _, format := range []string{"vllm", "sglang"} {
		t.Run(format, func(t *testing.T) {
			got, front := mcpLoop(t, func(t *testing.T, dir string, a tune.AskResult) []string {
				cfg, seed := config(t, a)
				if _, err := realbench.Write(dir, format, cfg, seed); err != nil {
					t.Fatal(err)
				}
				return []string{dir} // the folder, as pareto ingest reads it
			})
			for n, d := range want {
				if got[n] != d {
					t.Errorf("configuration %d: %q, told the simulator's results %q", n, got[n], d)
				}
			}
			if len(got) != len(want) || !slices.Equal(front, wantFront) {
				t.Errorf("%d configurations, frontier %v; told the simulator's results %d, %v", len(got), front, len(want), wantFront)
			}
		})
	}
}

// TestTellMismatch: a result file that records a server setting with
// another value than the run's is recorded with the run's value (its
// identity), the file's kept as a label, and the answer says so.
func TestTellMismatch(t *testing.T) {
	dir := t.TempDir()
	space := filepath.Join(dir, "space.toml")
	if err := os.WriteFile(space, []byte(realSpace), 0o644); err != nil {
		t.Fatal(err)
	}
	loc := filepath.Join(dir, "tune.db")
	cs := connect(t, mcpserver.Options{Store: loc})
	out := call(t, cs, "ask", map[string]any{"study": "s", "space": space, "objectives": []string{"output_token_throughput:max", "ttft.p50:min"},
		"budget": 4, "repeats": 2})
	var a tune.AskResult
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatal(err)
	}
	cfg, seed := config(t, a)
	cfg.MaxNumSeqs = 64 // the server ran with another setting than asked
	r, err := simulate.Run(cfg, simulate.DefaultHardware, simulate.DefaultNoise, seed)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "result.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := simulate.WriteVLLM(f, &r); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out = call(t, cs, "tell", map[string]any{"study": "s", "trial": a.Run, "files": []string{path}})
	schematest.Validate(t, "tell", out)
	var res tune.TellResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	want := tune.Mismatch{Param: "max_num_seqs", Value: "256", Recorded: "server_args.max_num_seqs", RecordedValue: "64",
		Label: "tune_file.server_args.max_num_seqs", Path: path}
	if len(res.Mismatches) != 1 || res.Mismatches[0] != want {
		t.Errorf("mismatches %+v, want [%+v]", res.Mismatches, want)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ts, err := st.Trials(ctx, "s", store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].Params["max_num_seqs"] != "256" || ts[0].Labels["tune_file.server_args.max_num_seqs"] != "64" {
		t.Errorf("stored trials %+v: want the run's max_num_seqs=256, the file's 64 as a label", ts)
	}
}
