package trial

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestRedactLocation(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"postgres://u:secret@db:5432/p?sslmode=disable", "postgres://u:<redacted>@db:5432/p?sslmode=disable"},
		{"postgres://u@db/p", "postgres://u@db/p"},
		{"postgres://db/p", "postgres://db/p"},
		{"postgres://db/p?password=secret&sslmode=disable", "postgres://db/p?password=<redacted>&sslmode=disable"},
		{"host=db user=u password=secret dbname=p", "host=db user=u password=<redacted> dbname=p"},
		{"host=db password='a b' dbname=p", "host=db password=<redacted> dbname=p"},
		{"pareto.db", "pareto.db"},
		{"sqlite:///tmp/x.db", "sqlite:///tmp/x.db"},
		{"sqlite:///tmp/x.db?_pragma=key('s3cretkey')", "sqlite:///tmp/x.db?_pragma=key(<redacted>)"},
		{"file:x.db?_pragma=hexkey(00112233aabb)&_pragma=busy_timeout(10)", "file:x.db?_pragma=hexkey(<redacted>)&_pragma=busy_timeout(10)"},
		{"x.db?_pragma=textkey%28%27s3cret%27%29", "x.db?_pragma=textkey%28<redacted>%29"},
		// Locations net/url refuses, or misreads ("u:123" as a host and port).
		{"postgres://u:hunter2zebra@db:99999/p", "postgres://u:<redacted>@db:99999/p"},
		{"postgres://u:hunter2zebra@db:port/p", "postgres://u:<redacted>@db:port/p"},
		{"postgres://u:hun#ter2@db/p", "postgres://u:<redacted>@db/p"},
		{"postgres://u:hun/ter2@db/p", "postgres://u:<redacted>@db/p"},
		{"postgres://u:hun?ter2@db/p", "postgres://u:<redacted>@db/p"},
		{"postgres://u:hun ter2@db/p", "postgres://u:<redacted>@db/p"},
		{"postgres://u:hun%ZZter2@db/p", "postgres://u:<redacted>@db/p"},
		{"postgres://u:hun[ter2@db/p", "postgres://u:<redacted>@db/p"},
		{"postgres://u:123/abc@db/p", "postgres://u:<redacted>@db/p"},
		{"postgresql+psycopg2://u:p@ss@db/p", "postgresql+psycopg2://u:<redacted>@db/p"},
	} {
		if got := RedactLocation(tt.in); got != tt.want {
			t.Errorf("RedactLocation(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// TestError checks that the errors of net/url, which quote the location
// or parts of it, lose the password in every shape.
func TestRedactError(t *testing.T) {
	base := errors.New("base")
	for _, pw := range []string{"hunter2zebra", "hunter2#zebra", "hunter2/zebra", "hunter2?zebra", "hunter2 zebra",
		"hunter2%ZZzebra", "hunter2[zebra", `hunter2"zebra`, "hunter2%40zebra"} {
		loc := "postgres://u:" + pw + "@127.0.0.1:5432/p"
		_, perr := url.Parse(loc)
		for _, err := range []error{perr, fmt.Errorf("opening %s: %w", loc, base), fmt.Errorf("%q", loc)} {
			if err == nil {
				continue
			}
			got := RedactError(err, loc)
			if strings.Contains(got.Error(), "hunter2") || strings.Contains(got.Error(), "zebra") {
				t.Errorf("RedactError(%v) = %q; want the password hidden", err, got)
			}
			if errors.Is(err, base) && !errors.Is(got, base) {
				t.Errorf("RedactError(%v) no longer wraps the original", err)
			}
		}
	}
	if RedactError(nil, "postgres://u:p@h/d") != nil {
		t.Error("RedactError(nil) != nil")
	}
	plain := errors.New("nothing to hide")
	if RedactError(plain, "postgres://u:secret@h/d") != plain {
		t.Error("Error of an error without the password is not the error itself")
	}
}
