package trial

import (
	"slices"
	"strings"
)

// RedactText returns s with the credentials written inside it replaced by
// Redacted, everything else byte for byte unchanged:
//
//   - the password of a URL's user info: https://user:<redacted>@host/;
//   - the value after a secret name (IsSecretKey) followed by "=" or ":",
//     as in query parameters (?api_key=...), environment assignments
//     (HF_TOKEN=...), headers (Authorization: Bearer ...; the scheme word
//     stays), TOML, JSON and YAML (api_key = "...", "token": "..."), and
//     key=value connection strings (password=...);
//   - the argument of a secret flag: --api-key X, --api-key=X, --hf-token
//     'X', and the next element of an argument list ["--api-key", "X"];
//   - the value of a [name, value] pair whose name is secret
//     (Authorization,Bearer X as a flattened header tuple reads);
//   - a bearer token: Bearer X, with X of 8 characters or more;
//   - a token of a format secret scanners recognise, wherever it stands
//     (hf_…, sk-…, ghp_…, github_pat_…, glpat-…, xoxb-…, AKIA…, AIza…,
//     nvapi-…: tokenFormats); its prefix stays (hf_<redacted>).
//
// A value is a quoted string (single, double, triple or escaped quotes;
// the quotes stay), a bracketed list or table, or a run of characters up
// to white space, a quote, a backslash or one of , ; & ) ] } < > |. Text
// already holding Redacted is returned unchanged, so RedactText is
// idempotent. It is what RedactParam applies to the values of non-secret
// keys (command lines, URLs, header lists) and what the report applies to
// the executed CloudAI configuration (test-run.toml).
func RedactText(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	spans := secretSpans(s, nil)
	if len(spans) == 0 {
		return s
	}
	return replaceSpans(s, spans)
}

// mayHoldSecret is a quick test that s can hold a secret RedactText finds:
// a separator ("=", ":", ",", a blank or a newline) and either a URL with
// user info or a name scanKey lets through. The shortest secret text,
// "pwd=x", has five bytes.
func mayHoldSecret(s string) bool {
	if len(s) < 5 {
		return false
	}
	if hasToken(s) {
		return true
	}
	sep := false
	for i := 0; i < len(s) && !sep; i++ {
		switch s[i] {
		case '=', ':', ',', ' ', '\t', '\n':
			sep = true
		}
	}
	if !sep {
		return false
	}
	if strings.Contains(s, "://") && strings.IndexByte(s, '@') >= 0 {
		return true
	}
	maybe, _ := scanKey(s, true)
	return maybe
}

// Secrets returns the secret values RedactText would hide in s, in order
// of appearance: for scrubbing them from messages that quote s in another
// form (a database driver's error, for instance).
func Secrets(s string) []string {
	spans := secretSpans(s, nil)
	slices.SortFunc(spans, func(a, b span) int { return a.lo - b.lo })
	out := make([]string, 0, len(spans))
	for _, sp := range spans {
		if v := s[sp.lo:sp.hi]; v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// span is a secret value s[lo:hi] and what replaces it ("" for Redacted).
type span struct {
	lo, hi int
	repl   string
}

// replaceSpans replaces the union of spans in s.
func replaceSpans(s string, spans []span) string {
	slices.SortFunc(spans, func(a, b span) int { return a.lo - b.lo })
	var b strings.Builder
	b.Grow(len(s) + 8*len(spans))
	at := 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		j := i + 1
		for ; j < len(spans) && spans[j].lo <= cur.hi; j++ {
			cur.hi = max(cur.hi, spans[j].hi)
			cur.repl = ""
		}
		if cur.repl == "" {
			cur.repl = Redacted
		}
		b.WriteString(s[at:cur.lo])
		b.WriteString(cur.repl)
		at = cur.hi
		i = j
	}
	b.WriteString(s[at:])
	return b.String()
}

// secretSpans appends the secret values of s to spans.
func secretSpans(s string, spans []span) []span {
	spans = urlPasswords(s, spans)
	spans = tokenSpans(s, spans)
	for i := 0; i < len(s); {
		if !isNameCh(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isNameCh(s[j]) {
			j++
		}
		spans = nameValue(s, i, j, spans)
		i = j
	}
	return spans
}

// isNameCh reports whether c can be part of a key, flag or variable name.
func isNameCh(c byte) bool {
	return isWordCh(c) || c == '_' || c == '-' || c == '.'
}

// urlPasswords appends the password of every URL user info in s.
func urlPasswords(s string, spans []span) []span {
	for off := 0; ; {
		k := strings.Index(s[off:], "://")
		if k < 0 {
			return spans
		}
		a := off + k + 3
		e := a
		for e < len(s) && !isAuthorityEnd(s[e]) {
			e++
		}
		if at := strings.LastIndexByte(s[a:e], '@'); at > 0 {
			if c := strings.IndexByte(s[a:a+at], ':'); c >= 0 && c+1 < at {
				spans = append(spans, span{lo: a + c + 1, hi: a + at})
			}
		}
		off = a
	}
}

// isAuthorityEnd reports whether c ends the authority of a URL.
func isAuthorityEnd(c byte) bool {
	switch c {
	case '/', '?', '#', ' ', '\t', '\n', '\r', '"', '\'', '`', '\\', '<', '>':
		return true
	}
	return false
}

// nameValue appends the value following the name s[i:j] when the name is
// secret and a value follows it.
func nameValue(s string, i, j int, spans []span) []span {
	name := strings.TrimRight(s[i:j], ".-")
	j = i + len(name)
	flag := strings.HasPrefix(name, "-")
	bare := strings.TrimLeft(name, "-")
	if bare == "" {
		return spans
	}
	if strings.EqualFold(bare, "bearer") && !flag {
		return bearerToken(s, j, spans)
	}
	if !IsSecretKey(bare) {
		return spans
	}
	k := j
	quoted := false
	if q := quoteAt(s, k); q != "" && strings.HasSuffix(s[:i], q) { // "api_key": ...
		k += len(q)
		quoted = true
	}
	blank := skipBlanks(s, k)
	v := -1
	switch {
	case blank < len(s) && (s[blank] == '=' || s[blank] == ':'):
		if strings.HasPrefix(s[blank:], "://") || strings.HasPrefix(s[blank:], "::") {
			return spans
		}
		if s[blank] == ':' && !quoted && blank == k && filePosition(name, s[blank+1:]) {
			return spans // token.json:12:3: ..., a place in a file
		}
		v = skipBlanks(s, blank+1)
	case blank < len(s) && s[blank] == ',' && (flag && quoted || pairStart(s[:i])):
		v = skipBlanks(s, blank+1)
	case flag && blank > k:
		v = blank
		if v < len(s) && s[v] == '-' && v+1 < len(s) && (s[v+1] == '-' || isWordCh(s[v+1])) {
			return spans // the next flag: this one takes no value
		}
	}
	if v < 0 {
		return spans
	}
	query := i > 0 && (s[i-1] == '?' || s[i-1] == '&')
	return value(s, v, query, spans)
}

// filePosition reports whether an unquoted name followed by ":" and then
// rest is a file named in a message ("token.json:12:3: ...", "token.csv:
// no header"), not a secret key: the name ends in the extension of a file
// pareto reads or writes and a line number or a blank follows the colon.
func filePosition(name, rest string) bool {
	if rest == "" || !(rest[0] >= '0' && rest[0] <= '9' || rest[0] == ' ') {
		return false
	}
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 {
		return false
	}
	switch strings.ToLower(name[dot+1:]) {
	case "json", "jsonl", "ndjson", "csv", "tsv", "toml", "yaml", "yml", "txt", "log", "html", "db", "sqlite", "sqlite3", "out", "err":
		return true
	}
	return false
}

// pairStart reports whether a name preceded by before starts a [name,
// value] pair: nothing, an opening bracket or a comma before it, save a
// quote and blanks.
func pairStart(before string) bool {
	before = strings.TrimRight(before, " \t")
	if q := before; strings.HasSuffix(q, `\"`) || strings.HasSuffix(q, `\'`) {
		before = q[:len(q)-2]
	} else if strings.HasSuffix(q, `"`) || strings.HasSuffix(q, `'`) {
		before = q[:len(q)-1]
	}
	before = strings.TrimRight(before, " \t")
	return before == "" || strings.HasSuffix(before, "[") || strings.HasSuffix(before, "(")
}

// skipBlanks skips spaces, tabs and backslash-newline continuations.
func skipBlanks(s string, k int) int {
	for k < len(s) {
		switch {
		case s[k] == ' ' || s[k] == '\t':
			k++
		case s[k] == '\\' && strings.HasPrefix(s[k+1:], "\n"):
			k += 2
		case s[k] == '\\' && strings.HasPrefix(s[k+1:], "\r\n"):
			k += 3
		default:
			return k
		}
	}
	return k
}

// quoteAt returns the quote opening at s[k:]: a triple quote, an escaped
// quote (\" or \'), a quote or a backtick; "" when there is none.
func quoteAt(s string, k int) string {
	r := s[k:]
	switch {
	case strings.HasPrefix(r, `"""`), strings.HasPrefix(r, `'''`):
		return r[:3]
	case strings.HasPrefix(r, `\"`), strings.HasPrefix(r, `\'`):
		return r[:2]
	case r != "" && (r[0] == '"' || r[0] == '\'' || r[0] == '`'):
		return r[:1]
	}
	return ""
}

// value appends the value starting at s[v]; query says it is the value of
// a URL query parameter.
func value(s string, v int, query bool, spans []span) []span {
	if v >= len(s) || strings.HasPrefix(s[v:], Redacted) {
		return spans
	}
	if q := quoteAt(s, v); q != "" {
		lo := v + len(q)
		hi := closeQuote(s, lo, q)
		lo = skipScheme(s, lo, hi)
		if hi > lo && s[lo:hi] != Redacted {
			spans = append(spans, span{lo: lo, hi: hi})
		}
		return spans
	}
	switch s[v] {
	case '\n', '\r':
		return spans
	case '[', '{':
		hi := closeBracket(s, v)
		inner := s[v+1 : hi]
		repl := Redacted
		if strings.ContainsAny(inner, `"'`) {
			repl = `"` + Redacted + `"`
		}
		if strings.TrimSpace(inner) != "" && !strings.Contains(inner, Redacted) {
			spans = append(spans, span{lo: v + 1, hi: hi, repl: repl})
		}
		return spans
	}
	end := tokenEnd(s, v, query)
	lo := skipScheme(s, v, len(s))
	if lo > v {
		end = tokenEnd(s, lo, query)
	}
	if end > lo && !strings.HasPrefix(s[lo:], Redacted) {
		spans = append(spans, span{lo: lo, hi: end})
	}
	return spans
}

// closeQuote returns where the quote q opened before s[lo] closes, or
// len(s). A double quote honours backslash escapes.
func closeQuote(s string, lo int, q string) int {
	for k := lo; k < len(s); k++ {
		if q == `"` && s[k] == '\\' {
			k++
			continue
		}
		if strings.HasPrefix(s[k:], q) {
			return k
		}
	}
	return len(s)
}

// closeBracket returns the index of the bracket closing the one at s[v],
// skipping quoted text, or len(s).
func closeBracket(s string, v int) int {
	depth := 0
	for k := v; k < len(s); k++ {
		switch s[k] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return k
			}
		case '"', '\'':
			k = closeQuote(s, k+1, s[k:k+1])
		}
	}
	return len(s)
}

// authSchemes are the HTTP authentication schemes that stay visible before
// a redacted credential.
var authSchemes = []string{"bearer", "basic", "token", "digest", "negotiate", "apikey", "key", "jwt"}

// skipScheme returns the start of the credential after an authentication
// scheme word and blanks at s[lo:hi], or lo when there is none.
func skipScheme(s string, lo, hi int) int {
	k := lo
	for k < hi && (isUpper(s[k]) || s[k] >= 'a' && s[k] <= 'z') {
		k++
	}
	if k == lo || k >= hi || s[k] != ' ' || !inFold(s[lo:k], authSchemes) {
		return lo
	}
	c := skipBlanks(s, k)
	if c >= hi || tokenEnd(s, c, false) == c && !strings.HasPrefix(s[c:], Redacted) {
		return lo
	}
	return c
}

// bearerToken appends the token after the word "Bearer" ending at s[j]
// when one of 8 characters or more follows.
func bearerToken(s string, j int, spans []span) []span {
	c := skipBlanks(s, j)
	if c == j || c >= len(s) || strings.HasPrefix(s[c:], Redacted) {
		return spans
	}
	if end := tokenEnd(s, c, false); end-c >= 8 {
		spans = append(spans, span{lo: c, hi: end})
	}
	return spans
}

// tokenEnd returns the end of the unquoted value starting at s[k]; in a
// URL query a '#' ends it too.
func tokenEnd(s string, k int, query bool) int {
	for k < len(s) {
		switch s[k] {
		case ' ', '\t', '\n', '\r', '\f', '\v', '"', '\'', '`', '\\', ',', ';', '&', ')', ']', '}', '<', '>', '|':
			return k
		case '#':
			if query {
				return k
			}
		}
		k++
	}
	return k
}
