package trial

// This file removes passwords from store and storage locations and from
// the errors that name them: the store and the Optuna reader route every
// message that can carry a location through it, whether or not the
// location parses as a URL (a password holding '#', '/', '?', a space, '['
// or a bad %-escape makes net/url refuse it, and its error quotes the URL
// whole). With RedactText (texts) and the secret keys (IsSecretKey), it is
// the one redaction policy of pareto.

import (
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

var (
	keywordPassword = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)
	queryPassword   = regexp.MustCompile(`(?i)([?&]password=)([^&#]*)`)
	// pragmaKey is an encryption key given to SQLite in the location
	// (?_pragma=key('…'), hexkey, textkey; also %-encoded parentheses).
	pragmaKey = regexp.MustCompile(`(?i)(_pragma=(?:hex|text)?key(?:\(|%28))([^)&#]*?)(\)|%29|&|#|$)`)
)

// userinfo splits a URL-shaped location (SCHEME://...) at its user info,
// read as text so that locations net/url refuses split too: the user runs
// from "://" to the first ':', the password from there to the last '@'
// (a password may hold any character; an '@' after the host, rare, makes
// more than the password hidden, never less). ok is false when location
// has no "://" (a path, or key/value connection string); hasPassword
// when its user info has a ':'.
func userinfo(location string) (head, user, password, rest string, ok, hasPassword bool) {
	i := strings.Index(location, "://")
	if i < 0 {
		return "", "", "", location, false, false
	}
	head, rest = location[:i+3], location[i+3:]
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return head, "", "", rest, true, false
	}
	info := rest[:at]
	user, password, hasPassword = strings.Cut(info, ":")
	return head, user, password, rest[at+1:], true, hasPassword
}

// RedactLocation returns location with every password replaced by Redacted: the
// password of a URL's user info, a password= query parameter, a
// password=... keyword of a key/value connection string, and a SQLite
// encryption key (_pragma=key(…), hexkey, textkey). Locations without
// a password are returned unchanged.
func RedactLocation(location string) string {
	location = pragmaKey.ReplaceAllString(location, "${1}"+Redacted+"${3}")
	head, user, _, rest, ok, hasPassword := userinfo(location)
	if !ok {
		return keywordPassword.ReplaceAllString(location, "${1}"+Redacted)
	}
	rest = queryPassword.ReplaceAllString(rest, "${1}"+Redacted)
	switch {
	case hasPassword:
		return head + user + ":" + Redacted + "@" + rest
	case strings.Contains(location[len(head):], "@"):
		return head + user + "@" + rest
	}
	return head + rest
}

// minPiece is the shortest part of a password (split at a character URL
// parsers stop at) that is hidden on its own: shorter ones would mask
// common letters of a message.
const minPiece = 4

// locationSecrets returns the passwords location holds, in every spelling an error
// may print: as written, %-decoded, %-encoded, quoted, and the parts a URL
// parser that stops at '#', '?', '/', '[' or a space quotes alone.
func locationSecrets(location string) []string {
	var out []string
	add := func(p string) {
		if p == "" {
			return
		}
		out = append(out, p, url.QueryEscape(p), url.PathEscape(p))
		if q := strconv.Quote(p); q[1:len(q)-1] != p {
			out = append(out, q[1:len(q)-1])
		}
		if d, err := url.PathUnescape(p); err == nil && d != p {
			out = append(out, d)
		}
		for _, piece := range strings.FieldsFunc(p, func(r rune) bool { return strings.ContainsRune("#?/[] ", r) }) {
			if len(piece) >= minPiece && piece != p {
				out = append(out, piece)
			}
		}
	}
	for _, m := range pragmaKey.FindAllStringSubmatch(location, -1) {
		add(strings.Trim(m[2], "'\"%27"))
		add(m[2])
	}
	_, _, password, rest, ok, hasPassword := userinfo(location)
	if ok {
		if hasPassword {
			add(password)
		}
		for _, m := range queryPassword.FindAllStringSubmatch(rest, -1) {
			add(m[2])
		}
		return out
	}
	for _, m := range keywordPassword.FindAllStringSubmatch(location, -1) {
		add(strings.Trim(m[2], "'"))
	}
	return out
}

// LocationPasswords returns the passwords location holds, in every spelling a
// message may print them (see RedactError): for clearing them from texts that
// do not come from an error, such as a job's environment.
func LocationPasswords(location string) []string { return locationSecrets(location) }

// scrubbed is an error whose text has the secrets removed; it unwraps to
// the original.
type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

// RedactError returns err with every password of location (see secrets) removed
// from its text; errors.Is and errors.As still see the original error. A
// nil err is nil.
func RedactError(err error, location string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	out := msg
	for _, s := range locationSecrets(location) {
		out = strings.ReplaceAll(out, s, Redacted)
	}
	if out == msg {
		return err
	}
	var se *scrubbed
	if errors.As(err, &se) && se.msg == msg {
		return err
	}
	return &scrubbed{msg: out, err: err}
}
