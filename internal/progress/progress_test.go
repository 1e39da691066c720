package progress

import (
	"bytes"
	"os"
	"testing"
)

// TestNotATerminal: a buffer, a pipe or /dev/null gets no bar: New returns
// the counter that writes nothing.
func TestNotATerminal(t *testing.T) {
	var buf bytes.Buffer
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, out := range map[string]any{"buffer": &buf, os.DevNull: null, "pipe": w} {
		if IsTerminal(out) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
	c := New(&buf, "ingest", "inputs")
	if _, ok := c.(nop); !ok {
		t.Errorf("New(buffer) = %T; want the counter that does nothing", c)
	}
	c.Set(1, 2)
	c.Done()
	c.Done()
	if buf.Len() > 0 {
		t.Errorf("a buffer got %q", buf.String())
	}
}
