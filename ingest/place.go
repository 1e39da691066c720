package ingest

import (
	"os"
	"path/filepath"
	"strings"
)

// placer names the files Load reads for trial.Source.Key: by their path
// from a base directory, the parent of the ingest root (or of a CloudAI
// results tree), so that the name depends neither on the working
// directory nor on how the paths were written.
type placer struct {
	cwd  string // the working directory; empty when unknown
	base string // absolute parent of the ingest root
}

// newPlacer returns the placer of the paths given to Load; dirs[i] tells
// whether paths[i] is a directory. The ingest root is the deepest
// directory holding every path (a directory holds itself; a file is held
// by its directory).
func newPlacer(paths []string, dirs []bool) *placer {
	p := &placer{}
	if wd, err := os.Getwd(); err == nil {
		p.cwd = wd
	}
	root := ""
	for i, path := range paths {
		dir := p.abs(path)
		if !dirs[i] {
			dir = filepath.Dir(dir)
		}
		if i == 0 {
			root = dir
			continue
		}
		root = commonDir(root, dir)
	}
	p.base = filepath.Dir(root)
	return p
}

// abs returns path as an absolute, clean path (clean only when the
// working directory is unknown).
func (p *placer) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(p.cwd, path)
}

// key returns the Source.Key of the file at path: its path from base, with
// '/' separators ("" when that is path itself, which then stands for it).
// A file outside base (which Load does not produce) is named by its
// absolute path.
func (p *placer) key(base, path string) string {
	abs := p.abs(path)
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		rel = abs
	}
	if k := filepath.ToSlash(rel); k != path {
		return k
	}
	return ""
}

// commonDir returns the deepest directory holding the clean paths a and b.
func commonDir(a, b string) string {
	for !within(b, a) {
		parent := filepath.Dir(a)
		if parent == a {
			return a
		}
		a = parent
	}
	return a
}

// within reports whether the clean path p is dir or below it.
func within(p, dir string) bool {
	if !strings.HasPrefix(p, dir) {
		return false
	}
	return len(p) == len(dir) || strings.HasSuffix(dir, string(filepath.Separator)) || p[len(dir)] == filepath.Separator
}
