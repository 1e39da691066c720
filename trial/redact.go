package trial

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Redacted replaces the value of a secret, keeping its key: a parameter
// "endpoint.api_key" reads "<redacted>", a command line "--api-key
// <redacted>", a URL "https://user:<redacted>@host/". It is what AIPerf
// itself writes for values it hides.
const Redacted = "<redacted>"

// IsSecretKey reports whether key names a credential: a parameter key, an
// HTTP header name, a command-line flag or an environment variable. The
// test is case- and separator-insensitive and looks at every part of a
// flattened key, so "endpoint.headers.Authorization", "config.backend.api_key",
// "apiKey", "X-Api-Key", "--hf-token" and "extra_env_vars.NGC_API_KEY" are
// secret, and so is everything below a secret part ("credentials.user").
//
// A part is split into words at separators and camel-case boundaries; it is
// secret when its last word is, or ends with, password, passwd, passphrase,
// secret, credential(s), authorization, cookie(s), apikey, apitoken,
// accesstoken, authtoken, refreshtoken, bearertoken, sessiontoken,
// privatekey, secretkey, accesskey or hftoken; when any word contains
// "password" or "passwd"; when it is "key" after api, secret, private,
// access, subscription, encryption, signing, master, ssh, client or auth;
// when it is "token" alone or after a credential word (hf, hub, api,
// access, auth, bearer, refresh, session, github, ngc, oauth, secret,
// client, personal, service, security, ...); when the part is one word of
// auth, pwd, jwt or bearer; and, for an environment-variable-like part
// (upper case, digits and underscores), when it ends in _TOKEN, _KEY,
// _SECRET, _PASS, _PWD, _AUTH, _CREDENTIALS or _COOKIE. Counting words such
// as "max_tokens", "time_to_first_token", "eos_token" or "tokenizer" are
// not secret, nor is a plain "key".
func IsSecretKey(key string) bool {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			key = strings.Map(foldASCII, key)
			break
		}
	}
	prev := "" // last word of the previous part
	start := 0
	for i := 0; i <= len(key); i++ {
		if i < len(key) && !isPartSep(key[i]) {
			continue
		}
		if i > start {
			secret, last := secretPart(key[start:i], prev)
			if secret {
				return true
			}
			if last != "" {
				prev = last
			}
		}
		start = i + 1
	}
	return false
}

// foldASCII maps a rune that case-folds to an ASCII letter (the Kelvin
// sign, the long s) to that letter in lower case.
func foldASCII(r rune) rune {
	if r < utf8.RuneSelf {
		return r
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < utf8.RuneSelf {
			return unicode.ToLower(f)
		}
	}
	return r
}

// isPartSep reports whether c separates the parts of a flattened key.
func isPartSep(c byte) bool {
	switch c {
	case '.', '[', ']', '/', '"', '\'', ':', '=', '(', ')', '{', '}', ',', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

func isUpper(c byte) bool  { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool  { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
func isWordCh(c byte) bool { return isUpper(c) || isLower(c) || c >= utf8.RuneSelf }

// secretPart applies the word rules of IsSecretKey to one part; prev is the
// last word of the part before it. It returns the part's last word.
func secretPart(part, prev string) (secret bool, last string) {
	var p, l string // the last two words
	m := 0
	var buf [64]byte // the tail of the part's words, joined, in lower case
	n := 0
	env := true // upper case, digits and underscores only, with a letter
	letter := false
	for i := 0; i < len(part); {
		c := part[i]
		if !isWordCh(c) {
			env = env && c == '_'
			i++
			continue
		}
		j := i + 1
		for j < len(part) && isWordCh(part[j]) {
			d := part[j]
			if isUpper(d) && (isLower(part[j-1]) || isUpper(part[j-1]) && j+1 < len(part) && part[j+1] >= 'a' && part[j+1] <= 'z') {
				break // camel-case boundary: fooBar, APIKey
			}
			j++
		}
		w := part[i:j]
		for k := 0; k < len(w); k++ {
			if w[k] >= 'a' && w[k] <= 'z' || w[k] >= utf8.RuneSelf {
				env = false
			} else if isUpper(w[k]) {
				letter = true
			}
		}
		if containsFold(w, "password") || containsFold(w, "passwd") {
			return true, w
		}
		p, l = l, w
		m++
		i = j
		for k := 0; k < len(w); k++ {
			if n == len(buf) {
				n = copy(buf[:], buf[len(buf)/2:])
			}
			buf[n] = w[k] | 0x20
			n++
		}
	}
	if m == 0 {
		return false, ""
	}
	if m > 1 && joinedSecret(buf[:n]) {
		return true, l
	}
	if secretWord(p, l, m, prev) {
		return true, l
	}
	if env && letter && m >= 2 {
		for _, w := range envSuffixes {
			if l == w {
				return true, l
			}
		}
	}
	return false, l
}

var (
	// secretSuffixes end the last word of a secret part.
	secretSuffixes = []string{"password", "passwd", "passphrase", "secret", "credential", "credentials",
		"authorization", "cookie", "cookies", "apikey", "apitoken", "accesstoken", "authtoken", "refreshtoken",
		"bearertoken", "sessiontoken", "privatekey", "secretkey", "accesskey", "hftoken"}
	// keyPrefixes make "key" secret when they precede it.
	keyPrefixes = []string{"api", "secret", "private", "access", "subscription", "encryption", "signing",
		"master", "ssh", "client", "auth"}
	// tokenPrefixes make "token" secret when they precede it.
	tokenPrefixes = []string{"hf", "hub", "api", "access", "auth", "bearer", "refresh", "session", "id", "github",
		"gh", "gitlab", "ngc", "oauth", "secret", "client", "slack", "wandb", "huggingface", "personal", "pat",
		"service", "private", "security", "csrf", "xsrf", "x", "login", "user", "app", "bot", "registry", "npm",
		"pypi", "docker"}
	// aloneWords are secret as a one-word part.
	aloneWords = []string{"token", "auth", "pwd", "jwt", "bearer"}
	// envSuffixes end a secret environment variable (the last word of an
	// upper-case part of two words or more).
	envSuffixes = []string{"TOKEN", "KEY", "SECRET", "PASS", "PWD", "AUTH", "CREDENTIALS", "CREDENTIAL", "COOKIE"}
)

// secretWord applies the rules on the last word l of a part of m words,
// the word p before it and the last word prev of the part before.
func secretWord(p, l string, m int, prev string) bool {
	if hasSecretSuffix(l) {
		return true
	}
	switch {
	case strings.EqualFold(l, "key"):
		if m == 1 {
			p = prev
		}
		return inFold(p, keyPrefixes)
	case strings.EqualFold(l, "token"):
		return m == 1 || inFold(p, tokenPrefixes)
	case m == 1:
		return inFold(l, aloneWords)
	}
	return false
}

// hasSecretSuffix reports whether w ends with one of secretSuffixes,
// ignoring ASCII case.
func hasSecretSuffix(w string) bool {
	for _, s := range secretSuffixes {
		if len(w) >= len(s) && strings.EqualFold(w[len(w)-len(s):], s) {
			return true
		}
	}
	return false
}

// joinedSecret reports whether the lower-case joined words b end with one
// of secretSuffixes.
func joinedSecret(b []byte) bool {
	for _, s := range secretSuffixes {
		if len(b) >= len(s) && string(b[len(b)-len(s):]) == s {
			return true
		}
	}
	return false
}

// inFold reports whether w equals one of words, ignoring ASCII case.
func inFold(w string, words []string) bool {
	for _, x := range words {
		if len(w) == len(x) && strings.EqualFold(w, x) {
			return true
		}
	}
	return false
}

// containsFold reports whether s contains the lower-case ASCII word sub,
// ignoring ASCII case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i]|0x20 == sub[0] && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// RedactParam returns the value to keep for the parameter or label key:
// Redacted when key names a secret (IsSecretKey) and value is not empty,
// otherwise value with the credentials inside it redacted (RedactText).
func RedactParam(key, value string) string {
	if value == "" || value == Redacted {
		return value
	}
	if IsSecretKey(key) {
		return Redacted
	}
	return RedactText(value)
}

// Redact applies RedactParam to every parameter and label of t and
// RedactText to its warnings and problem, for trials not built with
// SetParam and SetLabel (decoded from JSON, assembled by hand).
func (t *Trial) Redact() {
	for k, v := range t.Params {
		if r := RedactParam(k, v); r != v {
			t.Params[k] = r
		}
	}
	for k, v := range t.Labels {
		if r := RedactParam(k, v); r != v {
			t.Labels[k] = r
		}
	}
	for i, w := range t.Warnings {
		t.Warnings[i] = RedactText(w)
	}
	t.Problem = RedactText(t.Problem)
}
