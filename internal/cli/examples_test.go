package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/pareto-llm/pareto/store"
)

// helpExample is one command line of a command's help Example: its
// command, its place there and the line itself.
type helpExample struct {
	cmd  *cobra.Command
	n    int
	line string
}

func (x helpExample) name() string {
	return fmt.Sprintf("%s/%d", strings.ReplaceAll(x.cmd.CommandPath(), " ", "_"), x.n)
}

// helpExamples returns every line of every command's Example, in help
// order (cobra's order of commands, depth first).
func helpExamples(t *testing.T) []helpExample {
	t.Helper()
	var all []helpExample
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
			all = append(all, helpExample{c, i + 1, line})
		}
	}
	return all
}

// TestHelpExamples runs every line of every command's Example in-process,
// as a newcomer pastes it at the repository root of a fresh clone: from a
// temporary copy of the tracked files of examples/ (what a user's run left
// in the checkout never counts). Each line runs by itself on its own fresh
// copy, so that it must create what it reads (an "ingest ... &&" before
// the command); then all of them run on one copy in help order, and on
// another in a seeded shuffled order, so that none depends on, or is
// broken by, what another wrote. Each must exit 0; run alone, a read-only
// command must leave every file as it was, and a command that writes must
// write what its flags name (--out, --store with --study, generate-report's
// --result-dir/pareto.html) and nothing else.
func TestHelpExamples(t *testing.T) {
	t.Setenv(store.EnvVar, "") // the default store, not the caller's
	examples := helpExamples(t)
	tracked := trackedFiles(t, "examples")

	t.Run("alone", func(t *testing.T) {
		for _, x := range examples {
			t.Run(x.name(), func(t *testing.T) {
				dir := t.TempDir()
				copyFiles(t, dir, tracked)
				t.Chdir(dir)
				before := snapshot(t, dir)
				runExample(t, x)
				checkWrites(t, x.line, x.cmd, before, snapshot(t, dir), true)
			})
		}
	})
	seed := int64(1) // PARETO_EXAMPLES_SEED=N tries another order
	if s := os.Getenv("PARETO_EXAMPLES_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("PARETO_EXAMPLES_SEED=%q: %v", s, err)
		}
	}
	shuffled := slices.Clone(examples)
	rand.New(rand.NewPCG(uint64(seed), 0)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, order := range []struct {
		name string
		list []helpExample
	}{{"help_order", examples}, {fmt.Sprintf("shuffled_seed_%d", seed), shuffled}} {
		t.Run(order.name, func(t *testing.T) {
			dir := t.TempDir()
			copyFiles(t, dir, tracked)
			t.Chdir(dir)
			for i, x := range order.list {
				t.Run(fmt.Sprintf("%02d_%s", i+1, x.name()), func(t *testing.T) {
					before := snapshot(t, dir)
					runExample(t, x)
					checkWrites(t, x.line, x.cmd, before, snapshot(t, dir), false)
				})
			}
		})
	}
}

// runExample runs the commands of one example line in-process, in order
// (they are joined by &&), and fails the test unless each exits 0 and the
// last is the example's own command.
func runExample(t *testing.T, x helpExample) {
	t.Helper()
	cmds, err := exampleCommands(x.line)
	if err != nil {
		t.Fatalf("example %q: %v", x.line, err)
	}
	want := strings.Fields(x.cmd.CommandPath())
	if last := cmds[len(cmds)-1]; len(last) < len(want) || !slices.Equal(last[:len(want)], want) {
		t.Fatalf("example %q: want its last command to be `%s ...`", x.line, x.cmd.CommandPath())
	}
	for _, args := range cmds {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), args[1:], strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%s\n%s: exit status %d\nstdout:\n%s\nstderr:\n%s", x.line, strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
	}
}

// exampleCommands splits an example line into its commands (joined by
// &&), each a pareto command line.
func exampleCommands(line string) ([][]string, error) {
	words, err := splitWords(line)
	if err != nil {
		return nil, err
	}
	var cmds [][]string
	for cmd := range slices.Values(splitOn(words, "&&")) {
		if len(cmd) < 2 || cmd[0] != "pareto" {
			return nil, fmt.Errorf("want every command to be `pareto COMMAND ...`, not %q", strings.Join(cmd, " "))
		}
		cmds = append(cmds, cmd)
	}
	return cmds, nil
}

// splitOn splits words at every sep.
func splitOn(words []string, sep string) [][]string {
	var out [][]string
	cur := []string{}
	for _, w := range words {
		if w == sep {
			out = append(out, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, w)
	}
	return append(out, cur)
}

// trackedFiles returns the files under dir (relative to the repository
// root) that version control tracks, so that what a user's run left in the
// checkout (pareto.html, pareto.db) never reaches a test; outside a git
// checkout (a source tarball) it returns every file there.
func trackedFiles(t *testing.T, dirs ...string) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	out, err := exec.Command("git", append([]string{"-C", root, "ls-files", "-z", "--"}, dirs...)...).Output()
	if err == nil && len(out) > 0 {
		var files []string
		for f := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			if _, err := os.Lstat(filepath.Join(root, f)); err == nil { // deleted in the work tree
				files = append(files, f)
			}
		}
		return files
	}
	t.Logf("not a git checkout (%v): using every file under %q", err, dirs)
	var files []string
	for _, d := range dirs {
		err := filepath.WalkDir(filepath.Join(root, d), func(path string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// copyFiles copies files (relative to the repository root) into dir.
func copyFiles(t *testing.T, dir string, files []string) {
	t.Helper()
	root := filepath.Join("..", "..")
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// exampleOrder returns every available command under root, depth first,
// in cobra's order.
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

// lineOutputs returns the files the commands of an example line must
// write.
func lineOutputs(line string) []string {
	cmds, _ := exampleCommands(line)
	var out []string
	for _, args := range cmds {
		out = append(out, outputs(args[1], args[2:])...)
	}
	return out
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

// checkWrites compares the files before and after an example line ran:
// it wrote only what its commands' flags name and, when fresh (run on a
// copy of its own), each of those.
func checkWrites(t *testing.T, line string, _ *cobra.Command, before, after map[string][sha256.Size]byte, fresh bool) {
	t.Helper()
	want := lineOutputs(line)
	for i, path := range want {
		path = filepath.Clean(path)
		want[i] = path
		h, ok := after[path]
		switch {
		case !ok:
			t.Errorf("%s\ndid not write %s", line, path)
		case fresh && h == before[path]:
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
