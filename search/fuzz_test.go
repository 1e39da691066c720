package search

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/internal/position"
)

// FuzzParseSpace: any input gives a space or positioned errors, never a
// panic; a space that parses gives a study whose configurations all pass
// Check, and a fingerprint that parsing it again keeps.
func FuzzParseSpace(f *testing.F) {
	example, err := os.ReadFile(filepath.Join("..", "examples", "search", "vllm.toml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	f.Add([]byte(smallGrid))
	f.Add([]byte("constraints = [\"a * (b + 1) / 2 >= -c\"]\n[params.a]\nvalues = [1, 2.5]\n[params.b]\nlow = 1\nhigh = 9\nlog = true\n[params.c]\nlow = -1.0\nhigh = 1.0\nstep = 0.5\nwhen = { a = 1 }\n"))
	f.Add([]byte("[params.q]\nvalues = [\"x\", true, 3]\ndefault = true\nknob = \"client\"\n"))
	f.Add([]byte("[params.a]\nvalues = []\n[params.b]\nlow = 3\nhigh = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSpace("f.toml", data)
		if err != nil {
			var list position.List
			var one *position.Error
			if !errors.As(err, &list) && !errors.As(err, &one) {
				t.Fatalf("error %T is not positioned: %v", err, err)
			}
			if !strings.HasPrefix(err.Error(), "f.toml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		again, err := ParseSpace("g.toml", data)
		if err != nil || again.Fingerprint() != s.Fingerprint() {
			t.Fatalf("parsing again: %v, fingerprint %s vs %s", err, again.Fingerprint(), s.Fingerprint())
		}
		if len(s.Params) > 16 {
			return
		}
		for _, sampler := range []string{Random, Sobol} {
			st, err := NewStudy(s, Options{Sampler: sampler})
			if err != nil {
				t.Fatal(err)
			}
			for range 5 {
				tr, err := st.Ask()
				if errors.Is(err, ErrInfeasible) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Check(tr.Config); err != nil {
					t.Fatalf("%s asked %s: %v", sampler, tr.Config, err)
				}
			}
		}
	})
}

// FuzzComparison: the expression parser never panics and places its
// errors inside the text.
func FuzzComparison(f *testing.F) {
	for _, s := range []string{"tp * pp * dp <= gpus", "(a+b)/2 != -c", "1e3 < x", "a <= (b", "1.2.3 > a", "a == b == c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseComparison(s)
		if err != nil {
			var e *ExprError
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(s) {
				t.Fatalf("parse %q: %v", s, err)
			}
			return
		}
		c.holds(func(string) (float64, bool) { return 1, true })
	})
}
