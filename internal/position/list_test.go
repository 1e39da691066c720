package position

import (
	"errors"
	"testing"
)

func TestList(t *testing.T) {
	var empty List
	if empty.Err() != nil {
		t.Errorf("an empty list is an error")
	}
	l := List{{File: "a.toml", Line: 1, Col: 2, Msg: "one"}, {File: "a.toml", Line: 3, Msg: "two"}}
	err := l.Err()
	if err == nil || err.Error() != "a.toml:1:2: one\na.toml:3: two" {
		t.Errorf("List.Error() = %q", err)
	}
	var got List
	if !errors.As(err, &got) || len(got) != 2 {
		t.Errorf("errors.As does not find the list")
	}
}

func TestListSort(t *testing.T) {
	l := List{{Line: 3, Msg: "c"}, {Line: 1, Col: 4, Msg: "b"}, {Line: 3, Msg: "d"}, {Line: 1, Col: 2, Msg: "a"}}
	l.Sort()
	var got string
	for _, e := range l {
		got += e.Msg
	}
	if got != "abcd" {
		t.Errorf("List.Sort order = %s; want abcd", got)
	}
}
