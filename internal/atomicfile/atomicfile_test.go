package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v; want the writer's error", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "one" {
		t.Errorf("after a failed write the file holds %q; want the earlier %q", got, "one")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the directory; want only out.json (no temporary left)", len(entries))
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v; want 0644", st.Mode().Perm())
	}
}

// TestWriteRefused: a destination that is a directory, or whose
// directory is missing, is refused with an error that names the
// destination and never the temporary file, and write does not run.
func TestWriteRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		path, want string
	}{
		{dir, "writing " + dir + ": is a directory"},
		{filepath.Join(dir, "missing", "r.html"), "writing " + filepath.Join(dir, "missing", "r.html") + ": directory " + filepath.Join(dir, "missing") + ": no such file or directory"},
	} {
		ran := false
		err := Write(tt.path, func(io.Writer) error { ran = true; return nil })
		if err == nil || err.Error() != tt.want {
			t.Errorf("Write(%s) = %v; want %s", tt.path, err, tt.want)
		}
		if ran {
			t.Errorf("Write(%s) ran write for a destination it refuses", tt.path)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files left in %s; want none", len(entries), dir)
	}
}
