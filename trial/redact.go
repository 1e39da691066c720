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
	maybe, ascii := scanKey(key, false)
	if !ascii {
		key = strings.Map(foldASCII, key)
		maybe, _ = scanKey(key, false)
	}
	return maybe && secretKey(key)
}

// secretKey applies the rules of IsSecretKey to every part of key.
func secretKey(key string) bool {
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

// Byte classes of scanKey.
const (
	cWord     = iota // ASCII letter or digit other than w
	cW               // w and W, which may end "passw"
	cJoin            // '_' and '-': inside a word's part
	cOther           // ends a word
	cPart            // separates the parts of a flattened key (isPartSep)
	cNonASCII        // a byte of a non-ASCII rune
)

// byteClass classifies every byte for scanKey.
var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch b := byte(c); {
		case b >= utf8.RuneSelf:
			t[c] = cNonASCII
		case b|0x20 == 'w':
			t[c] = cW
		case isWordCh(b):
			t[c] = cWord
		case b == '_' || b == '-':
			t[c] = cJoin
		case isPartSep(b):
			t[c] = cPart
		default:
			t[c] = cOther
		}
	}
	return t
}()

// scanKey is a quick test that IsSecretKey's rules can hold for key (text
// false) or for a name inside s (text true): some part ends with the last
// three letters of a secret word, or "passw" occurs. Readers call
// IsSecretKey for every parameter, and almost every key fails this test.
// It gives up (maybe and not ascii) at the first non-ASCII byte.
func scanKey(s string, text bool) (maybe, ascii bool) {
	const passw = 'p'<<32 | 'a'<<24 | 's'<<16 | 's'<<8 | 'w'
	var tail uint64 // the last eight letters or digits of the part (or name), lower-cased, the last one lowest
	for i := 0; i < len(s); i++ {
		c := s[i]
		k := byteClass[c]
		if k <= cW {
			tail = tail<<8 | uint64(c|0x20)
			if k == cW && tail&0xFFFFFFFFFF == passw {
				return true, true
			}
			continue
		}
		switch {
		case k == cNonASCII:
			return true, false
		case k == cJoin || tail == 0:
		case secretEnding(tail):
			return true, true
		case k == cPart || text: // a text's names end at any other byte
			tail = 0
		}
	}
	return tail != 0 && secretEnding(tail), true
}

// secretEnding reports whether the letters tail (packed by scanKey) end one
// of the words of IsSecretKey's rules.
func secretEnding(tail uint64) bool {
	switch tail & 0xFFFFFF {
	case 'k'<<16 | 'e'<<8 | 'y', 'p'<<16 | 'w'<<8 | 'd', 'j'<<16 | 'w'<<8 | 't':
		return true
	case 'k'<<16 | 'e'<<8 | 'n':
		return tail&0xFFFFFFFFFF == 't'<<32|'o'<<24|'k'<<16|'e'<<8|'n'
	case 'r'<<16 | 'e'<<8 | 't':
		return tail&0xFFFFFFFFFFFF == 's'<<40|'e'<<32|'c'<<24|'r'<<16|'e'<<8|'t'
	case 'o'<<16 | 'r'<<8 | 'd':
		return tail&0xFFFFFFFFFFFFFFFF == 'p'<<56|'a'<<48|'s'<<40|'s'<<32|'w'<<24|'o'<<16|'r'<<8|'d'
	case 's'<<16 | 'w'<<8 | 'd':
		return tail&0xFFFFFFFFFFFF == 'p'<<40|'a'<<32|'s'<<24|'s'<<16|'w'<<8|'d'
	case 'a'<<16 | 's'<<8 | 'e':
		return tail&0xFFFFFFFFFFFF == 'p'<<40|'h'<<32|'r'<<24|'a'<<16|'s'<<8|'e'
	case 'i'<<16 | 'a'<<8 | 'l':
		return tail&0xFFFFFFFFFFFFFF == 'd'<<48|'e'<<40|'n'<<32|'t'<<24|'i'<<16|'a'<<8|'l'
	case 'a'<<16 | 'l'<<8 | 's':
		return tail&0xFFFFFFFFFFFFFFFF == 'd'<<56|'e'<<48|'n'<<40|'t'<<32|'i'<<24|'a'<<16|'l'<<8|'s'
	case 'i'<<16 | 'o'<<8 | 'n':
		return tail&0xFFFFFFFFFFFFFFFF == 'r'<<56|'i'<<48|'z'<<40|'a'<<32|'t'<<24|'i'<<16|'o'<<8|'n'
	case 'k'<<16 | 'i'<<8 | 'e':
		return tail&0xFFFFFFFFFFFF == 'c'<<40|'o'<<32|'o'<<24|'k'<<16|'i'<<8|'e'
	case 'i'<<16 | 'e'<<8 | 's':
		return tail&0xFFFFFFFFFFFFFF == 'c'<<48|'o'<<40|'o'<<32|'k'<<24|'i'<<16|'e'<<8|'s'
	case 'u'<<16 | 't'<<8 | 'h':
		return tail&0xFFFFFFFF == 'a'<<24|'u'<<16|'t'<<8|'h'
	case 'r'<<16 | 'e'<<8 | 'r':
		return tail&0xFFFFFFFFFFFF == 'b'<<40|'e'<<32|'a'<<24|'r'<<16|'e'<<8|'r'
	case 'a'<<16 | 's'<<8 | 's':
		return tail&0xFFFFFFFF == 'p'<<24|'a'<<16|'s'<<8|'s'
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
