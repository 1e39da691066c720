package store

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// redacted replaces a password wherever one would be printed.
const redacted = "xxxxx"

var keywordPassword = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)

// Redact returns location with any password replaced by "xxxxx": the
// password of a URL's user info, a password= query parameter and a
// password=... keyword of a key/value connection string. Locations without
// a password are returned unchanged.
func Redact(location string) string {
	if u, err := url.Parse(location); err == nil && u.Scheme != "" && u.Host != "" {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), redacted)
		}
		q := u.Query()
		changed := false
		for k := range q {
			if strings.EqualFold(k, "password") {
				q.Set(k, redacted)
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	return keywordPassword.ReplaceAllString(location, "${1}"+redacted)
}

// secrets returns the passwords contained in location, to scrub them from
// driver error messages.
func secrets(location string) []string {
	var out []string
	if u, err := url.Parse(location); err == nil {
		if p, has := u.User.Password(); has && p != "" {
			out = append(out, p, url.QueryEscape(p), url.PathEscape(p))
		}
		for k, vs := range u.Query() {
			if strings.EqualFold(k, "password") {
				out = append(out, vs...)
			}
		}
	}
	for _, m := range keywordPassword.FindAllStringSubmatch(location, -1) {
		out = append(out, strings.Trim(m[2], "'"))
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
		if len(s) >= 1 {
			out = strings.ReplaceAll(out, s, redacted)
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
