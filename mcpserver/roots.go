package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// ErrOutsideRoots is the error of a path argument that leaves the roots
// a tool may read and create files in.
var ErrOutsideRoots = errors.New("outside the roots")

// noRootsVersion is the first protocol version without server-initiated
// roots/list (roots are deprecated, SEP-2577): its clients' roots are not
// asked for.
const noRootsVersion = "2026-07-28"

// rootsTimeout bounds the wait for the client's answer to roots/list.
const rootsTimeout = 10 * time.Second

// scope is what one tool call may reach: the directories its paths must
// lie in (symlinks evaluated) and the stores it may name.
type scope struct {
	roots []string // absolute, symlinks evaluated
	// store is the server's own store location; storePath its file, for
	// SQLite (symlinks evaluated).
	store, storePath string
	allow            []string // PostgreSQL stores a client may name
}

type scopeKey struct{}

// scopeOf is the scope of the tool call ctx belongs to (nil outside one:
// nothing is confined).
func scopeOf(ctx context.Context) *scope {
	sc, _ := ctx.Value(scopeKey{}).(*scope)
	return sc
}

// resolveRoots makes the server's roots absolute with their symlinks
// evaluated; each must be an existing directory.
func resolveRoots(dirs []string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", d, err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("root %s: not a directory", d)
		}
		out = append(out, abs)
	}
	return out, nil
}

// callScope is the scope of a tool call of session ss: the server's roots,
// or, when the client lists roots, those (within the server's --root
// directories when they were given).
func (t *tools) callScope(ctx context.Context, ss *mcp.ServerSession) (*scope, error) {
	sc := &scope{roots: t.roots, store: t.location(""), allow: t.opts.AllowStores}
	if p, ok, _ := store.SQLitePath(sc.store); ok {
		sc.storePath = resolvePath(p)
	}
	if ss == nil {
		return sc, nil
	}
	ip := ss.InitializeParams()
	//lint:ignore SA1019 roots are what the client offers up to protocol 2025-11-25 (the "the client's MCP roots")
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.RootsV2 == nil || ip.ProtocolVersion >= noRootsVersion {
		return sc, nil
	}
	lctx, cancel := context.WithTimeout(ctx, rootsTimeout)
	defer cancel()
	//lint:ignore SA1019 as above: listed only below noRootsVersion
	res, err := ss.ListRoots(lctx, nil)
	if err != nil {
		return nil, fmt.Errorf("the client offers roots but did not list them: %w", err)
	}
	var client []string
	for _, r := range res.Roots {
		if p, ok := rootPath(r.URI); ok {
			client = append(client, p)
		}
	}
	if len(res.Roots) == 0 {
		return sc, nil // a client with no roots leaves the server's
	}
	if len(t.opts.Roots) == 0 {
		sc.roots = client
		return sc, nil
	}
	sc.roots = intersect(t.roots, client)
	return sc, nil
}

// rootPath is the directory a file:// root URI names, symlinks evaluated.
func rootPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Host != "" && u.Host != "localhost" || !filepath.IsAbs(u.Path) {
		return "", false
	}
	p, err := filepath.EvalSymlinks(filepath.Clean(u.Path))
	if err != nil {
		return "", false
	}
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return "", false
	}
	return p, true
}

// intersect is the part of the trees a that the trees b cover.
func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			switch {
			case within(y, x):
				out = append(out, y)
			case within(x, y):
				out = append(out, x)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// within reports whether path p is root or lies under it (both clean and
// absolute).
func within(p, root string) bool {
	if p == root || root == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(p, root+string(filepath.Separator))
}

func (sc *scope) inRoots(p string) bool {
	for _, r := range sc.roots {
		if within(p, r) {
			return true
		}
	}
	return false
}

func (sc *scope) outside(arg, p string) error {
	roots := "none"
	if len(sc.roots) > 0 {
		roots = strings.Join(sc.roots, ", ")
	}
	return fmt.Errorf("%s %q: %w the server may read and write (%s; pareto mcp --root, or the client's roots)", arg, p, ErrOutsideRoots, roots)
}

// resolvePath is p absolute with the symlinks of its existing part
// evaluated; "" when a component that exists cannot be evaluated (a
// dangling or looping symlink).
func resolvePath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	var rest []string
	for {
		r, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		if _, lerr := os.Lstat(abs); lerr == nil || !errors.Is(lerr, fs.ErrNotExist) {
			return "" // it exists, yet does not resolve
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return ""
		}
		rest = append([]string{filepath.Base(abs)}, rest...)
		abs = parent
	}
}

// read checks a path a tool reads (argument arg): it lies in the roots
// with its symlinks evaluated, and a directory holds no symlink that
// leads out of them. A path that does not exist is checked where it
// would be (the reader then says it is missing).
func (sc *scope) read(arg, p string) error {
	if sc == nil {
		return nil
	}
	if p == "-" {
		return fmt.Errorf("%s %q: standard input is the MCP session, not a file", arg, p)
	}
	r := resolvePath(p)
	if r == "" || !sc.inRoots(r) {
		return sc.outside(arg, p)
	}
	if st, err := os.Stat(r); err == nil && st.IsDir() {
		return sc.walk(arg, p, r, map[string]bool{})
	}
	return nil
}

// walk checks that no symlink under directory dir (resolved: r) leads out
// of the roots, following those that stay in (seen: directories walked).
func (sc *scope) walk(arg, p, r string, seen map[string]bool) error {
	if seen[r] {
		return nil
	}
	seen[r] = true
	return filepath.WalkDir(r, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: the reader says so
		}
		if e.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		t, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil // dangling: nothing to read
		}
		if !sc.inRoots(t) {
			rel, _ := filepath.Rel(r, path)
			return fmt.Errorf("%s %q: %s is a symlink %w the server may read (%s)", arg, p, filepath.Join(p, rel), ErrOutsideRoots, strings.Join(sc.roots, ", "))
		}
		if st, err := os.Stat(t); err == nil && st.IsDir() {
			return sc.walk(arg, p, t, seen)
		}
		return nil
	})
}

// reads checks the paths of a list argument (arg[i]).
func (sc *scope) reads(arg string, paths []string) error {
	for i, p := range paths {
		if err := sc.read(fmt.Sprintf("%s[%d]", arg, i), p); err != nil {
			return err
		}
	}
	return nil
}

// side checks a gate side: its elements that name files, and those that
// are no selection (so a path outside the roots is refused whether it
// exists or not).
func (sc *scope) side(arg string, specs []string) error {
	for i, s := range specs {
		if !source.IsPath(s) {
			if _, err := repeat.ParseSelection(s); err == nil {
				continue
			}
		}
		name := arg
		if len(specs) > 1 || arg == "candidate" {
			name = fmt.Sprintf("%s[%d]", arg, i)
		}
		if err := sc.read(name, s); err != nil {
			return err
		}
	}
	return nil
}

// optunaAt checks the Optuna storage a tool names (argument optuna; ""
// is none): a PostgreSQL URL must be one pareto mcp --allow-store names; a
// SQLite storage must be a plain file path (or sqlite:///PATH, SQLAlchemy's
// form) in the roots, without URI parameters. It is only read.
func (sc *scope) optunaAt(loc string) error {
	if sc == nil || loc == "" {
		return nil
	}
	lower := strings.ToLower(loc)
	if strings.HasPrefix(lower, "postgres") {
		if slices.Contains(sc.allow, loc) {
			return nil
		}
		return fmt.Errorf("optuna %q: a PostgreSQL storage must be allowed with pareto mcp --allow-store", trial.RedactLocation(loc))
	}
	p := loc
	if strings.HasPrefix(lower, "sqlite:///") {
		p = loc[len("sqlite:///"):]
	}
	if strings.HasPrefix(strings.ToLower(p), "file:") || strings.ContainsAny(p, "?#") || strings.Contains(p, "://") {
		return fmt.Errorf("optuna %q: give the storage's file; a SQLite URI or parameters are not allowed", trial.RedactLocation(loc))
	}
	return sc.read("optuna", p)
}

// storeAt checks the store a tool names (argument store; "" is the
// server's, always allowed): a PostgreSQL URL must be the server's store
// or one pareto mcp --allow-store names; a SQLite file must be the
// server's or lie in the roots, where Open may create it.
func (sc *scope) storeAt(loc string) error {
	if sc == nil || loc == "" || loc == sc.store {
		return nil
	}
	p, local, err := store.SQLitePath(loc)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if !local {
		if slices.Contains(sc.allow, loc) {
			return nil
		}
		return fmt.Errorf("store %q: a PostgreSQL store other than the server's must be allowed with pareto mcp --allow-store", trial.RedactLocation(loc))
	}
	if strings.HasPrefix(strings.ToLower(p), "file:") {
		return fmt.Errorf("store %q: a SQLite URI inside a store location is not allowed", trial.RedactLocation(loc))
	}
	r := resolvePath(p)
	if r != "" && r == sc.storePath {
		return nil
	}
	if r == "" || !sc.inRoots(r) {
		return sc.outside("store", trial.RedactLocation(loc))
	}
	return nil
}
