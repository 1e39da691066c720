package trial

import (
	"strings"
	"testing"
)

func TestIsSecretKey(t *testing.T) {
	for _, tt := range []struct {
		key  string
		want bool
	}{
		// credentials, at any depth, any case, any separator
		{"api_key", true},
		{"endpoint.api_key", true},
		{"endpoint.API_KEY", true},
		{"ApI_kEy", true},
		{"apiKey", true},
		{"APIKey", true},
		{"api-key", true},
		{"apikey", true},
		{"x.Api_Key", true},
		{"a\u212Api_key", false},        // "akpi_key"
		{"endpoint.api_\u212Aey", true}, // Kelvin sign folds to k
		{"server_info.api_key", true},
		{"server_info.admin_api_key", true},
		{"server_info.hf_token", true},
		{"endpoint.headers.Authorization", true},
		{"endpoint.headers.X-Api-Key", true},
		{"headers.Proxy-Authorization", true},
		{"headers.Cookie", true},
		{"headers.set-cookie", true},
		{"headers.X-Auth-Token", true},
		{"headers.x-amz-security-token", true},
		{"headers.Ocp-Apim-Subscription-Key", true},
		{"config.backend.api_key", true},
		{"config.spec.backend.api_key", true},
		{"cmd_args.api_key", true},
		{"cmd_args.hf_token", true},
		{"hfToken", true},
		{"token", true},
		{"endpoint.token", true},
		{"auth", true},
		{"use_auth_token", true},
		{"hub_token", true},
		{"access_token", true},
		{"accessToken", true},
		{"refresh_token", true},
		{"password", true},
		{"db.password", true},
		{"dbPassword", true},
		{"password_file", true},
		{"passwd", true},
		{"pwd", true},
		{"secret", true},
		{"client_secret", true},
		{"aws_secret_access_key", true},
		{"private_key", true},
		{"ssh-key", true},
		{"api.key", true},
		{"credentials", true},
		{"credentials.user", true},
		{"extra_env_vars.HF_TOKEN", true},
		{"extra_env_vars.OPENAI_API_KEY", true},
		{"extra_env_vars.NGC_API_KEY", true},
		{"extra_env_vars.DB_PASSWORD", true},
		{"extra_env_vars.MY_SERVICE_KEY", true},
		{"extra_env_vars.WEBHOOK_SECRET", true},
		{"extra_env_vars.REDIS_PASS", true},
		{"extra_env_vars.\"X-Api-Key\"", true},
		{"HF_TOKEN", true},
		{"--api-key", true},
		{"--hf-token", true},
		{"aiperf_phases[0].api_key", true},
		// not credentials
		{"", false},
		{"key", false},
		{"sort_key", false},
		{"dims.key", false},
		{"api_keys_file_count", false},
		{"max_tokens", false},
		{"total_output_tokens", false},
		{"time_to_first_token", false},
		{"timeToFirstToken", false},
		{"inter_token_latency", false},
		{"normalized_time_per_output_token", false},
		{"eos_token", false},
		{"pad_token_id", false},
		{"tokenizer", false},
		{"tokenizer_id", false},
		{"skip_special_tokens", false},
		{"secret_name", false},
		{"api_routes./v1/models", false},
		{"endpoint.url", false},
		{"model", false},
		{"extra_env_vars.CUDA_VISIBLE_DEVICES", false},
		{"extra_env_vars.HF_HOME", false},
		{"extra_env_vars.TOKENIZERS_PARALLELISM", false},
		{"extra_env_vars.KEY", false},
		{"monkey", false},
		{"authority", false},
		{"author", false},
	} {
		if got := IsSecretKey(tt.key); got != tt.want {
			t.Errorf("IsSecretKey(%q) = %v; want %v", tt.key, got, tt.want)
		}
	}
}

func TestRedactText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// URLs
		{"https://user:s3cr3t@host:8000/v1", "https://user:<redacted>@host:8000/v1"},
		{"postgres://u:secret@db:5432/p?sslmode=disable", "postgres://u:<redacted>@db:5432/p?sslmode=disable"},
		{"redis://:pw1234@cache", "redis://:<redacted>@cache"},
		{"postgres://u@db/p", "postgres://u@db/p"},
		{"https://host/v1?api_key=abc123&model=m", "https://host/v1?api_key=<redacted>&model=m"},
		{"https://host/v1?token=abc123#frag", "https://host/v1?token=<redacted>#frag"},
		{"postgres://db/p?password=secret&sslmode=disable", "postgres://db/p?password=<redacted>&sslmode=disable"},
		{"host=db user=u password=secret dbname=p", "host=db user=u password=<redacted> dbname=p"},
		{"host=db password='a b' dbname=p", "host=db password='<redacted>' dbname=p"},
		// command lines
		{"aiperf profile --api-key sk-abc --model m", "aiperf profile --api-key <redacted> --model m"},
		{"aiperf profile --api-key=sk-abc --model m", "aiperf profile --api-key=<redacted> --model m"},
		{"vllm serve --hf-token 'hf_abc' --port 1", "vllm serve --hf-token '<redacted>' --port 1"},
		{"x --token \"t0k\" y", "x --token \"<redacted>\" y"},
		{"x --api-key \\\n  sk-abc", "x --api-key \\\n  <redacted>"},
		{"curl -H 'Authorization: Bearer sk-abc' url", "curl -H 'Authorization: Bearer <redacted>' url"},
		{`curl -H "X-Api-Key: k123" url`, `curl -H "X-Api-Key: <redacted>" url`},
		{"Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic <redacted>"},
		{`["--api-key", "sk-abc", "--model", "m"]`, `["--api-key", "<redacted>", "--model", "m"]`},
		{"--api-key --model m", "--api-key --model m"},
		{"--max-tokens 10 --tokenizer gpt2", "--max-tokens 10 --tokenizer gpt2"},
		// tokens recognised by their format, wherever they stand
		{"run hf_abcdefghijklmnopqrstuvwxyz0123 x", "run hf_<redacted> x"},
		{"key sk-proj-abcdefghijklmnopqrstuvwxyz012345", "key sk-<redacted>"},
		{"sk-ant-api03-abcdefghijklmnopqrstu", "sk-<redacted>"},
		{"git clone https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r",
			"git clone https://ghp_<redacted>@github.com/o/r"},
		{"token:github_pat_11ABCDEFG0123456789_abcdefghij", "token:<redacted>"},
		{"slack xoxb-1234567890-abcdefghij!", "slack xoxb-<redacted>!"},
		{`{"id": "AKIAIOSFODNN7EXAMPLE"}`, `{"id": "AKIA<redacted>"}`},
		{"export NGC=nvapi-abcdefghijklmnopqrstuvwxyz", "export NGC=nvapi-<redacted>"},
		{"vllm serve --hf-token 'hf_abcdefghijklmnopqrstuvwxyz0123'", "vllm serve --hf-token '<redacted>'"},
		{"hf_<redacted> sk-<redacted>", "hf_<redacted> sk-<redacted>"},
		// not tokens: too short, inside a word, not the format's alphabet
		{"task-list sk-short hf_model ask-anything-you-want-to-know", "task-list sk-short hf_model ask-anything-you-want-to-know"},
		{"AKIAlowercaseletters0 mask-abcdefghijklmnopqrstuvwxyz", "AKIAlowercaseletters0 mask-abcdefghijklmnopqrstuvwxyz"},
		// pairs, env, TOML, JSON
		{"Authorization,Bearer sk-abc", "Authorization,Bearer <redacted>"},
		{"X-Api-Key,k123", "X-Api-Key,<redacted>"},
		{"HF_TOKEN=hf_abc NGC_API_KEY=nvapi-1 HOME=/root", "HF_TOKEN=<redacted> NGC_API_KEY=<redacted> HOME=/root"},
		{"export DB_PASSWORD=\"pw pw\"", "export DB_PASSWORD=\"<redacted>\""},
		{`api_key = "sk-abc"`, `api_key = "<redacted>"`},
		{`api_key = '''sk-abc'''`, `api_key = '''<redacted>'''`},
		{`api_keys = ["a", "b"]`, `api_keys = ["a", "b"]`},
		{`secrets = ["a", "b"]`, `secrets = ["a", "b"]`},
		{`client_secret = ["a", "b"]`, `client_secret = ["<redacted>"]`},
		{`{"api_key": "sk-abc", "model": "m"}`, `{"api_key": "<redacted>", "model": "m"}`},
		{`{\"api_key\": \"sk-abc\"}`, `{\"api_key\": \"<redacted>\"}`},
		{`full_cmd = "aiperf --header \"Authorization: Bearer sk-abc\" --url u"`, `full_cmd = "aiperf --header \"Authorization: Bearer <redacted>\" --url u"`},
		{"Bearer abcdefgh12345", "Bearer <redacted>"},
		{"the bearer of news", "the bearer of news"},
		// unchanged
		{"meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"},
		{"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
		{"2025-01-01T10:00:00", "2025-01-01T10:00:00"},
		{"http://127.0.0.1:8765", "http://127.0.0.1:8765"},
		{"--tokenizer '<redacted>'", "--tokenizer '<redacted>'"},
		{"time_to_first_token: 12", "time_to_first_token: 12"},
		// a file named in a message keeps its place, whatever its name
		{"in/token.json:1:1113809: p99_ttft_ms: want number", "in/token.json:1:1113809: p99_ttft_ms: want number"},
		{"secret.jsonl:3: bad line; api_key.csv: no header", "secret.jsonl:3: bad line; api_key.csv: no header"},
		{"passwd.TOML:2:1: unknown key", "passwd.TOML:2:1: unknown key"},
		// ... but a key that looks like a file still hides its value
		{`{"token.json": "abc123"}`, `{"token.json": "<redacted>"}`},
		{"token.json=abc123", "token.json=<redacted>"},
		{"token.json:abc123", "token.json:<redacted>"},
		{"token.bin: abc123", "token.bin: <redacted>"},
		{"", ""},
		// idempotent
		{"https://user:<redacted>@host/", "https://user:<redacted>@host/"},
		{"--api-key <redacted> x", "--api-key <redacted> x"},
		{`api_key = "<redacted>"`, `api_key = "<redacted>"`},
	} {
		if got := RedactText(tt.in); got != tt.want {
			t.Errorf("RedactText(%q) = %q; want %q", tt.in, got, tt.want)
		}
		if got := RedactText(tt.want); got != tt.want {
			t.Errorf("RedactText(%q) = %q; want it unchanged", tt.want, got)
		}
	}
}

func TestRedactParam(t *testing.T) {
	for _, tt := range []struct{ key, value, want string }{
		{"endpoint.api_key", "sk-abc", Redacted},
		{"endpoint.api_key", "", ""},
		{"server_info.hf_token", "hf_abc", Redacted},
		{"cli_command", "aiperf --api-key sk-abc", "aiperf --api-key " + Redacted},
		{"config.backend.target", "https://u:p4ss@host", "https://u:" + Redacted + "@host"},
		{"model", "meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"},
		{"max_tokens", "128", "128"},
	} {
		if got := RedactParam(tt.key, tt.value); got != tt.want {
			t.Errorf("RedactParam(%q, %q) = %q; want %q", tt.key, tt.value, got, tt.want)
		}
	}
}

func TestSecrets(t *testing.T) {
	got := Secrets("postgres://u:pw1@h/db?password=pw2 password=pw1")
	if strings.Join(got, ",") != "pw1,pw2" {
		t.Errorf("Secrets = %q; want [pw1 pw2]", got)
	}
}

func TestTrialRedact(t *testing.T) {
	tr := Trial{Params: map[string]string{"api_key": "sk-1", "cmd": "x --token t0k", "n": "1"},
		Labels: map[string]string{"endpoint": "https://u:pw@h"}, Warnings: []string{"HF_TOKEN=hf_1 unused"}}
	tr.Redact()
	if tr.Params["api_key"] != Redacted || tr.Params["cmd"] != "x --token "+Redacted || tr.Params["n"] != "1" ||
		tr.Labels["endpoint"] != "https://u:"+Redacted+"@h" || tr.Warnings[0] != "HF_TOKEN="+Redacted+" unused" {
		t.Errorf("Redact() = %+v", tr)
	}
	var set Trial
	set.SetParam("headers.Authorization", "Bearer x")
	set.SetLabel("url", "https://u:pw@h")
	if set.Params["headers.Authorization"] != Redacted || set.Labels["url"] != "https://u:"+Redacted+"@h" {
		t.Errorf("SetParam/SetLabel kept a secret: %v %v", set.Params, set.Labels)
	}
}

// BenchmarkRedactText redacts a typical parameter value without a secret,
// a command line with one, and a token found by its format.
func BenchmarkRedactText(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"kind=plain", "meta-llama/Llama-3.1-8B-Instruct"},
		{"kind=command", "vllm serve meta-llama/Llama-3.1-8B --tensor-parallel-size 4 --api-key sk-abc123 --port 8000"},
		{"kind=token", "export NOTE=hf_abcdefghijklmnopqrstuvwxyz0123 && run"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				RedactText(bc.in)
			}
		})
	}
}
