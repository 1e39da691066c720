package trial

import "strings"

// tokenFormat is a kind of credential recognisable by its own text, as
// secret scanners recognise them: a fixed prefix, then at least min
// characters of its alphabet.
type tokenFormat struct {
	prefix string
	min    int
	// upper: the body is upper-case letters and digits (AWS key IDs);
	// else letters, digits, '_' and '-'.
	upper bool
}

// tokenFormats are the credential formats RedactText recognises anywhere,
// whatever name (or none) precedes them.
var tokenFormats = []tokenFormat{
	{prefix: "hf_", min: 30},               // Hugging Face access token
	{prefix: "sk-", min: 20},               // OpenAI (sk-proj-…, sk-svcacct-…), Anthropic (sk-ant-…) API keys
	{prefix: "ghp_", min: 30},              // GitHub personal access token
	{prefix: "gho_", min: 30},              // GitHub OAuth token
	{prefix: "ghu_", min: 30},              // GitHub user-to-server token
	{prefix: "ghs_", min: 30},              // GitHub server-to-server token
	{prefix: "ghr_", min: 30},              // GitHub refresh token
	{prefix: "github_pat_", min: 22},       // GitHub fine-grained token
	{prefix: "glpat-", min: 20},            // GitLab personal access token
	{prefix: "xoxb-", min: 10},             // Slack bot token
	{prefix: "xoxp-", min: 10},             // Slack user token
	{prefix: "xoxa-", min: 10},             // Slack app token
	{prefix: "xoxs-", min: 10},             // Slack session token
	{prefix: "AKIA", min: 16, upper: true}, // AWS access key ID
	{prefix: "ASIA", min: 16, upper: true}, // AWS temporary access key ID
	{prefix: "AIza", min: 35},              // Google API key
	{prefix: "nvapi-", min: 20},            // NVIDIA API key
	{prefix: "r8_", min: 30},               // Replicate API token
	{prefix: "gsk_", min: 30},              // Groq API key
	{prefix: "pplx-", min: 30},             // Perplexity API key
}

// tokenBody reports whether c may be part of a token's body.
func tokenBody(c byte, upper bool) bool {
	if upper {
		return isUpper(c) || c >= '0' && c <= '9'
	}
	return isUpper(c) || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// tokenStart marks the first two bytes of the formats' prefixes (each
// has more), bit b0<<8 | b1 of the set.
var tokenStart = func() (m [1 << 16 / 64]uint64) {
	for _, f := range tokenFormats {
		k := uint16(f.prefix[0])<<8 | uint16(f.prefix[1])
		m[k/64] |= 1 << (k % 64)
	}
	return m
}()

// hasToken reports whether s may hold a token of a known format: a quick
// test before tokenSpans, one pass over s that tries the prefixes only
// where two bytes start one of them.
func hasToken(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if k := uint16(s[i])<<8 | uint16(s[i+1]); tokenStart[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		for _, f := range tokenFormats {
			if strings.HasPrefix(s[i:], f.prefix) {
				return true
			}
		}
	}
	return false
}

// tokenSpans appends every token of a known format in s: its prefix
// starting a word (not preceded by a letter, digit, '_' or '-') and a
// body of at least the format's length, up to the first other character.
// The prefix stays visible (hf_<redacted>), so that a reader knows what
// kind of credential was there.
func tokenSpans(s string, spans []span) []span {
	for _, f := range tokenFormats {
		for off := 0; ; {
			k := strings.Index(s[off:], f.prefix)
			if k < 0 {
				break
			}
			lo := off + k + len(f.prefix)
			off = lo
			if start := lo - len(f.prefix); start > 0 && tokenBody(s[start-1], false) {
				continue
			}
			hi := lo
			for hi < len(s) && tokenBody(s[hi], f.upper) {
				hi++
			}
			if hi-lo >= f.min && !strings.HasPrefix(s[lo:], Redacted) {
				spans = append(spans, span{lo: lo, hi: hi})
			}
			off = hi
		}
	}
	return spans
}
