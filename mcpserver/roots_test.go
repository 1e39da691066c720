package mcpserver_test

import (
	"bytes"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pareto-llm/pareto/mcpserver"
)

// connectRoots runs a server with opts in-process and connects a client
// of protocol version 2025-06-18 that lists roots dirs (none: the
// client offers no roots).
func connectRoots(t *testing.T, opts mcpserver.Options, dirs ...string) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	for _, d := range dirs {
		//lint:ignore SA1019 the server reads the roots of clients up to protocol 2025-11-25
		c.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: d}).String()})
	}
	cs, err := c.Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// tree lists every name under dir with its kind and size: what a tool
// must leave as it is.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, _ := os.Lstat(p)
		out = append(out, p+" "+info.Mode().String())
		return nil
	})
	return out
}

// confined is a root with result files and symlinks out of it, and a
// directory outside it.
type confined struct {
	root, outside string
	file          string // a result file in the root
}

func newConfined(t *testing.T) confined {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	data, err := os.ReadFile(filepath.Join("..", "examples", "decide", "baseline-sglang-0.5.6.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	c := confined{root: root, outside: outside, file: filepath.Join(root, "base.jsonl")}
	for _, f := range []string{c.file, filepath.Join(outside, "secret.jsonl"), filepath.Join(root, "sub", "in.jsonl"), filepath.Join(root, "good", "a.jsonl")} {
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		filepath.Join(root, "out.jsonl"):            filepath.Join(outside, "secret.jsonl"),
		filepath.Join(root, "in.jsonl"):             c.file,
		filepath.Join(root, "tree", "passwd.jsonl"): "/etc/passwd",
		filepath.Join(root, "deep", "x", "aiperf"):  outside,
		filepath.Join(root, "good", "sub"):          filepath.Join(root, "sub"),
		filepath.Join(root, "db-link.db"):           filepath.Join(outside, "made.db"),
		filepath.Join(root, "outdir"):               outside,
	}
	for l, target := range links {
		os.MkdirAll(filepath.Dir(l), 0o755)
		if err := os.Symlink(target, l); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestConfinement calls every tool with paths out of the roots: /etc
// files, .. escapes, symlinks out (named, inside a directory walked, as
// a store), stores outside: each is refused naming the argument and the
// path, no answer quotes a file, and nothing is created outside the root.
func TestConfinement(t *testing.T) {
	c := newConfined(t)
	db := filepath.Join(c.root, "s.db")
	ingestDecide(t, db)
	before := tree(t, c.outside)
	pg := "postgres://pareto:hunter2secret@127.0.0.1:1/none?connect_timeout=1"
	cs := connectRoots(t, mcpserver.Options{Store: db, Roots: []string{c.root}})
	obj := []string{"output_token_throughput:max", "ttft.p99:min"}
	front := func(files ...string) map[string]any { return map[string]any{"files": files, "objectives": obj} }
	optunaGate := func(loc string) map[string]any {
		return map[string]any{"study": "tune", "optuna": loc, "candidate": []string{"optuna_trial=12"}, "baseline": "optuna_trial=1", "objectives": obj}
	}
	escape := filepath.Join(c.root, "..", filepath.Base(c.outside), "secret.jsonl")
	cases := []struct {
		name, tool string
		args       map[string]any
		want       []string // in the error
	}{
		{"etc passwd", "front", front("/etc/passwd"), []string{"files[0]", "/etc/passwd", "outside the roots"}},
		{"etc shadow", "pick", map[string]any{"files": []string{"/etc/shadow"}, "maximize": []string{"x"}}, []string{"files[0]", "/etc/shadow", "outside the roots"}},
		{"dotdot escape", "front", front(c.file, escape), []string{"files[1]", escape, "outside the roots"}},
		{"relative dotdot", "front", front("../../../../../../../../etc/passwd"), []string{"files[0]", "outside the roots"}},
		{"symlink out", "front", front(filepath.Join(c.root, "out.jsonl")), []string{"files[0]", "out.jsonl", "outside the roots"}},
		{"directory with a symlink out", "front", front(filepath.Join(c.root, "tree")), []string{"files[0]", "passwd.jsonl", "symlink"}},
		{"deep symlink to a directory out", "pick", map[string]any{"files": []string{c.root}, "maximize": []string{"x"}}, []string{"files[0]", "symlink", "outside the roots"}},
		{"directory out", "front", front("/usr/share"), []string{"files[0]", "/usr/share", "outside the roots"}},
		{"symlinked directory out", "front", front(filepath.Join(c.root, "outdir")), []string{"files[0]", "outdir", "outside the roots"}},
		{"standard input", "front", front("-"), []string{"files[0]", "standard input"}},
		{"tell files", "tell", map[string]any{"study": "tune", "trial": 1, "files": []string{"/etc/passwd"}}, []string{"files[0]", "/etc/passwd", "outside the roots"}},
		{"ask space", "ask", map[string]any{"study": "new", "space": "/etc/passwd", "objectives": obj, "budget": 3}, []string{"space", "/etc/passwd", "outside the roots"}},
		{"gate candidate", "gate", map[string]any{"study": "tune", "candidate": []string{"/etc/passwd"}, "baseline": "role=baseline", "objectives": obj}, []string{"candidate[0]", "/etc/passwd", "outside the roots"}},
		{"gate candidate missing out", "gate", map[string]any{"study": "tune", "candidate": []string{"/nonexistent/run.jsonl"}, "baseline": "role=baseline", "objectives": obj}, []string{"candidate[0]", "outside the roots"}},
		{"gate baseline", "gate", map[string]any{"study": "tune", "candidate": []string{c.file}, "baseline": escape, "objectives": obj}, []string{"baseline", "outside the roots"}},
		{"store outside", "ask", map[string]any{"study": "new", "store": filepath.Join(c.outside, "new.db"), "space": "../examples/tune/space.toml", "objectives": obj, "budget": 3}, []string{"store", "outside the roots"}},
		{"store sqlite URL outside", "gate", map[string]any{"study": "tune", "store": "sqlite://" + filepath.Join(c.outside, "g.db"), "candidate": []string{c.file}, "baseline": "role=baseline", "objectives": obj}, []string{"store", "outside the roots"}},
		{"store file URL outside", "archive", map[string]any{"study": "tune", "store": "file:" + filepath.Join(c.outside, "a.db"), "revoke": "key:00"}, []string{"store", "outside the roots"}},
		{"store SQLite URI", "trials", map[string]any{"study": "tune", "store": "sqlite:file:/etc/passwd?mode=ro"}, []string{"store", "not allowed"}},
		{"store dotdot", "tell", map[string]any{"study": "tune", "trial": 1, "failed": "x", "store": filepath.Join(c.root, "..", filepath.Base(c.outside), "t.db")}, []string{"store", "outside the roots"}},
		{"store symlink out", "ask", map[string]any{"study": "new", "store": filepath.Join(c.root, "db-link.db"), "space": "../examples/tune/space.toml", "objectives": obj, "budget": 3}, []string{"store", "outside the roots"}},
		{"store etc passwd", "trials", map[string]any{"study": "tune", "store": "/etc/passwd"}, []string{"store", "/etc/passwd", "outside the roots"}},
		{"store postgres", "trials", map[string]any{"study": "tune", "store": pg}, []string{"store", "--allow-store"}},
		{"optuna etc passwd", "gate", optunaGate("/etc/passwd"), []string{"optuna", "/etc/passwd", "outside the roots"}},
		{"optuna sqlite URL outside", "gate", optunaGate("sqlite:///" + filepath.Join(c.outside, "o.db")), []string{"optuna", "outside the roots"}},
		{"optuna dotdot", "gate", optunaGate(filepath.Join(c.root, "..", filepath.Base(c.outside), "o.db")), []string{"optuna", "outside the roots"}},
		{"optuna symlink out", "gate", optunaGate(filepath.Join(c.root, "db-link.db")), []string{"optuna", "outside the roots"}},
		{"optuna SQLite URI", "gate", optunaGate("file:" + filepath.Join(c.root, "o.db") + "?mode=rwc"), []string{"optuna", "not allowed"}},
		{"optuna parameters", "gate", optunaGate(filepath.Join(c.root, "o.db") + "?_pragma=journal_mode(delete)"), []string{"optuna", "not allowed"}},
		{"optuna postgres", "gate", optunaGate(pg), []string{"optuna", "--allow-store"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := callError(t, cs, tc.tool, tc.args)
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%s: %q, want %q in it", tc.tool, msg, w)
				}
			}
			for _, leak := range []string{"root:x:", "hunter2secret", "sglang"} {
				if strings.Contains(msg, leak) {
					t.Errorf("%s: the answer quotes a file or a secret (%q): %q", tc.tool, leak, msg)
				}
			}
		})
	}
	// A file of the root that is no table is not quoted either.
	notes := filepath.Join(c.root, "notes")
	os.WriteFile(notes, []byte("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1\n"), 0o644)
	if msg := callError(t, cs, "front", front(notes)); !strings.Contains(msg, notes) || strings.Contains(msg, "root:x:") {
		t.Errorf("front of a file that is no table: %q, want its name and not its content", msg)
	}
	if after := tree(t, c.outside); !slices.Equal(before, after) {
		t.Errorf("files created outside the root:\nbefore %v\nafter  %v", before, after)
	}
	// Inside the roots: a symlink that stays in, a directory whose symlink
	// leads to another directory of the root, a new store.
	call(t, cs, "front", front(filepath.Join(c.root, "in.jsonl")))
	call(t, cs, "front", front(filepath.Join(c.root, "good")))
	call(t, cs, "trials", map[string]any{"study": "tune"})
	newDB := filepath.Join(c.root, "made", "..", "n.db")
	os.Mkdir(filepath.Join(c.root, "made"), 0o755)
	space, err := os.ReadFile(filepath.Join("..", "examples", "tune", "space.toml"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(c.root, "space.toml"), space, 0o644)
	call(t, cs, "ask", map[string]any{"study": "new", "store": newDB, "space": filepath.Join(c.root, "space.toml"),
		"objectives": obj, "budget": 3})
	if _, err := os.Stat(filepath.Join(c.root, "n.db")); err != nil {
		t.Errorf("ask did not create its store in the root: %v", err)
	}
	// An Optuna storage in the root (the shipped Optuna 5.0 fixture) is
	// read, never written: trials 12, 17, 18 against 1, 21, 22.
	fixture, err := os.ReadFile(filepath.Join("..", "optuna", "testdata", "optuna-5.0.0.dev-serving-study.db"))
	if err != nil {
		t.Fatal(err)
	}
	odb := filepath.Join(c.root, "optuna.db")
	os.WriteFile(odb, fixture, 0o644)
	args := optunaGate("sqlite:///" + odb)
	args["store"], args["study"], args["objectives"] = filepath.Join(c.root, "g.db"), "judged", []string{"output_tps:max"}
	args["min_improve"], args["max_runs"], args["max_baseline_runs"] = []string{"3%"}, 3, 3
	got := string(call(t, cs, "gate", args))
	for _, want := range []string{`"decision":"admit"`, `"baseline":"optuna_trial=1"`,
		`"candidate":["09d14d58348215b0","3d7320e4cd74e1c8","54a6baff95297441"]`} {
		if !strings.Contains(got, want) {
			t.Errorf("gate over the Optuna study: %s, want %s in it", got, want)
		}
	}
	if after, _ := os.ReadFile(odb); !bytes.Equal(after, fixture) {
		t.Error("gate wrote to the Optuna storage")
	}
}

// TestAllowStore checks that a PostgreSQL store a client names is tried
// only when pareto mcp --allow-store names it.
func TestAllowStore(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	pg := "postgres://pareto:hunter2secret@127.0.0.1:1/none?connect_timeout=1"
	cs := connectRoots(t, mcpserver.Options{Store: filepath.Join(root, "s.db"), Roots: []string{root}, AllowStores: []string{pg}})
	msg := callError(t, cs, "trials", map[string]any{"study": "s", "store": pg})
	if strings.Contains(msg, "--allow-store") || strings.Contains(msg, "hunter2secret") || !strings.Contains(msg, "127.0.0.1") {
		t.Errorf("an allowed PostgreSQL store: %q, want the connection's error without the password", msg)
	}
	other := "postgres://pareto:hunter2secret@127.0.0.1:2/none"
	if msg := callError(t, cs, "trials", map[string]any{"study": "s", "store": other}); !strings.Contains(msg, "--allow-store") {
		t.Errorf("another PostgreSQL store: %q", msg)
	}
}

// TestClientRoots checks the client's roots: without --root they replace
// the working directory; with --root they narrow it.
func TestClientRoots(t *testing.T) {
	c := newConfined(t)
	obj := []string{"output_token_throughput:max", "ttft.p99:min"}
	sub := filepath.Join(c.root, "sub")
	inSub := map[string]any{"files": []string{filepath.Join(sub, "in.jsonl")}, "objectives": obj}
	inRoot := map[string]any{"files": []string{c.file}, "objectives": obj}
	outside := map[string]any{"files": []string{filepath.Join(c.outside, "secret.jsonl")}, "objectives": obj}

	// Without --root: the client's roots (sub and outside) are the roots.
	cs := connectRoots(t, mcpserver.Options{Store: filepath.Join(c.root, "s.db")}, sub, c.outside)
	call(t, cs, "front", inSub)
	call(t, cs, "front", outside)
	if msg := callError(t, cs, "front", inRoot); !strings.Contains(msg, "outside the roots") {
		t.Errorf("a file of the root out of the client's roots: %q", msg)
	}
	// With --root: the client's roots within it.
	cs = connectRoots(t, mcpserver.Options{Store: filepath.Join(c.root, "s.db"), Roots: []string{c.root}}, sub, c.outside)
	call(t, cs, "front", inSub)
	for _, args := range []map[string]any{inRoot, outside} {
		if msg := callError(t, cs, "front", args); !strings.Contains(msg, "outside the roots") {
			t.Errorf("%v: %q, want it refused", args["files"], msg)
		}
	}
	// A client that lists no roots leaves the server's.
	cs = connectRoots(t, mcpserver.Options{Store: filepath.Join(c.root, "s.db"), Roots: []string{c.root}})
	call(t, cs, "front", inRoot)
}
