package store

import "github.com/pareto-llm/pareto/internal/redact"

// Redact returns location with any password replaced by "<redacted>": the
// password of a URL's user info (read as text, so that a URL net/url
// refuses is redacted too), a password= query parameter and a password=...
// keyword of a key/value connection string. Locations without a password
// are returned unchanged.
func Redact(location string) string { return redact.Location(location) }

// scrub returns err with every password of location removed from its
// text, while keeping it unwrappable (redact.Error).
func scrub(err error, location string) error { return redact.Error(err, location) }
