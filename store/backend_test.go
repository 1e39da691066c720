package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackendRegistry checks that Open, OpenReadOnly and Migrate name the
// package to import when a location's backend is not linked in, and that
// a kind is registered once.
func TestBackendRegistry(t *testing.T) {
	saved := backends
	backends = map[string]Backend{}
	t.Cleanup(func() { backends = saved })
	ctx := context.Background()
	for _, loc := range []string{filepath.Join(t.TempDir(), "x.db"), "postgres://u:s3cret@host/db"} {
		_, err := Open(ctx, loc)
		_, errRO := OpenReadOnly(ctx, loc)
		_, _, errM := Migrate(ctx, loc)
		for _, err := range []error{err, errRO, errM} {
			if err == nil || !strings.Contains(err.Error(), "store/all") || strings.Contains(err.Error(), "s3cret") {
				t.Errorf("%s with no backend: %v; want an error naming store/all, without the password", loc, err)
			}
		}
	}
	Register(SQLite, Backend{})
	for _, kind := range []string{SQLite, "mysql"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", kind)
				}
			}()
			Register(kind, Backend{})
		}()
	}
}
