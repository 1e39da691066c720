package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/internal/cli"
	"github.com/pareto-llm/pareto/internal/schematest"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/mcpserver"
	"github.com/pareto-llm/pareto/tune"
)

// connect runs a server with opts in-process and returns a client session
// on it (in-memory transports). Without roots, the server's are the
// repository (for its examples) and the test's temporary directories.
func connect(t *testing.T, opts mcpserver.Options) *mcp.ClientSession {
	t.Helper()
	if opts.Roots == nil {
		opts.Roots = []string{"..", filepath.Dir(t.TempDir())}
	}
	srv, err := mcpserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := t.Context()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls tool name with args and returns its structured content as
// JSON, failing on a tool error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) []byte {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error: %s", name, text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// callError calls tool name and returns its error text, failing unless it
// is a tool error.
func callError(t *testing.T, cs *mcp.ClientSession, name string, args any) string {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v, want a tool error", name, err)
	}
	if !res.IsError {
		t.Fatalf("%s: no error: %s", name, text(res))
	}
	return text(res)
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// wantTools are the tools the server must list.
var wantTools = []string{"archive", "ask", "front", "gate", "pick", "tell", "trials"}

func checkTools(t *testing.T, tools []*mcp.Tool) {
	t.Helper()
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
		in, _ := tool.InputSchema.(map[string]any)
		out, _ := tool.OutputSchema.(map[string]any)
		if in["type"] != "object" || out == nil || out["type"] == nil {
			t.Errorf("tool %s: input schema %v, output schema %v: want both, of type object", tool.Name, in["type"], out)
		}
		if tool.Description == "" {
			t.Errorf("tool %s has no description", tool.Name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, wantTools) {
		t.Errorf("tools %v, want %v", names, wantTools)
	}
}

// TestListTools lists the tools in-process: each has typed input and
// output schemas.
func TestListTools(t *testing.T) {
	cs := connect(t, mcpserver.Options{Store: filepath.Join(t.TempDir(), "s.db")})
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkTools(t, res.Tools)
}

// runCLI runs pareto in-process and returns stdout, failing on an exit
// status other than want.
func runCLI(t *testing.T, want int, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := cli.Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != want {
		t.Fatalf("pareto %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, stdout.String(), stderr.String())
	}
	return stdout.Bytes()
}

// TestAskSimulateTell drives a tuning study through the MCP tools on a
// SQLite store: ask gives a run, pareto simulate measures it into a vLLM
// result file, tell records the file, until tell answers with the gate's
// verdict on a candidate. Every answer validates against the schema of
// the command's JSON.
func TestAskSimulateTell(t *testing.T) {
	t.Run("store=sqlite", func(t *testing.T) { askSimulateTell(t, filepath.Join(t.TempDir(), "tune.db")) })
	t.Run("store=postgres", func(t *testing.T) { askSimulateTell(t, testenv.PostgresDatabase(t)) })
}

func askSimulateTell(t *testing.T, db string) {
	dir := t.TempDir()
	cs := connect(t, mcpserver.Options{Store: db})
	first := map[string]any{"study": "agent", "space": filepath.Join("..", "examples", "tune", "space.toml"),
		"objectives": []string{"output_token_throughput:max", "ttft.p99:min"}, "min_improve": []string{"3%"},
		"budget": 12, "repeats": 2, "max_runs": 2, "sampler": "sobol", "seed": 3}
	var verdict *tune.TellResult
	for i := 0; i < 12 && verdict == nil; i++ {
		args := map[string]any{"study": "agent"}
		if i == 0 {
			args = first
		}
		out := call(t, cs, "ask", args)
		schematest.Validate(t, "ask", out)
		var a tune.AskResult
		if err := json.Unmarshal(out, &a); err != nil {
			t.Fatal(err)
		}
		if i < 2 && a.Role != tune.RoleBaseline {
			t.Fatalf("ask %d: %s, want the baseline's runs first", i, out)
		}
		sim := []string{"simulate", "--seed", fmt.Sprint(a.Run), "--out", filepath.Join(dir, fmt.Sprintf("run-%d.json", a.Run))}
		for _, k := range slices.Sorted(mapKeys(a.Params)) {
			sim = append(sim, "--param", k+"="+a.Params[k].String())
		}
		runCLI(t, 0, sim...)
		out = call(t, cs, "tell", map[string]any{"study": "agent", "trial": a.Run, "files": []string{sim[4]}})
		schematest.Validate(t, "tell", out)
		var r tune.TellResult
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatal(err)
		}
		if r.Run != a.Run || r.Role != a.Role {
			t.Fatalf("tell %d answered for %s", a.Run, out)
		}
		if r.Verdict != nil {
			verdict = &r
		}
	}
	if verdict == nil {
		t.Fatal("no verdict after 12 runs")
	}
	if verdict.Role != tune.RoleCandidate || verdict.Decision != string(verdict.Verdict.Decision) || verdict.Verdict.Code == "" {
		t.Errorf("verdict %+v", verdict)
	}
	// The CLI sees the same study.
	status := runCLI(t, 0, "tune", "--status", "--store", db, "--study", "agent", "--format", "json")
	if !bytes.Contains(status, []byte(`"running":0`)) {
		t.Errorf("status after the loop: %s", status)
	}
	// Bad arguments are tool errors naming what is wrong.
	if msg := callError(t, cs, "tell", map[string]any{"study": "agent", "trial": 999, "values": map[string]float64{"ttft.p99": 1}}); !strings.Contains(msg, "999") {
		t.Errorf("tell of an unknown run: %q", msg)
	}
	if msg := callError(t, cs, "tell", map[string]any{"study": "agent", "trial": 1, "files": []string{filepath.Join(dir, "missing.json")}}); !strings.Contains(msg, "missing.json") {
		t.Errorf("tell of a missing file: %q", msg)
	}
	if msg := callError(t, cs, "ask", map[string]any{"study": "other"}); !strings.Contains(msg, "no tuning state") {
		t.Errorf("ask of a study without tuning state: %q", msg)
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// sameJSON fails unless a and b are the same JSON value.
func sameJSON(t *testing.T, what string, a, b []byte) {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, b)
	}
	if !reflect.DeepEqual(x, y) {
		t.Errorf("%s: MCP and CLI differ\nmcp: %s\ncli: %s", what, a, b)
	}
}

// toolWords is a command's JSON with the settings its verdict texts name
// in the tools' words: reasons and warnings name fields (decide.TextFields),
// which the command line phrases as its flags and the tools as their
// arguments; everything else is the same.
func toolWords(cli []byte) []byte {
	r := strings.NewReplacer("--min-improve", "min_improve", "--max-runs", "max_runs",
		"--max-baseline-runs", "max_baseline_runs", "--no-regression", "no_regression")
	return []byte(r.Replace(string(cli)))
}

// ingestDecide makes a store with the examples/decide baseline (role
// baseline) in study tune.
func ingestDecide(t *testing.T, db string) {
	t.Helper()
	runCLI(t, 0, "ingest", filepath.Join("..", "examples", "decide", "baseline-sglang-0.5.6.jsonl"), "--store", db, "--study", "tune",
		"--label", "role=baseline", "--session", "base")
}

// TestToolsMatchCLI asks the same questions of the tools and of the
// commands (--format json) on a small stored study: the structured output
// is the command's JSON.
func TestToolsMatchCLI(t *testing.T) {
	dir := t.TempDir()
	cand := filepath.Join("..", "examples", "decide", "candidate-sglang-0.5.6.jsonl")
	dbCLI, dbMCP := filepath.Join(dir, "cli.db"), filepath.Join(dir, "mcp.db")
	ingestDecide(t, dbCLI)
	ingestDecide(t, dbMCP)
	cs := connect(t, mcpserver.Options{Store: dbMCP})

	gateCLI := runCLI(t, 0, "gate", "--store", dbCLI, "--study", "tune", "--candidate", cand, "--baseline", "role=baseline",
		"-o", "output_token_throughput:max", "-o", "ttft.p99:min", "--min-improve", "3%", "--session", "cand",
		"--max-runs", "3", "--max-baseline-runs", "5") // one look: the example's runs are all there are
	gateMCP := call(t, cs, "gate", map[string]any{"study": "tune", "candidate": []string{cand}, "baseline": "role=baseline",
		"objectives": []string{"output_token_throughput:max", "ttft.p99:min"}, "min_improve": []string{"3%"}, "session": "cand",
		"max_runs": 3, "max_baseline_runs": 5})
	schematest.Validate(t, "gate", gateMCP)
	sameJSON(t, "gate", gateMCP, toolWords(gateCLI))

	frontCLI := runCLI(t, 0, "front", "--store", dbCLI, "--study", "tune", "-o", "output_token_throughput:max", "-o", "ttft.p99:min",
		"--noise", "2%", "--format", "json")
	frontMCP := call(t, cs, "front", map[string]any{"study": "tune", "objectives": []string{"output_token_throughput:max", "ttft.p99:min"},
		"noise": []string{"2%"}})
	schematest.Validate(t, "front", frontMCP)
	sameJSON(t, "front", frontMCP, frontCLI)

	pickCLI := runCLI(t, 0, "pick", "--store", dbCLI, "--study", "tune", "--maximize", "output_token_throughput", "--minimize", "ttft.p99",
		"--slo", "ttft.p99<=2000", "--format", "json")
	pickMCP := call(t, cs, "pick", map[string]any{"study": "tune", "maximize": []string{"output_token_throughput"},
		"minimize": []string{"ttft.p99"}, "slos": []string{"ttft.p99<=2000"}})
	schematest.Validate(t, "pick", pickMCP)
	sameJSON(t, "pick", pickMCP, pickCLI)

	archCLI := runCLI(t, 0, "gate", "--store", dbCLI, "--study", "tune", "--archive-list")
	var arch struct {
		Members json.RawMessage `json:"members"`
	}
	json.Unmarshal(call(t, cs, "archive", map[string]any{"study": "tune"}), &arch)
	schematest.Validate(t, "gate-archive", arch.Members)
	sameJSON(t, "archive", arch.Members, archCLI)

	trialsCLI := runCLI(t, 0, "trials", "--store", dbCLI, "--study", "tune", "--where", "gate=admitted")
	var tr struct {
		Trials    []json.RawMessage `json:"trials"`
		Truncated bool              `json:"truncated"`
	}
	json.Unmarshal(call(t, cs, "trials", map[string]any{"study": "tune", "where": []string{"gate=admitted"}}), &tr)
	lines := bytes.Split(bytes.TrimSpace(trialsCLI), []byte("\n"))
	if len(tr.Trials) != len(lines) || len(lines) == 0 || tr.Truncated {
		t.Fatalf("trials: %d from MCP (truncated %v), %d from the CLI", len(tr.Trials), tr.Truncated, len(lines))
	}
	for i := range lines {
		sameJSON(t, fmt.Sprintf("trial %d", i), tr.Trials[i], lines[i])
	}
	json.Unmarshal(call(t, cs, "trials", map[string]any{"study": "tune", "limit": 2}), &tr)
	if len(tr.Trials) != 2 || !tr.Truncated {
		t.Errorf("trials with limit 2: %d, truncated %v", len(tr.Trials), tr.Truncated)
	}

	// Errors are tool errors naming the argument or the file.
	if msg := callError(t, cs, "front", map[string]any{"study": "tune", "objectives": []string{"ttft.p99:up"}}); !strings.Contains(msg, "ttft.p99:up") {
		t.Errorf("front with a bad objective: %q", msg)
	}
	if msg := callError(t, cs, "pick", map[string]any{"files": []string{filepath.Join(dir, "nope.jsonl")}, "maximize": []string{"output_token_throughput"}}); !strings.Contains(msg, "nope.jsonl") {
		t.Errorf("pick of a missing file: %q", msg)
	}
	if msg := callError(t, cs, "trials", map[string]any{"study": "tune", "where": []string{"key=zz"}}); !strings.Contains(msg, "key=HEX") {
		t.Errorf("trials with a bad key: %q", msg)
	}
}

// TestReadOnlyTools checks that the reading tools leave the store's data
// as it was.
func TestReadOnlyTools(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	ingestDecide(t, db)
	snap := func() map[string]string {
		m := map[string]string{}
		es, _ := os.ReadDir(dir)
		for _, e := range es {
			b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			m[e.Name()] = string(b)
		}
		return m
	}
	before := snap()
	cs := connect(t, mcpserver.Options{Store: db})
	call(t, cs, "front", map[string]any{"study": "tune", "objectives": []string{"output_token_throughput:max", "ttft.p99:min"}})
	call(t, cs, "pick", map[string]any{"study": "tune", "maximize": []string{"output_token_throughput"}})
	call(t, cs, "trials", map[string]any{"study": "tune"})
	call(t, cs, "archive", map[string]any{"study": "tune"})
	after := snap()
	for name := range mergeKeys(before, after) {
		// SQLite's shared-memory index and an empty write-ahead log are
		// what any reader of a WAL database makes (the commands' too).
		if strings.HasSuffix(name, "-shm") || strings.HasSuffix(name, "-wal") && after[name] == "" {
			continue
		}
		if before[name] != after[name] {
			t.Errorf("a reading tool changed %s (%d bytes before, %d after)", name, len(before[name]), len(after[name]))
		}
	}
}

func mergeKeys(a, b map[string]string) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// TestStdio runs pareto mcp as a subprocess (the test binary standing in
// for pareto) and talks to it over stdio: initialize and tools/list.
func TestStdio(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "mcp", "--store", filepath.Join(t.TempDir(), "s.db"))
	cmd.Env = append(os.Environ(), "PARETO_MCP_TEST_MAIN=1")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if init := cs.InitializeResult(); init == nil || init.ServerInfo.Name != "pareto" {
		t.Errorf("initialize: %+v", init)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkTools(t, res.Tools)
}

// TestMain runs the test binary as pareto when PARETO_MCP_TEST_MAIN is
// set (TestStdio's subprocess).
func TestMain(m *testing.M) {
	if os.Getenv("PARETO_MCP_TEST_MAIN") == "1" {
		os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestLimits checks that the server's input limits bound the files the
// tools read (pareto mcp --max-input-size).
func TestLimits(t *testing.T) {
	cs := connect(t, mcpserver.Options{Store: filepath.Join(t.TempDir(), "s.db"), Limits: ingest.Limits{MaxInputSize: 100}})
	file := filepath.Join("..", "examples", "decide", "baseline-sglang-0.5.6.jsonl")
	msg := callError(t, cs, "pick", map[string]any{"files": []string{file}, "maximize": []string{"output_token_throughput"}})
	if !strings.Contains(msg, "baseline-sglang-0.5.6.jsonl") || !strings.Contains(msg, "over the size limit") {
		t.Errorf("pick of a file over the limit: %q", msg)
	}
}

// TestSecretsInErrors checks that a store URL's password never reaches a
// tool's answer.
func TestSecretsInErrors(t *testing.T) {
	cs := connect(t, mcpserver.Options{})
	url := "postgres://pareto:hunter2secret@127.0.0.1:1/none?connect_timeout=1"
	for _, tool := range []string{"trials", "ask", "archive"} {
		msg := callError(t, cs, tool, map[string]any{"study": "s", "store": url})
		if strings.Contains(msg, "hunter2secret") || !strings.Contains(msg, "127.0.0.1") && !strings.Contains(msg, "postgres") {
			t.Errorf("%s: the answer shows the password: %q", tool, msg)
		}
	}
}

// TestTokensInAnswers plants credentials recognisable by their format in
// a table's cells — one a number column holds, which the error quotes,
// and one a text column holds, which the trials answer shows — and checks
// that neither a tool's error nor its answer shows them.
func TestTokensInAnswers(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	const inCell, inText = "ghp_PLANTEDcellzqkkkkkkkkkkkkkkkkkkkkkkkkkk", "hf_PLANTEDtextzqkkkkkkkkkkkkkkkkkkkkkkkkkk"
	if err := os.WriteFile(bad, []byte("id,ttft_p99,tps\na,Bearer "+inCell+",10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.csv")
	if err := os.WriteFile(good, []byte("id,ttft_p99,tps,model\na,5,10,"+inText+"\nb,7,12,m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	vllm := filepath.Join(dir, "v.json")
	if err := os.WriteFile(vllm, []byte(`{"date":"x","backend":"vllm","model_id":"m","completed":10,"median_ttft_ms":"Bearer xoxb-PLANTEDnumzqkkkkkkkkkkkkkkkkkk"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "s.db")
	runCLI(t, 0, "ingest", good, "--store", db, "--study", "s")
	cs := connect(t, mcpserver.Options{Store: db})
	answers := map[string]string{
		"front invalid": string(call(t, cs, "front", map[string]any{"files": []string{bad}, "objectives": []string{"ttft_p99:min", "tps:max"}, "aggregate": "none"})),
		"trials":        string(call(t, cs, "trials", map[string]any{"study": "s"})),
		"front error":   callError(t, cs, "front", map[string]any{"files": []string{vllm}, "objectives": []string{"ttft.p50", "output_token_throughput"}}),
		"front":         string(call(t, cs, "front", map[string]any{"files": []string{good}, "objectives": []string{"ttft_p99:min", "tps:max"}})),
	}
	for what, text := range answers {
		for _, tok := range []string{"PLANTEDcellzq", "PLANTEDtextzq", "PLANTEDnumzq"} {
			if strings.Contains(text, tok) {
				t.Errorf("%s shows the planted %s: %.300s", what, tok, text)
			}
		}
	}
}

// TestTellRefused: the MCP tools lease runs as pareto ask does, by
// driver and attempt, and tell is complete or refused: a tell missing
// one of the study's objectives is a tool error naming the argument and
// the objective, nothing is recorded, and the next complete tell is.
func TestTellRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tune.db")
	cs := connect(t, mcpserver.Options{Store: db})
	out := call(t, cs, "ask", map[string]any{"study": "agent", "space": filepath.Join("..", "examples", "tune", "space.toml"),
		"objectives": []string{"output_token_throughput:max", "ttft.p99:min"}, "budget": 6, "repeats": 2, "sampler": "sobol",
		"driver": "lane-1", "lease": "30m", "max_attempts": 2})
	schematest.Validate(t, "ask", out)
	var a tune.AskResult
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatal(err)
	}
	if a.Driver != "lane-1" || a.Attempt != 1 || time.Until(a.LeaseUntil) < 29*time.Minute {
		t.Fatalf("ask = %s", out)
	}
	if msg := callError(t, cs, "tell", map[string]any{"study": "agent", "trial": a.Run, "values": map[string]float64{"ttft.p99": 100}, "driver": "lane-1"}); !strings.HasPrefix(msg, "values: ") || !strings.Contains(msg, "output_token_throughput") {
		t.Errorf("tell missing an objective: %q", msg)
	}
	if msg := callError(t, cs, "tell", map[string]any{"study": "agent", "trial": a.Run, "values": map[string]float64{"ttft.p99": 100, "output_token_throughput": 1000}}); !strings.Contains(msg, "held by ask:lane-1") {
		t.Errorf("tell by another driver: %q", msg)
	}
	if msg := callError(t, cs, "ask", map[string]any{"study": "agent", "lease": "soon"}); !strings.Contains(msg, `lease "soon"`) {
		t.Errorf("ask with a bad lease: %q", msg)
	}
	status := runCLI(t, 0, "tune", "--status", "--store", db, "--study", "agent", "--format", "json")
	if !bytes.Contains(status, []byte(`"complete":0`)) || !bytes.Contains(status, []byte(`"running":1`)) {
		t.Errorf("status after the refused tells: %s", status)
	}
	trials := runCLI(t, 0, "trials", "--store", db, "--study", "agent", "--format", "csv")
	if bytes.Contains(trials, []byte("tell:run")) {
		t.Errorf("a refused tell recorded trials:\n%s", trials)
	}
	out = call(t, cs, "tell", map[string]any{"study": "agent", "trial": a.Run, "values": map[string]float64{"ttft.p99": 100, "output_token_throughput": 1000},
		"driver": "lane-1", "attempt": a.Attempt})
	schematest.Validate(t, "tell", out)
	if !bytes.Contains(out, []byte(`"decision":"none"`)) {
		t.Errorf("complete tell: %s", out)
	}
}

// TestTellStalled: a candidate the gate cannot tell apart from an archive
// member this study did not tune (ingested, labelled admitted) is stalled,
// and tell's stalled names the archive tool's revoke, in the tools' words
// (internal/cli's tell_stalled.txtar is the command line's).
func TestTellStalled(t *testing.T) {
	dir := t.TempDir()
	db, space, member := filepath.Join(dir, "t.db"), filepath.Join(dir, "space.toml"), filepath.Join(dir, "member.jsonl")
	if err := os.WriteFile(space, []byte("[params.max_num_seqs]\nvalues = [64, 128, 256, 512]\ndefault = 256\n\n"+
		"[params.enable_chunked_prefill]\nvalues = [true, false]\ndefault = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i, v := range []string{"1115.5", "1150", "1184.5"} {
		lines = append(lines, fmt.Sprintf(`{"id":"member-%d","source":{"path":"member.jsonl","format":"tell","line":%d},"labels":{"gate":"admitted"},`+
			`"params":{"max_num_seqs":"1024","enable_chunked_prefill":"true"},"workload":{},"succeeded":0,`+
			`"measurements":[{"metric":"output_token_throughput","value":%s,"native":"output_token_throughput"}]}`, i+1, i+1, v))
	}
	if err := os.WriteFile(member, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, mcpserver.Options{Store: db})
	var out []byte
	measure := func(ask map[string]any, value float64) {
		t.Helper()
		var a tune.AskResult
		if err := json.Unmarshal(call(t, cs, "ask", ask), &a); err != nil {
			t.Fatal(err)
		}
		out = call(t, cs, "tell", map[string]any{"study": "agent", "trial": a.Run, "values": map[string]float64{"output_token_throughput": value}})
	}
	measure(map[string]any{"study": "agent", "space": space, "objectives": []string{"output_token_throughput:max"}, "noise": []string{"3%"},
		"min_improve": []string{"3%"}, "budget": 20, "repeats": 3, "sampler": "sobol", "seed": 1}, 995)
	for _, v := range []float64{1000, 1005} {
		measure(map[string]any{"study": "agent"}, v)
	}
	runCLI(t, 0, "ingest", member, "--store", db, "--study", "agent")
	for _, v := range []float64{1235.8, 1242, 1248.2} {
		measure(map[string]any{"study": "agent"}, v)
	}
	schematest.Validate(t, "tell", out)
	var res tune.TellResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if res.Decision != "inconclusive" || !strings.Contains(res.Stalled, "; remove it from the archive (the archive tool's revoke key:") ||
		strings.Contains(res.Stalled, "pareto gate") {
		t.Errorf("tell = %s; want inconclusive, stalled naming the archive tool's revoke", out)
	}
}
