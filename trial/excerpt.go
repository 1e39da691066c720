package trial

import "unicode/utf8"

// ExcerptLen is the most characters of an input that an error quotes.
const ExcerptLen = 40

// Excerpt returns s as an error may quote it: through the redaction
// policy (RedactText), then cut to ExcerptLen characters with "…", so
// that a message never carries a secret or a whole record of its input.
func Excerpt(s string) string {
	s = RedactText(s)
	if utf8.RuneCountInString(s) <= ExcerptLen {
		return s
	}
	n := 0
	for i := range s {
		if n == ExcerptLen {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
