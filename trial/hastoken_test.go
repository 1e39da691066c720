package trial

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestHasToken checks hasToken, which tries the prefixes only where two
// bytes start one, against trying every prefix at every byte.
func TestHasToken(t *testing.T) {
	brute := func(s string) bool {
		for i := range len(s) {
			for _, f := range tokenFormats {
				if strings.HasPrefix(s[i:], f.prefix) {
					return true
				}
			}
		}
		return false
	}
	alphabet := "hfskgpuoithbarlxASIKzn8v-_ .:=/"
	rng := rand.New(rand.NewPCG(1, 2))
	var cases []string
	for _, f := range tokenFormats {
		cases = append(cases, f.prefix, "x"+f.prefix, f.prefix[:len(f.prefix)-1], "a "+f.prefix[:2])
	}
	for range 20000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if rng.IntN(4) == 0 {
			f := tokenFormats[rng.IntN(len(tokenFormats))].prefix
			at := rng.IntN(len(b) + 1)
			b = append(b[:at], append([]byte(f), b[at:]...)...)
		}
		cases = append(cases, string(b))
	}
	found := 0
	for _, s := range cases {
		want := brute(s)
		if got := hasToken(s); got != want {
			t.Fatalf("hasToken(%q) = %v, want %v", s, got, want)
		}
		if want {
			found++
		}
	}
	if found < 1000 {
		t.Fatalf("only %d of %d cases hold a prefix", found, len(cases))
	}
}
