package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/trial"
)

// planted collects the secrets a test plants in copies of real fixtures,
// each a distinct string, so that a leak names the secret that leaked.
type planted struct {
	t       *testing.T
	secrets []string
	names   map[string]string // secret -> where it was planted
}

// secret returns a new secret for the place where, e.g. "aiperf
// endpoint.api_key".
func (p *planted) secret(where string) string {
	s := fmt.Sprintf("PLANTED%02dzq%s", len(p.secrets), strings.Repeat("x", 6))
	p.secrets = append(p.secrets, s)
	p.names[s] = where
	return s
}

// check fails the test for every secret found in text (what is the output
// being checked, for the message).
func (p *planted) check(what, text string) {
	p.t.Helper()
	for _, s := range p.secrets {
		if strings.Contains(text, s) {
			i := strings.Index(text, s)
			lo, hi := max(0, i-80), min(len(text), i+len(s)+40)
			p.t.Errorf("%s leaks the secret planted as %s: ...%s...", what, p.names[s], text[lo:hi])
		}
	}
}

// hasMarker reports whether text shows trial.Redacted, plain, JSON-escaped
// or HTML-escaped.
func hasMarker(text string) bool {
	return strings.Contains(text, trial.Redacted) || strings.Contains(text, `\u003credacted\u003e`) ||
		strings.Contains(text, "&lt;redacted&gt;")
}

// fixture reads a file of the repository.
func fixture(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// replace replaces old by new in s n times (-1: all), failing the test
// when old is not there: a fixture that changed must not make the planting
// silently vanish.
func replace(t *testing.T, s, old, new string, n int) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("fixture lacks %q", old)
	}
	return strings.Replace(s, old, new, n)
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runMain runs the pareto command in-process.
func runMain(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// plantAIPerf returns the real AIPerf fixture with secrets at every place
// AIPerf writes one (config headers, keys, URLs, the command line), plus a
// canary parameter that must be stored as is. slow adds an escaped key so
// that the jsontext reader is used instead of the fast scanner.
func plantAIPerf(t *testing.T, p *planted, slow bool) string {
	tag := "aiperf fast"
	if slow {
		tag = "aiperf slow"
	}
	s := fixture(t, "ingest/testdata/aiperf/aiperf-repo_tests-artifacts_dev-0.8.0_configV2_mock_c4_profile_export_aiperf.json")
	s = replace(t, s, `"endpoint": {`, fmt.Sprintf(`"endpoint": {
      "api_key": %q,
      "headers": {"Authorization": "Bearer %s", "X-Api-Key": %q, "Cookie": "session=%s"},`,
		p.secret(tag+" endpoint.api_key"), p.secret(tag+" endpoint.headers.Authorization"),
		p.secret(tag+" endpoint.headers.X-Api-Key"), p.secret(tag+" endpoint.headers.Cookie")), 1)
	s = replace(t, s, `"http://aiperf-mock-server.default.svc.cluster.local:8000/v1"`,
		fmt.Sprintf(`"https://bench:%s@aiperf-mock-server.default.svc.cluster.local:8000/v1?api_key=%s"`,
			p.secret(tag+" endpoint.urls password"), p.secret(tag+" endpoint.urls query")), 1)
	s = replace(t, s, `"tokenizer": {`, fmt.Sprintf(`"input": {"headers": [["Authorization", "Bearer %s"], ["X-Api-Key", %q]]},
    "api-key": %q,
    "apiKey": %q,
    "note": "canary-visible-3141",
    "tokenizer": {`,
		p.secret(tag+" input.headers Authorization pair"), p.secret(tag+" input.headers X-Api-Key pair"),
		p.secret(tag+" input_config api-key"), p.secret(tag+" input_config apiKey")), 1)
	s = replace(t, s, `--request-count 64`, fmt.Sprintf(`--request-count 64 --api-key %s --header 'Authorization: Bearer %s' --hf-token=%s`,
		p.secret(tag+" cli_command --api-key"), p.secret(tag+" cli_command -H Authorization"),
		p.secret(tag+" cli_command --hf-token=")), 1)
	top := fmt.Sprintf(`{
  "api_key": %q,`, p.secret(tag+" top-level api_key"))
	if slow {
		top += "\n  \"x\\u002dnote\": \"slow\","
	}
	return replace(t, s, "{", top, 1)
}

// plantServing returns copies of real vLLM, SGLang and vLLM nightly
// results with secrets in the server settings and extra members the
// readers keep as parameters.
func plantServing(t *testing.T, p *planted) (vllm, sglang, nightly string) {
	vllm = fixture(t, "ingest/testdata/vllm/surajssd_llama33-70b_tp8_qps_01.json")
	vllm = replace(t, vllm, `{"date"`, fmt.Sprintf(`{"api_key": %q, "hf_token": %q, "headers": {"Authorization": "Bearer %s"}, "base_url": "https://u:%s@vllm.example:8000", "date"`,
		p.secret("vllm api_key"), p.secret("vllm hf_token"), p.secret("vllm headers.Authorization"), p.secret("vllm base_url password")), 1)
	sg := fixture(t, "ingest/testdata/sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl")
	sg = replace(t, sg, `{"backend": "sglang",`, fmt.Sprintf(`{"server_info": {"api_key": %q, "admin_api_key": %q, "hf_token": %q, "tp_size": 4, "model_path": "meta-llama/Llama-3.3-70B-Instruct"}, "backend": "sglang",`,
		p.secret("sglang server_info.api_key"), p.secret("sglang server_info.admin_api_key"), p.secret("sglang server_info.hf_token")), -1)
	nightly = fixture(t, "ingest/testdata/vllm/surajssd_llama33-70b_tp8_nightly_benchmark_results.json")
	nightly = replace(t, nightly, `{"Test name": `, fmt.Sprintf(`{"Api Key": %q, "Server URL": "https://admin:%s@serve.example", "Test name": `,
		p.secret("nightly Api Key column"), p.secret("nightly Server URL password")), -1)
	return vllm, sg, nightly
}

// plantGuideLLM returns the real guidellm report with secrets in the
// backend's api_key, headers and target URL.
func plantGuideLLM(t *testing.T, p *planted) string {
	s := fixture(t, "ingest/testdata/other/guidellm_report_v2_llm-d-benchmark-fixture_mock.json")
	key, auth, pass := p.secret("guidellm backend.api_key"), p.secret("guidellm backend.headers.Authorization"), p.secret("guidellm target password")
	s = replace(t, s, `"api_key": null`, fmt.Sprintf(`"api_key": %q`, key), -1)
	s = replace(t, s, `"kind": "openai_http",`, fmt.Sprintf(`"kind": "openai_http", "headers": {"Authorization": "Bearer %s"},`, auth), -1)
	return replace(t, s, `"target": "http://127.0.0.1:8765"`, fmt.Sprintf(`"target": "http://user:%s@127.0.0.1:8765"`, pass), -1)
}

// plantTables returns a generic CSV table and a pareto-jsonl export (hand
// made, as an older export or a user's tool would write it) with secrets.
func plantTables(t *testing.T, p *planted) (csv, jsonl string) {
	csv = fmt.Sprintf("id,api_key,endpoint,cmd,ttft_p99,output_token_throughput\n"+
		"a,%s,https://u:%s@h:1/v1,serve --token %s,100,1000\n"+
		"b,%s,http://h:1/v1,serve,120,1200\n",
		p.secret("csv api_key column"), p.secret("csv endpoint password"), p.secret("csv cmd --token"), p.secret("csv api_key column row 2"))
	jsonl = fmt.Sprintf(`{"id":"0123456789abcdef","source":{"path":"x.json","format":"vllm"},"labels":{"url":"https://u:%s@h"},`+
		`"params":{"api_key":%q,"cmd":"vllm serve --api-key %s","HF_TOKEN":%q},"workload":{},"succeeded":10,"failed":0,`+
		`"measurements":[{"metric":"ttft","dims":{"statistic":"p99"},"value":100,"unit":"ms"},{"metric":"output_token_throughput","value":1000,"unit":"tokens/s"}]}`+"\n",
		p.secret("jsonl labels.url password"), p.secret("jsonl params.api_key"), p.secret("jsonl params.cmd --api-key"), p.secret("jsonl params.HF_TOKEN"))
	return csv, jsonl
}

// copyTree copies the directory src of the repository to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	root := filepath.Join("..", "..", src)
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// plantCloudAI copies examples/cloudai to dir and plants secrets in every
// executed configuration (command lines, cmd_args, extra_env_vars, an
// AIPerf phase), in the scenario (read for the run whose test-run.toml is
// removed) and in a Dynamo failure marker.
func plantCloudAI(t *testing.T, p *planted, dir string) {
	copyTree(t, "examples/cloudai", dir)
	fullA, fullB, fullC := p.secret("cloudai full_cmd --api-key"), p.secret("cloudai full_cmd --hf-token"), p.secret("cloudai full_cmd -H Authorization")
	testCmd := p.secret("cloudai test_cmd --token=")
	argKey, argHF := p.secret("cloudai cmd_args.api_key"), p.secret("cloudai cmd_args.hf_token")
	env := []string{p.secret("cloudai extra_env_vars.HF_TOKEN"), p.secret("cloudai extra_env_vars.OPENAI_API_KEY"),
		p.secret("cloudai extra_env_vars.NGC_API_KEY"), p.secret("cloudai extra_env_vars.DB_PASSWORD")}
	envText := fmt.Sprintf("HF_TOKEN = %q\nOPENAI_API_KEY = %q\nNGC_API_KEY = %q\nDB_PASSWORD = %q\n", env[0], env[1], env[2], env[3])
	phaseKey := p.secret("cloudai aiperf_phases.args.api-key")
	runs, err := filepath.Glob(filepath.Join(dir, "results", "*", "*", "test-run.toml"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(dir, "results", "*", "*", "*", "test-run.toml"))
	runs = append(runs, more...)
	if len(runs) < 5 {
		t.Fatalf("only %d test-run.toml files in the example", len(runs))
	}
	for _, path := range runs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		s = replace(t, s, `full_cmd = "synthetic"`, fmt.Sprintf(`full_cmd = "srun vllm serve --api-key %s --hf-token '%s' && curl -H 'Authorization: Bearer %s' http://localhost:8000/health"`, fullA, fullB, fullC), 1)
		s = replace(t, s, `test_cmd = "synthetic"`, fmt.Sprintf(`test_cmd = "bench --token=%s"`, testCmd), 1)
		s = replace(t, s, "[test_definition.cmd_args]\n", fmt.Sprintf("[test_definition.cmd_args]\napi_key = %q\nhf_token = %q\n", argKey, argHF), 1)
		if strings.Contains(s, "[test_definition.extra_env_vars]\n") {
			s = strings.Replace(s, "[test_definition.extra_env_vars]\n", "[test_definition.extra_env_vars]\n"+envText, 1)
		} else {
			s += "\n[test_definition.extra_env_vars]\n" + envText
		}
		s = strings.ReplaceAll(s, "request-count = 50\n", fmt.Sprintf("request-count = 50\napi-key = %q\n", phaseKey))
		writeFile(t, path, s)
	}
	// vllm.agg.1node/1 is read from the scenario merged over the tests.
	if err := os.Remove(filepath.Join(dir, "results", "vllm.agg.1node", "1", "test-run.toml")); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "scenario.toml")
	b, err := os.ReadFile(scen)
	if err != nil {
		t.Fatal(err)
	}
	s := replace(t, string(b), "  [Tests.extra_env_vars]\n  CUDA_VISIBLE_DEVICES = \"0,1,2,3\"\n",
		fmt.Sprintf("  [Tests.extra_env_vars]\n  CUDA_VISIBLE_DEVICES = \"0,1,2,3\"\n  HF_TOKEN = %q\n", p.secret("cloudai scenario extra_env_vars.HF_TOKEN")), 1)
	s = replace(t, s, "  [Tests.cmd_args]\n", fmt.Sprintf("  [Tests.cmd_args]\n  api_key = %q\n", p.secret("cloudai scenario cmd_args.api_key")), 1)
	writeFile(t, scen, s)
	writeFile(t, filepath.Join(dir, "results", "test.disagg.1p1d.multinode-wideep", "0", "failure-marker.txt"),
		fmt.Sprintf("aiperf profile --api-key %s exited 1\n", p.secret("cloudai failure marker line")))
}

// TestNoSecretLeaks plants secrets in copies of real result files of every
// reader and of a CloudAI tree, runs the commands that store, export and
// draw them, and checks that no planted secret reaches the store file, any
// output or log, or a report page, while the redaction marker shows that a
// secret was there.
func TestNoSecretLeaks(t *testing.T) {
	p := &planted{t: t, names: map[string]string{}}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	vllm, sglang, nightly := plantServing(t, p)
	csv, jsonl := plantTables(t, p)
	files := map[string]string{ // study -> planted file
		"aiperf-fast": filepath.Join(in, "fast", "profile_export_aiperf.json"),
		"aiperf-slow": filepath.Join(in, "slow", "profile_export_aiperf.json"),
		"vllm":        filepath.Join(in, "vllm", "qps_01.json"),
		"sglang":      filepath.Join(in, "sglang", "online_output.jsonl"),
		"nightly":     filepath.Join(in, "nightly", "nightly_benchmark_results.json"),
		"guidellm":    filepath.Join(in, "guidellm", "guidellm_report.json"),
		"table":       filepath.Join(in, "table", "runs.csv"),
		"jsonl":       filepath.Join(in, "jsonl", "export.jsonl"),
	}
	writeFile(t, files["aiperf-fast"], plantAIPerf(t, p, false))
	writeFile(t, files["aiperf-slow"], plantAIPerf(t, p, true))
	writeFile(t, files["vllm"], vllm)
	writeFile(t, files["sglang"], sglang)
	writeFile(t, files["nightly"], nightly)
	writeFile(t, files["guidellm"], plantGuideLLM(t, p))
	writeFile(t, files["table"], csv)
	writeFile(t, files["jsonl"], jsonl)
	cloud := filepath.Join(dir, "cloudai")
	plantCloudAI(t, p, cloud)

	store := filepath.Join(dir, "s.db")
	outputs := map[string]string{} // what -> text
	run := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := runMain(args...)
		what := "pareto " + strings.Join(args, " ")
		outputs[what+" (stdout)"] = stdout
		outputs[what+" (stderr)"] = stderr
		// pick exits 1 when nothing is feasible (the guidellm mock's
		// trials have no successful request); everything else must work,
		// or its empty output would prove nothing.
		if code != 0 && !(args[0] == "pick" && code == 1) || stdout == "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", what, code, stdout, stderr)
		}
		return stdout
	}
	studies := slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	})
	for _, study := range studies {
		run("ingest", files[study], "--store", store, "--study", study)
		for _, f := range []string{"jsonl", "csv"} {
			run("trials", "--store", store, "--study", study, "--format", f)
		}
		for _, f := range []string{"json", "env", "toml", "text"} {
			run("pick", "--store", store, "--study", study, "--maximize", "output_token_throughput", "--format", f)
		}
		run("front", "--store", store, "--study", study, "-o", "ttft.p99", "-o", "output_token_throughput", "--format", "json")
		ttft := "ttft.p99"
		if study == "table" {
			ttft = "ttft_p99:min"
		}
		run("front", files[study], "-o", ttft, "-o", "output_token_throughput:max", "--format", "json", "--aggregate", "none")
		page := filepath.Join(dir, study+".html")
		run("report", "--store", store, "--study", study, "-x", "ttft.p99", "-y", "output_token_throughput", "--out", page)
		if b, err := os.ReadFile(page); err == nil {
			outputs["report page of "+study] = string(b)
		} else {
			t.Errorf("no report page for %s: %v", study, err)
		}
	}
	run("ingest", cloud+"/results", "--store", store, "--study", "cloudai-ingest", "--gpus-per-node", "8")
	run("generate-report", "--test-scenario", cloud+"/scenario.toml", "--system-config", cloud+"/system.toml",
		"--tests-dir", cloud+"/tests", "--result-dir", cloud+"/results", "--store", store, "--study", "cloudai")
	if b, err := os.ReadFile(filepath.Join(cloud, "results", "pareto.html")); err == nil {
		outputs["generate-report page"] = string(b)
	} else {
		t.Errorf("generate-report wrote no page: %v", err)
	}
	for _, study := range []string{"cloudai", "cloudai-ingest"} {
		run("trials", "--store", store, "--study", study, "--format", "jsonl")
		run("trials", "--store", store, "--study", study, "--format", "csv")
		for _, f := range []string{"json", "env", "toml"} {
			run("pick", "--store", store, "--study", study, "--maximize", "output_token_throughput", "--format", f)
		}
		run("front", "--store", store, "--study", study, "-o", "ttft.p99", "-o", "output_token_throughput", "--format", "json")
	}
	page := filepath.Join(dir, "cloudai-store.html")
	run("report", "--store", store, "--study", "cloudai", "-x", "ttft.p99", "-y", "output_token_throughput", "--out", page)
	if b, err := os.ReadFile(page); err == nil {
		outputs["report page of cloudai"] = string(b)
	}

	// The store: its file and journal bytes. The canary shows that the
	// bytes are searchable text, so that the check cannot pass vacuously.
	stored, _ := filepath.Glob(store + "*")
	var db strings.Builder
	for _, f := range stored {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		db.Write(b)
	}
	if !strings.Contains(db.String(), "canary-visible-3141") {
		t.Fatalf("the canary parameter is not in the store bytes (%v): the leak check would see nothing", stored)
	}
	p.check("the store "+store, db.String())
	if !hasMarker(db.String()) {
		t.Errorf("the store holds no %s marker", trial.Redacted)
	}
	for _, what := range slices.Sorted(func(yield func(string) bool) {
		for k := range outputs {
			if !yield(k) {
				return
			}
		}
	}) {
		p.check(what, outputs[what])
	}
	// The marker shows where a secret was.
	for _, what := range []string{
		"pareto trials --store " + store + " --study aiperf-fast --format jsonl (stdout)",
		"pareto trials --store " + store + " --study aiperf-slow --format csv (stdout)",
		"pareto trials --store " + store + " --study guidellm --format jsonl (stdout)",
		"pareto trials --store " + store + " --study sglang --format jsonl (stdout)",
		"pareto trials --store " + store + " --study table --format csv (stdout)",
		"pareto trials --store " + store + " --study jsonl --format jsonl (stdout)",
		"pareto trials --store " + store + " --study cloudai --format jsonl (stdout)",
		"pareto pick --store " + store + " --study sglang --maximize output_token_throughput --format json (stdout)",
		"pareto pick --store " + store + " --study aiperf-fast --maximize output_token_throughput --format toml (stdout)",
		"pareto pick --store " + store + " --study cloudai --maximize output_token_throughput --format env (stdout)",
		"report page of jsonl",
		"generate-report page",
	} {
		text, ok := outputs[what]
		if !ok {
			t.Errorf("no output %q", what)
			continue
		}
		if !hasMarker(text) {
			t.Errorf("%s shows no %s marker:\n%.600s", what, trial.Redacted, text)
		}
	}
	gen := outputs["generate-report page"]
	for _, want := range []string{`HF_TOKEN = \"\u003credacted\u003e\"`, `--api-key \u003credacted\u003e`} {
		if !strings.Contains(gen, want) {
			t.Errorf("generate-report page lacks the redacted executed TOML %s", want)
		}
	}
}

// TestNoSecretLeaksOptuna plants secrets in an Optuna study (a categorical
// parameter, user attributes) made by Debian's python3-optuna and reads it
// with front --optuna.
func TestNoSecretLeaksOptuna(t *testing.T) {
	if _, err := testenv.PythonModule("optuna"); err != nil {
		testenv.Missing(t, "python3-optuna is not installed: %v", err)
	}
	p := &planted{t: t, names: map[string]string{}}
	dir := t.TempDir()
	key, token, pass, cmd := p.secret("optuna param api_key"), p.secret("optuna user attr hf_token"),
		p.secret("optuna user attr endpoint password"), p.secret("optuna user attr cmd --api-key")
	script := fmt.Sprintf(`import sys, optuna
optuna.logging.set_verbosity(optuna.logging.WARNING)
def objective(trial):
    x = trial.suggest_int("concurrency", 1, 64)
    trial.suggest_categorical("api_key", [%q])
    trial.set_user_attr("hf_token", %q)
    trial.set_user_attr("endpoint", "https://bench:%s@serve.example/v1")
    trial.set_user_attr("cmd", "vllm serve --api-key %s")
    return 10.0 + x, 100.0 * x
s = optuna.create_study(storage=sys.argv[1], study_name="leak", directions=["minimize", "maximize"],
                        sampler=optuna.samplers.RandomSampler(seed=1))
s.optimize(objective, n_trials=6)
`, key, token, pass, cmd)
	db := filepath.Join(dir, "optuna.db")
	out, err := exec.Command(testenv.Python, "-I", "-W", "ignore", "-c", script, "sqlite:///"+db).CombinedOutput()
	if err != nil {
		t.Fatalf("making the study: %v\n%s", err, out)
	}
	// front is the command that reads Optuna; its groups are named by the
	// value of a label or parameter, which shows what was read.
	var all strings.Builder
	for _, args := range [][]string{
		{"front", "--optuna", db, "--aggregate", "none", "--format", "json"},
		{"front", "--optuna", db, "--aggregate", "none", "--format", "csv", "--group-by", "hf_token"},
		{"front", "--optuna", db, "--aggregate", "none", "--format", "json", "--group-by", "endpoint"},
		{"front", "--optuna", db, "--aggregate", "none", "--format", "json", "--group-by", "cmd"},
		{"front", "--optuna", db, "--aggregate", "none", "--group-by", "api_key"},
	} {
		stdout, stderr, code := runMain(args...)
		if code != 0 || stdout == "" {
			t.Errorf("pareto %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout, stderr)
		}
		p.check("pareto "+strings.Join(args, " "), stdout+stderr)
		all.WriteString(stdout)
	}
	for _, want := range []string{trial.Redacted, "https://bench:" + trial.Redacted + "@serve.example/v1",
		"vllm serve --api-key " + trial.Redacted} {
		if !strings.Contains(strings.ReplaceAll(strings.ReplaceAll(all.String(), `\u003c`, "<"), `\u003e`, ">"), want) {
			t.Errorf("the fronts show no group %q:\n%.800s", want, all.String())
		}
	}
}
