package trial

import (
	"strings"
	"testing"
)

// redactTemplates place a secret (%s) where RedactText must find it.
var redactTemplates = []string{
	"--api-key %s",
	"--api-key=%s",
	"--hf-token '%s'",
	`--token "%s"`,
	`["--api-key", "%s"]`,
	"-H 'Authorization: Bearer %s'",
	`-H "X-Api-Key: %s"`,
	"Authorization: %s",
	"HF_TOKEN=%s",
	"NGC_API_KEY='%s'",
	`api_key = "%s"`,
	`"password": "%s"`,
	"https://user:%s@host:8000/v1",
	"https://host/v1?api_key=%s&x=1",
	"password=%s",
}

// FuzzRedactText checks that RedactText never panics, is idempotent, and
// never lets through a secret planted in any of redactTemplates between
// arbitrary text.
func FuzzRedactText(f *testing.F) {
	for i := range redactTemplates {
		f.Add("aiperf profile --model m", "sk-abc123XYZ", " --url http://h", i)
		f.Add(`{"a": "`, "hf_AbCdEf.012=", `"}`, i)
		f.Add("", "p4ss", "", i)
	}
	f.Add("x --api-key \\\n", "s3cret", "", 0)
	f.Add("Authorization: '", "s3cret", "'", 7)
	f.Fuzz(func(t *testing.T, prefix, secret, suffix string, which int) {
		text := prefix + secret + suffix
		out := RedactText(text) // arbitrary text: no panic
		if !mayHoldSecret(text) && len(secretSpans(text, nil)) > 0 {
			t.Fatalf("mayHoldSecret(%q) = false, but it holds %v", text, secretSpans(text, nil))
		}
		if again := RedactText(out); again != out {
			t.Fatalf("RedactText not idempotent on %q: %q then %q", text, out, again)
		}
		tpl := redactTemplates[uint(which)%uint(len(redactTemplates))]
		if !plantable(secret) || strings.Contains(prefix+" "+tpl+" "+suffix, secret) {
			return
		}
		in := prefix + " " + strings.Replace(tpl, "%s", secret, 1) + " " + suffix
		out = RedactText(in)
		if strings.Contains(out, secret) {
			t.Fatalf("RedactText(%q) = %q: the secret %q is still there", in, out, secret)
		}
		if !strings.Contains(out, Redacted) {
			t.Fatalf("RedactText(%q) = %q: no %s marker", in, out, Redacted)
		}
	})
}

// plantable reports whether s looks like a credential RedactText promises
// to find: 4 or more characters of a token alphabet, not a flag, not an
// authentication scheme word and not a part of the marker.
func plantable(s string) bool {
	if len(s) < 4 || s[0] == '-' || inFold(s, authSchemes) || strings.Contains(Redacted, s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isUpper(c) || isLower(c) || strings.IndexByte("._~+=-", c) >= 0) {
			return false
		}
	}
	return true
}

// FuzzIsSecretKey checks that IsSecretKey never panics and that its quick
// test (maybeSecret) never rejects a key the rules call secret.
func FuzzIsSecretKey(f *testing.F) {
	for _, k := range []string{"endpoint.headers.Authorization", "api_key", "HF_TOKEN", "x.Api-Key", "time_to_first_token",
		"a\u212Api_key", "pass_word", "credentials.user", "REDIS_PASS", "jwt", "bearer"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		got := IsSecretKey(key)
		if want := secretKey(strings.Map(foldASCII, key)); got != want {
			t.Fatalf("IsSecretKey(%q) = %v; the rules say %v", key, got, want)
		}
	})
}
