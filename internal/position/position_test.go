package position

import (
	"errors"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
)

func TestErrorString(t *testing.T) {
	for _, tt := range []struct {
		err  Error
		want string
	}{
		{Error{File: "a.csv", Line: 3, Col: 7, Msg: "bad"}, "a.csv:3:7: bad"},
		{Error{File: "a.csv", Line: 3, Msg: "bad"}, "a.csv:3: bad"},
		{Error{File: "a.csv", Msg: "bad"}, "a.csv: bad"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%+v.Error() = %q; want %q", tt.err, got, tt.want)
		}
	}
	cause := errors.New("cause")
	if e := (&Error{File: "f", Msg: "m", Err: cause}); !errors.Is(e, cause) {
		t.Errorf("errors.Is(%v, cause) = false", e)
	}
}

func TestIndexTOML(t *testing.T) {
	doc := []byte(`title = "x"
[[Tests]]
id = "a"
[[Tests]]
  id = "b"
  cmd = { tp = [1, 2] }
[reports.pareto]
enable = true
`)
	ix := IndexTOML(doc)
	for path, want := range map[string]Pos{
		"title": {1, 1}, "Tests.0": {2, 3}, "Tests.0.id": {3, 1}, "Tests.1": {4, 3}, "Tests.1.id": {5, 3},
		"Tests.1.cmd.tp": {6, 11}, "Tests.1.cmd.tp.1": {6, 20}, "reports.pareto.enable": {8, 1},
	} {
		if got := ix[path]; got != want {
			t.Errorf("IndexTOML[%s] = %v; want %v", path, got, want)
		}
	}
	if got := ix.ArrayTableLines("Tests"); len(got) != 2 || got[0] != 2 || got[1] != 4 {
		t.Errorf("ArrayTableLines(Tests) = %v; want [2 4]", got)
	}
}

func TestTOMLError(t *testing.T) {
	var v struct{ N int }
	err := toml.Unmarshal([]byte("n = 1\nN = \"x\"\n"), &v)
	e := TOMLError("c.toml", err)
	if e.File != "c.toml" || e.Line != 2 || e.Col == 0 || !errors.Is(e, err) {
		t.Errorf("TOMLError = %+v (%v)", e, e)
	}
}

func TestDecodeTOML(t *testing.T) {
	var v struct{ N int }
	if err := DecodeTOML("c.toml", []byte("N = 3\n"), &v); err != nil || v.N != 3 {
		t.Errorf("DecodeTOML(N = 3) = %v, N = %d; want nil, 3", err, v.N)
	}
	err := DecodeTOML("c.toml", []byte("n = 1\nN = \"x\"\n"), &v)
	var e *Error
	if !errors.As(err, &e) || e.File != "c.toml" || e.Line != 2 {
		t.Errorf("DecodeTOML(bad) = %v; want a c.toml:2 *Error", err)
	}
}

func TestPosCompare(t *testing.T) {
	for _, tt := range []struct {
		p, q Pos
		want int
	}{
		{Pos{1, 5}, Pos{2, 1}, -1},
		{Pos{2, 1}, Pos{1, 5}, 1},
		{Pos{3, 2}, Pos{3, 7}, -1},
		{Pos{3, 7}, Pos{3, 7}, 0},
	} {
		if got := tt.p.Compare(tt.q); got != tt.want {
			t.Errorf("%v.Compare(%v) = %d; want %d", tt.p, tt.q, got, tt.want)
		}
	}
}
