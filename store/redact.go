package store

import (
	"errors"
	"net/url"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// Redact returns location with every secret replaced by trial.Redacted,
// by the one policy of trial.RedactText: the password of a URL's user
// info, a password= (or other secret) query parameter and a password=...
// keyword of a key/value connection string. Locations without a secret
// are returned unchanged.
func Redact(location string) string { return trial.RedactText(location) }

// secrets returns the secrets contained in location, as written and
// URL-decoded or encoded, to scrub them from driver error messages.
func secrets(location string) []string {
	var out []string
	for _, s := range trial.Secrets(location) {
		out = append(out, s, url.QueryEscape(s), url.PathEscape(s))
		if u, err := url.PathUnescape(s); err == nil {
			out = append(out, u)
		}
		if u, err := url.QueryUnescape(s); err == nil {
			out = append(out, u)
		}
	}
	return out
}

// scrubError hides secrets in err's message while keeping it unwrappable.
type scrubError struct {
	msg string
	err error
}

func (e *scrubError) Error() string { return e.msg }
func (e *scrubError) Unwrap() error { return e.err }

// scrub returns err with every secret of location removed from its text.
func scrub(err error, location string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	out := msg
	for _, s := range secrets(location) {
		if s != "" {
			out = strings.ReplaceAll(out, s, trial.Redacted)
		}
	}
	if out == msg {
		return err
	}
	var se *scrubError
	if errors.As(err, &se) && se.msg == msg {
		return err
	}
	return &scrubError{msg: out, err: err}
}
