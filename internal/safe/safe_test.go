package safe

import (
	"errors"
	"strings"
	"testing"
)

func TestRecover(t *testing.T) {
	read := func(fail bool) (n int, err error) {
		defer Recover(&err, "reading", "in.json")
		if fail {
			var m map[string]int
			//lint:ignore SA5000 the test needs a real runtime panic
			m["x"] = 1 // a nil map: a runtime panic
		}
		return 1, nil
	}
	if n, err := read(false); n != 1 || err != nil {
		t.Fatalf("no panic: %d, %v", n, err)
	}
	_, err := read(true)
	var ie *InternalError
	if !errors.As(err, &ie) || ie.Input != "in.json" || ie.Doing != "reading" {
		t.Fatalf("error %v; want an *InternalError for in.json", err)
	}
	const want = "internal error reading in.json: assignment to entry in nil map (a bug in pareto: please report it; PARETO_PANIC_TRACE=1 adds the stack trace)"
	if err.Error() != want {
		t.Errorf("message %q; want %q", err, want)
	}
	t.Setenv(TraceEnv, "1")
	if msg := err.Error(); !strings.HasPrefix(msg, "internal error reading in.json: assignment to entry in nil map\ngoroutine ") || !strings.Contains(msg, "safe_test.go") {
		t.Errorf("with %s: %.300s", TraceEnv, msg)
	}
}
