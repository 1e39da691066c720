package tune_test

import (
	"slices"
	"testing"

	"github.com/pareto-llm/pareto/tune"
)

// TestCommandSecrets: the literal secrets of a command are found (by
// name, flag, bearer and format), a variable's expansion is not one, and
// the command the study keeps has each replaced.
func TestCommandSecrets(t *testing.T) {
	const tok = "hf_abcdefghijklmnopqrstuvwxyz012345"
	for _, tt := range []struct {
		command, kept, name string
		secrets             []string
	}{
		{"HF_TOKEN=s3cr3t vllm bench", "HF_TOKEN=<redacted> vllm bench", "HF_TOKEN", []string{"s3cr3t"}},
		{"bench --api-key 'k-123456' --model m", "bench --api-key '<redacted>' --model m", "API_KEY", []string{"k-123456"}},
		{"curl -H 'Authorization: Bearer abcdefghij' u", "curl -H 'Authorization: Bearer <redacted>' u", "API_TOKEN", []string{"abcdefghij"}},
		{"run --tag " + tok, "run --tag hf_<redacted>", "TAG", []string{tok[3:]}},
		{"bench --api-key $API_KEY --hf-token \"${HF_TOKEN}\" HF_TOKEN=$X", "bench --api-key $API_KEY --hf-token \"${HF_TOKEN}\" HF_TOKEN=$X", "", nil},
		{"pareto simulate --param tp={tp} --seed $PARETO_SEED", "pareto simulate --param tp={tp} --seed $PARETO_SEED", "", nil},
	} {
		got := tune.CommandSecrets(tt.command)
		if !slices.Equal(got, tt.secrets) {
			t.Errorf("CommandSecrets(%q) = %q; want %q", tt.command, got, tt.secrets)
		}
		if kept := tune.RedactCommand(tt.command); kept != tt.kept {
			t.Errorf("RedactCommand(%q) = %q; want %q", tt.command, kept, tt.kept)
		}
		if len(got) > 0 {
			if name := tune.SecretName(tt.command, got[0]); name != tt.name {
				t.Errorf("SecretName(%q) = %q; want %q", tt.command, name, tt.name)
			}
		}
	}
}

// TestRedact: the study's texts lose what the policy finds and every
// hidden secret of 4 bytes or more, the longest first.
func TestRedact(t *testing.T) {
	var tu tune.Tuning
	tu.Hide("abc", "tok-1234", "tok-12345678", "tok-1234")
	for in, want := range map[string]string{
		"token tok-12345678 refused":        "token <redacted> refused",
		"tok-1234 and abc":                  "<redacted> and abc",
		"Authorization: Bearer xyzxyzxyzxy": "Authorization: Bearer <redacted>",
		"plain":                             "plain",
	} {
		if got := tu.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q; want %q", in, got, want)
		}
	}
}
