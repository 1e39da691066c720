package executor

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestShellPlaces checks the place of the X of each script.
func TestShellPlaces(t *testing.T) {
	tests := []struct {
		script string
		want   ShellPlace
	}{
		{"run X", Unquoted},
		{"run --tp=X", Unquoted},
		{"run out-X.json", Unquoted},
		{"a; b X", Unquoted},
		{"echo $(run X)", Unquoted},
		{`echo "$(run X)"`, Unquoted},
		{`echo "$(run "a" X)"`, Unquoted},
		{"(cd d && run X)", Unquoted},
		{"run 'a' X 'b'", Unquoted},
		{`run "a" X "b"`, Unquoted},
		{"run 'X'", SingleQuoted},
		{"run 'a X b'", SingleQuoted},
		{`run "X"`, DoubleQuoted},
		{`run "--tp=X"`, DoubleQuoted},
		{`run "a 'b' X"`, DoubleQuoted},
		{`run "$(a)X"`, DoubleQuoted},
		{"run `echo X`", Backquoted},
		{"run \"`echo X`\"", Backquoted},
		{"run $((X + 1))", Arithmetic},
		{"run $(( (1+2) * X ))", Arithmetic},
		{"run ${V:-X}", Expansion},
		{"run \\X", Escaped},
		{"run # X", Comment},
		{"run #X", Comment},
		{"run a#X", Unquoted},
		{"cat <<EOF\nX\nEOF", HereDoc},
		{"cat <<'EOF'\nX\nEOF", HereDoc},
		{"cat <<-EOF\n\tX\n\tEOF", HereDoc},
		{"cat <<EOF >X\nbody\nEOF", Unquoted},
		{"cat <<EOF\nbody\nEOF\nrun X", Unquoted},
		{"run 'a' \\' X", Unquoted},
		{`run "a\"" X`, Unquoted},
		{"run $(echo ')') X", Unquoted},
	}
	for _, tt := range tests {
		at := strings.IndexByte(tt.script, 'X')
		got, err := ShellPlaces(tt.script, []int{at})
		if err != nil {
			t.Errorf("ShellPlaces(%q): %v", tt.script, err)
			continue
		}
		if got[0] != tt.want {
			t.Errorf("ShellPlaces(%q) = %s; want %s", tt.script, got[0], tt.want)
		}
	}
}

// TestShellPlacesUnclosed checks that every construct left open is
// reported at its opening.
func TestShellPlacesUnclosed(t *testing.T) {
	for script, want := range map[string]ShellSyntaxError{
		"run 'a":             {Offset: 4, What: "'"},
		`run "a`:             {Offset: 4, What: `"`},
		"run `a":             {Offset: 4, What: "`"},
		"run $(a":            {Offset: 4, What: "$("},
		"run ${a":            {Offset: 4, What: "${"},
		"run $((1":           {Offset: 4, What: "$(("},
		"cat <<EOF\nbody\nE": {Offset: 4, What: "here-document <<EOF"},
		"cat <<EOF":          {Offset: 4, What: "here-document <<EOF"},
	} {
		_, err := ShellPlaces(script, nil)
		var se *ShellSyntaxError
		if !errors.As(err, &se) || *se != want {
			t.Errorf("ShellPlaces(%q) error %v; want %+v", script, err, want)
		}
	}
}

// TestShellPlacesUnquotedIsOneWord checks the claim ShellPlaces makes with
// /bin/sh: a quoted hostile value put where it says Unquoted reaches the
// command as the literal text (printf %s prints its arguments joined), and
// where it says otherwise it does not.
func TestShellPlacesUnquotedIsOneWord(t *testing.T) {
	const value = "a'b\"c $(echo PWN) `echo PWN` ; echo PWN"
	q := ShellQuote(value)
	for _, tt := range []struct{ script, want string }{
		{"printf '[%s]' X", "[" + value + "]"},
		{"printf '[%s]' --v=X", "[--v=" + value + "]"},
		{"printf '[%s]' \"$(printf %s X)\"", "[" + value + "]"},
		{"printf '[%s]' \"X\"", ""},
		{"printf '[%s]' `printf %s X`", ""},
	} {
		script := strings.Replace(tt.script, "X", q, 1)
		places, err := ShellPlaces(tt.script, []int{strings.IndexByte(tt.script, 'X')})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := exec.Command("/bin/sh", "-c", script).Output()
		if places[0] == Unquoted && string(out) != tt.want {
			t.Errorf("%s: sh printed %q; want %q", tt.script, out, tt.want)
		}
		if places[0] != Unquoted && string(out) == "["+value+"]" {
			t.Errorf("%s: %s, yet sh printed the value", tt.script, places[0])
		}
		if (tt.want != "") != (places[0] == Unquoted) {
			t.Errorf("%s: place %s", tt.script, places[0])
		}
	}
}
