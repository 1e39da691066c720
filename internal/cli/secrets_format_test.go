package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tokenMarkers are credentials of the formats secret scanners recognise,
// each a distinct planted marker (the prefix, then a body that names it).
// The marker checked for is the token's first characters (its prefix and
// number), so that a token cut short in an excerpt still counts as shown.
func (p *planted) token(prefix, where string) string {
	mark := fmt.Sprintf("%sPLANTED%02dzq", prefix, len(p.secrets))
	s := mark + strings.Repeat("k", 32)
	if prefix == "AKIA" || prefix == "ASIA" {
		mark = fmt.Sprintf("%sPLANTED%02dZQ", prefix, len(p.secrets))
		s = mark + strings.Repeat("K", 8)
	}
	p.secrets = append(p.secrets, mark)
	p.names[mark] = where
	return s
}

// TestNoSecretLeaksByFormat plants credentials recognisable by their
// format (hf_, sk-proj-, ghp_, github_pat_, glpat-, xoxb-, AKIA, AIza,
// nvapi-, ...) in ordinary fields that no name marks as secret — a model
// name, a label, a parameter, a scenario's name, a cell an error quotes —
// and checks every surface: ingest's and front's output and errors,
// trials JSONL and CSV, the report page (its title too), generate-report's
// page, and the store's bytes.
func TestNoSecretLeaksByFormat(t *testing.T) {
	p := &planted{t: t, names: map[string]string{}}
	dir := t.TempDir()
	prefixes := []string{"hf_", "sk-proj-", "sk-ant-api03-", "ghp_", "gho_", "github_pat_", "glpat-", "xoxb-", "xoxp-",
		"AKIA", "ASIA", "AIza", "nvapi-", "r8_", "gsk_", "pplx-"}
	// A generic table: a token as a model name in every row, as a
	// parameter, and one in a measured column whose cell an error quotes.
	var csv strings.Builder
	csv.WriteString("id,model,endpoint,ttft_p99,output_tps\n")
	for i, pre := range prefixes {
		fmt.Fprintf(&csv, "r%d,%s,https://h/v1?key=%s,%d,%d\n", i, p.token(pre, "csv model "+pre), p.token(pre, "csv endpoint "+pre), 100+i*7, 1000-i*13)
	}
	bad := p.token("ghp_", "csv ttft_p99 cell")
	fmt.Fprintf(&csv, "bad,m,e,%s,500\n", bad)
	table := filepath.Join(dir, "runs.csv")
	writeFile(t, table, csv.String())
	// A vLLM result whose model_id is a token, and one whose number is.
	vllm := fixture(t, "ingest/testdata/vllm/surajssd_llama33-70b_tp8_qps_01.json")
	if !strings.Contains(vllm, `"model_id": "`) {
		t.Fatal("the vLLM fixture has no model_id")
	}
	vllmTok := p.token("hf_", "vllm model_id")
	vllm = replace(t, vllm, `"model_id": "`, `"model_id": "`+vllmTok+`-`, 1)
	writeFile(t, filepath.Join(dir, "vllm", "qps_01.json"), vllm)
	badNum := p.token("xoxb-", "vllm median_ttft_ms string")
	writeFile(t, filepath.Join(dir, "bad", "qps_02.json"), replace(t, fixture(t, "ingest/testdata/vllm/surajssd_llama33-70b_tp8_qps_01.json"),
		`"median_ttft_ms": `, `"median_ttft_ms": "Bearer `+badNum+`", "x_ignored": `, 1))
	// A CloudAI scenario named after a token (the page title).
	cloud := filepath.Join(dir, "cloudai")
	copyTree(t, "examples/cloudai", cloud)
	scen := fixture(t, "examples/cloudai/scenario.toml")
	scenTok := p.token("glpat-", "scenario name")
	scen = replace(t, scen, `name = "`, `name = "`+scenTok+` `, 1)
	writeFile(t, filepath.Join(cloud, "scenario.toml"), scen)

	store := filepath.Join(dir, "s.db")
	labelTok := p.token("AIza", "ingest --label value")
	outputs := map[string]string{}
	run := func(want int, args ...string) {
		t.Helper()
		stdout, stderr, code := runMain(args...)
		what := "pareto " + strings.Join(args, " ")
		outputs[what+" (stdout)"], outputs[what+" (stderr)"] = stdout, stderr
		if code != want {
			t.Errorf("%s: exit %d, want %d; stderr %q", what, code, want, stderr)
		}
	}
	run(0, "ingest", table, filepath.Join(dir, "vllm"), "--store", store, "--study", "s", "--label", "owner="+labelTok)
	run(1, "ingest", filepath.Join(dir, "bad"), "--store", store, "--study", "bad")
	run(1, "front", filepath.Join(dir, "bad", "qps_02.json"), "-o", "ttft.p50", "-o", "output_token_throughput")
	run(0, "front", table, "-o", "ttft_p99:min", "-o", "output_tps:max", "--format", "json")
	run(0, "front", table, "-o", "ttft_p99:min", "-o", "output_tps:max")
	run(0, "trials", "--store", store, "--study", "s", "--format", "jsonl")
	run(0, "trials", "--store", store, "--study", "s", "--format", "csv")
	page := filepath.Join(dir, "page.html")
	run(0, "report", table, "-x", "ttft_p99:min", "-y", "output_tps:max", "--out", page)
	run(0, "generate-report", "--test-scenario", filepath.Join(cloud, "scenario.toml"), "--system-config", filepath.Join(cloud, "system.toml"),
		"--result-dir", filepath.Join(cloud, "results"), "--store", store, "--study", "cloudai")
	for name, path := range map[string]string{"report page": page, "generate-report page": filepath.Join(cloud, "results", "pareto.html")} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		outputs[name] = string(b)
	}
	stored, _ := filepath.Glob(store + "*")
	var db strings.Builder
	for _, f := range stored {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		db.Write(b)
	}
	outputs["the store's bytes"] = db.String()
	for what, text := range outputs {
		p.check(what, text)
	}
	if n := len(p.secrets); n < 35 {
		t.Errorf("%d markers planted; want at least 35", n)
	}
	// The errors still say where and what.
	if e := outputs["pareto front "+filepath.Join(dir, "bad", "qps_02.json")+" -o ttft.p50 -o output_token_throughput (stderr)"]; !strings.Contains(e, "median_ttft_ms") || !hasMarker(e) {
		t.Errorf("front's error should name the field and show the marker: %q", e)
	}
	if !hasMarker(outputs["pareto trials --store "+store+" --study s --format jsonl (stdout)"]) {
		t.Error("trials shows no marker where the tokens were")
	}
}
