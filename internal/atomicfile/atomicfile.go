// Package atomicfile writes a file so that it is either complete or
// absent: the content goes to a temporary file in the same directory,
// which is renamed over the destination once written and closed. A
// process killed half way leaves no partial file for a reader (a tuning
// loop looking for result files, a browser opening a report) to find.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write creates path with mode 0644 from what write writes. On any error
// the temporary file is removed and path is left as it was. Errors name
// path (never the temporary file): a path that is a directory, or whose
// directory is missing or not writable, is refused before write runs.
func Write(path string, write func(w io.Writer) error) (err error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("writing %s: is a directory", path)
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			err = fmt.Errorf("directory %s: %w", dir, pe.Err)
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = f.Chmod(0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		if le := (*os.LinkError)(nil); errors.As(err, &le) {
			err = le.Err
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
