package cloudai

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// TestReadConfigTextRedacts plants secrets in a real executed
// configuration and checks that ReadConfigText replaces exactly them, the
// rest of the TOML byte for byte, and that the text still decodes.
func TestReadConfigTextRedacts(t *testing.T) {
	b, err := os.ReadFile("testdata/results/scenario_2026-08-06_10-00-00/test.disagg.single-node/0/test-run.toml")
	if err != nil {
		t.Fatal(err)
	}
	secrets := []string{"sk-full0123", "hf_full4567", "tok-full89", "sk-args0123", "hf_args4567",
		"hf_env0123", "sk-env4567", "nvapi-env89", "pw-env0123", "sk-phase45", "tok-test67"}
	plant := func(s, old, new string) string {
		t.Helper()
		if !strings.Contains(s, old) {
			t.Fatalf("test-run.toml lacks %q", old)
		}
		return strings.Replace(s, old, new, 1)
	}
	// %[n]s marks where secret n goes: the expected text has the marker there.
	tpl := string(b)
	tpl = plant(tpl, `full_cmd = "synthetic"`, `full_cmd = "srun vllm serve --api-key %0 --hf-token '%1' && curl -H 'Authorization: Bearer %2' http://h/health"`)
	tpl = plant(tpl, `test_cmd = "synthetic"`, `test_cmd = "bench --token=%10"`)
	tpl = plant(tpl, "[test_definition.cmd_args]\n", "[test_definition.cmd_args]\napi_key = \"%3\"\nhf_token = '%4'\n")
	tpl += "\n[test_definition.extra_env_vars]\nHF_TOKEN = \"%5\"\nOPENAI_API_KEY = \"%6\"\nNGC_API_KEY = \"%7\"\nDB_PASSWORD = \"%8\"\nHF_HOME = \"/cache/hf\"\n"
	tpl = plant(tpl, "request-count = 50\n", "request-count = 50\napi-key = \"%9\"\n")
	fill := func(with func(i int) string) string {
		s := tpl
		for i := len(secrets) - 1; i >= 0; i-- { // %10 before %1
			s = strings.ReplaceAll(s, "%"+itoa(i), with(i))
		}
		return s
	}
	in := fill(func(i int) string { return secrets[i] })
	want := fill(func(int) string { return trial.Redacted })
	path := filepath.Join(t.TempDir(), "test-run.toml")
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadConfigText(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("ReadConfigText differs from the planted text with the marker in place of each secret:\ngot:\n%s\nwant:\n%s", got, want)
	}
	if _, err := DecodeTestRun(path, []byte(got)); err != nil {
		t.Errorf("the redacted text no longer decodes: %v", err)
	}
	d, err := DecodeTestRun(path, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if strings.Contains(d.FullCmd+d.TestCmd, s) {
			t.Errorf("DecodeTestRun keeps %s in its command lines: %q, %q", s, d.FullCmd, d.TestCmd)
		}
	}
	for _, p := range ParamsOf(&d.TestDefinition, 2) {
		for _, s := range secrets {
			if strings.Contains(p.Value, s) {
				t.Errorf("ParamsOf keeps a secret: %s", p)
			}
		}
		if p.Key == "extra_env_vars.HF_HOME" && p.Value != "/cache/hf" {
			t.Errorf("ParamsOf redacted %s", p)
		}
	}
}
