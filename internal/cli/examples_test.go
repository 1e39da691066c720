package cli

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/pareto-llm/pareto/store"
)

// prepareFirst lists the commands whose examples make the store (runs.db)
// that the other commands' examples read; they run first.
var prepareFirst = []string{"ingest"}

// TestHelpExamples runs every line of every command's Example in-process,
// as a newcomer pastes them at the repository root: from a temporary copy
// of examples/, commands in the order of prepareFirst and then cobra's.
// Each must exit 0; a read-only command must leave every file as it was,
// and a command that writes must write what its flags name (--out,
// --store with --study, generate-report's --result-dir/pareto.html) and
// nothing else.
func TestHelpExamples(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "examples"), os.DirFS(filepath.Join("..", "..", "examples"))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv(store.EnvVar, "") // the default store, not the caller's

	for _, c := range exampleOrder(newRoot(&env{})) {
		lines, err := exampleLines(c.Example)
		if err != nil {
			t.Errorf("%s: %v", c.CommandPath(), err)
			continue
		}
		if len(lines) == 0 {
			t.Errorf("%s has no Example in its help", c.CommandPath())
		}
		for i, line := range lines {
			t.Run(fmt.Sprintf("%s/%d", c.Name(), i+1), func(t *testing.T) {
				args, err := splitWords(line)
				if err != nil || len(args) < 2 || args[0] != "pareto" || args[1] != c.Name() {
					t.Fatalf("example %q: want a line `pareto %s ...` (%v)", line, c.Name(), err)
				}
				before := snapshot(t, dir)
				var stdout, stderr bytes.Buffer
				if code := Main(args[1:], strings.NewReader(""), &stdout, &stderr); code != 0 {
					t.Fatalf("%s\nexit status %d\nstdout:\n%s\nstderr:\n%s", line, code, stdout.String(), stderr.String())
				}
				checkWrites(t, line, c.Name(), args[2:], before, snapshot(t, dir))
			})
		}
	}
}

// exampleOrder returns every available command under root, depth first,
// with the commands of prepareFirst at the front.
func exampleOrder(root *cobra.Command) []*cobra.Command {
	var all []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() && sub.Name() != "help" {
				all = append(all, sub)
				walk(sub)
			}
		}
	}
	walk(root)
	rank := func(c *cobra.Command) int {
		if i := slices.Index(prepareFirst, c.Name()); i >= 0 {
			return i
		}
		return len(prepareFirst)
	}
	slices.SortStableFunc(all, func(a, b *cobra.Command) int { return rank(a) - rank(b) })
	return all
}

// exampleLines splits a help Example into command lines: indented lines,
// a trailing backslash continuing a line on the next, # starting a
// comment.
func exampleLines(example string) ([]string, error) {
	var lines []string
	cur := ""
	for _, l := range strings.Split(example, "\n") {
		l = strings.TrimSpace(l)
		if cur == "" && (l == "" || strings.HasPrefix(l, "#")) {
			continue
		}
		if s, ok := strings.CutSuffix(l, `\`); ok {
			cur += s + " "
			continue
		}
		lines = append(lines, cur+l)
		cur = ""
	}
	if cur != "" {
		return nil, fmt.Errorf("example ends in a continued line: %q", cur)
	}
	return lines, nil
}

// splitWords splits a command line as a POSIX shell would split words
// without expansions: blanks separate, '...' and "..." quote, a
// backslash escapes the next character outside single quotes.
func splitWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		switch ch := line[i]; {
		case ch == ' ' || ch == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case ch == '\'' || ch == '"':
			end := strings.IndexByte(line[i+1:], ch)
			if end < 0 {
				return nil, fmt.Errorf("unterminated %c quote in %q", ch, line)
			}
			w.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case ch == '\\' && i+1 < len(line):
			w.WriteByte(line[i+1])
			i++
			inWord = true
		default:
			w.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// snapshot returns the content hash of every file under dir, by path
// relative to dir.
func snapshot(t *testing.T, dir string) map[string][sha256.Size]byte {
	t.Helper()
	files := map[string][sha256.Size]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[rel] = sha256.Sum256(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// outputs returns the files an example of cmd with args must write; nil
// for a read-only command.
func outputs(cmd string, args []string) []string {
	flag := func(name, def string) string {
		for i, a := range args {
			if a == "--"+name && i+1 < len(args) {
				return args[i+1]
			}
			if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
				return v
			}
		}
		return def
	}
	var out []string
	switch cmd {
	case "report":
		out = append(out, flag("out", "pareto.html"))
	case "generate-report":
		out = append(out, filepath.Join(flag("result-dir", ""), "pareto.html"))
	case "simulate":
		if o := flag("out", "-"); o != "-" {
			out = append(out, o)
		}
	case "compare":
		if o := flag("html", ""); o != "" {
			out = append(out, o)
		}
		return out
	case "ingest", "gate", "ask", "tell":
	default:
		return nil
	}
	// A store is written when trials are kept in a study; the gate always
	// records the candidate's runs, but only reads to list its archive;
	// ask and tell change the tuning queue.
	if flag("study", "") != "" && (slices.Contains([]string{"ingest", "ask", "tell"}, cmd) || cmd == "gate" && !slices.Contains(args, "--archive-list")) {
		out = append(out, flag("store", store.DefaultLocation))
	}
	return out
}

// checkWrites compares the files before and after an example ran.
func checkWrites(t *testing.T, line, cmd string, args []string, before, after map[string][sha256.Size]byte) {
	t.Helper()
	want := outputs(cmd, args)
	for _, path := range want {
		path = filepath.Clean(path)
		h, ok := after[path]
		switch {
		case !ok:
			t.Errorf("%s\ndid not write %s", line, path)
		case h == before[path]:
			t.Errorf("%s\nleft %s unchanged", line, path)
		}
	}
	for path, h := range after {
		if slices.Contains(want, path) || isStoreSidecar(path, after) {
			continue
		}
		if old, ok := before[path]; !ok || old != h {
			t.Errorf("%s\nwrote %s, which it has no reason to touch", line, path)
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok && !isStoreSidecar(path, before) {
			t.Errorf("%s\nremoved %s", line, path)
		}
	}
}

// isStoreSidecar reports whether path is the WAL or shared-memory file of
// a SQLite store among files: SQLite's readers of a WAL database create
// them (their shared index; the database file stays as it was) and the
// last writer to close removes them, so they come and go with any command.
func isStoreSidecar(path string, files map[string][sha256.Size]byte) bool {
	for _, suffix := range []string{"-wal", "-shm"} {
		if db, ok := strings.CutSuffix(path, suffix); ok {
			if _, ok := files[db]; ok {
				return true
			}
		}
	}
	return false
}

func TestSplitWords(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"pareto front a.csv", []string{"pareto", "front", "a.csv"}},
		{"  pareto  pick --slo 'ttft.p99<=2000'  ", []string{"pareto", "pick", "--slo", "ttft.p99<=2000"}},
		{`a "b c" d\ e x'y'z ''`, []string{"a", "b c", "d e", "xyz", ""}},
	} {
		got, err := splitWords(tt.line)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", tt.line, got, err, tt.want)
		}
	}
	if _, err := splitWords("a 'b"); err == nil {
		t.Errorf("splitWords(unterminated quote) succeeded")
	}
}

func TestExampleLines(t *testing.T) {
	got, err := exampleLines("  pareto a \\\n    --b c\n\n  # note\n  pareto d")
	want := []string{"pareto a  --b c", "pareto d"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("exampleLines = %q, %v; want %q", got, err, want)
	}
	if _, err := exampleLines("  pareto a \\"); err == nil {
		t.Errorf("exampleLines(trailing continuation) succeeded")
	}
}
