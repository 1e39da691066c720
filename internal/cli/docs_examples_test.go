package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

var updateDocs = flag.Bool("update", false, "rewrite the outputs the documentation shows after sh blocks (those without \"...\" lines) with what the blocks print")

// docBlock is a fenced code block of a Markdown file.
type docBlock struct {
	line int    // 1-based line of the opening fence
	next int    // 0-based index of the line after the closing fence
	info string // what follows the fence: sh, text, …
	body string
	// output is the text block right after an sh block (nothing but blank
	// lines between them): what the sh block prints.
	output *docBlock
}

// docBlocks returns the fenced code blocks of a Markdown text.
func docBlocks(text string) ([]docBlock, error) {
	var blocks []docBlock
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		info, ok := strings.CutPrefix(lines[i], "```")
		if !ok {
			continue
		}
		b := docBlock{line: i + 1, info: strings.TrimSpace(info)}
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("line %d: the block does not end", b.line)
		}
		b.body = strings.Join(body, "\n") + "\n"
		b.next = i + 1
		if n := len(blocks); n > 0 && blocks[n-1].info == "sh" && b.info == "text" && blank(lines[blocks[n-1].next:b.line-1]) {
			blocks[n-1].output = &b
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

func blank(lines []string) bool {
	return !slices.ContainsFunc(lines, func(l string) bool { return strings.TrimSpace(l) != "" })
}

// dataBlocks are the languages of blocks that hold a file's content, not
// commands.
var dataBlocks = []string{"toml", "json", "jsonl", "csv", "yaml", "go"}

// TestDocBlocksFenced: every code block of the documentation says what it
// is: sh (runs as pasted here, and TestDocExamples runs it), text (output,
// or a command that needs what a test machine lacks: a remote PostgreSQL,
// a cluster, an agent), or the content of a file (toml, json, ...). No
// command hides in an unmarked block or one marked bash or console.
func TestDocBlocksFenced(t *testing.T) {
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(filepath.Join("..", "..", file))
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := docBlocks(string(b))
		if err != nil {
			t.Errorf("%s: %v", file, err)
		}
		for _, bl := range blocks {
			if bl.info != "sh" && bl.info != "text" && !slices.Contains(dataBlocks, bl.info) {
				t.Errorf("%s:%d: a block marked %q; mark it sh (runnable here), text (output, or illustrative) or the language of a file's content (%s)",
					file, bl.line, bl.info, strings.Join(dataBlocks, ", "))
			}
		}
	}
}

// docFiles returns the tracked Markdown files whose blocks TestDocExamples
// runs: the README, docs/ and the examples' READMEs (not the notes on test
// fixtures).
func docFiles(t *testing.T) []string {
	var files []string
	for _, f := range trackedFiles(t, ".") {
		if strings.HasSuffix(f, ".md") && !strings.Contains(f, "testdata/") {
			files = append(files, f)
		}
	}
	if !slices.Contains(files, "README.md") {
		t.Fatalf("no README.md among %q", files)
	}
	return files
}

// TestDocExamples runs every sh block of the README, docs/ and the
// examples' READMEs with bash, as a newcomer pastes them at the root of a
// fresh clone: each file from its own temporary copy of the tracked files
// (those under testdata/ left out: no example reads them), its blocks in
// file order, so that a block's only prerequisites are the blocks before
// it in the same file. pareto, built from this tree, is first on PATH, and
// $GOBIN is a temporary directory (the README's go install lands there);
// -trimpath lets the copies' builds share the build cache. The README's
// `bash scripts/test.sh` is the suite this test is part of: it is the one
// line not run. Each block must exit 0; a text block right after an sh
// block is its output, and its lines must appear in what the block printed
// (stdout and stderr, as a terminal shows them), a line "..." standing for
// any number of lines, timestamps and session names for any.
func TestDocExamples(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	goCmd, err := exec.LookPath("go") // go test puts its GOROOT/bin first on PATH
	if err != nil {
		t.Fatalf("no go command: %v", err)
	}
	bin := t.TempDir()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	env := docEnv(bin, filepath.Dir(goCmd))
	build := exec.Command(goCmd, "build", "-o", filepath.Join(bin, "pareto"), "./cmd/pareto")
	build.Dir = root
	build.Env = env // -trimpath, as the blocks' builds: one compile for all
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var tracked []string
	for _, f := range trackedFiles(t, ".") {
		if !strings.Contains(f, "/testdata/") && !strings.HasPrefix(f, "testdata/") {
			tracked = append(tracked, f)
		}
	}
	for _, file := range docFiles(t) {
		text, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := docBlocks(string(text))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !slices.ContainsFunc(blocks, func(b docBlock) bool { return b.info == "sh" }) {
			continue
		}
		t.Run(strings.ReplaceAll(file, "/", "_"), func(t *testing.T) {
			dir := t.TempDir()
			copyFiles(t, dir, tracked)
			skipped := false
			updates := map[int]string{} // output block line -> what its sh block printed
			for _, b := range blocks {
				if b.info != "sh" {
					continue
				}
				script := b.body
				if file == "README.md" {
					script, skipped = skipTestCommand(script, skipped)
				}
				ok := t.Run(fmt.Sprintf("line_%d", b.line), func(t *testing.T) {
					start := time.Now()
					out := runBlock(t, bash, dir, env, script)
					t.Logf("%s:%d: %v", file, b.line, time.Since(start).Round(time.Millisecond))
					if b.output != nil {
						if err := matchOutput(b.output.body, out); err != nil {
							if *updateDocs && !elided(b.output.body) {
								updates[b.output.line] = out
								return
							}
							t.Errorf("%s:%d: the output shown at line %d is not what the block prints (go test -run TestDocExamples -update rewrites it unless it has \"...\" lines): %v\nthe block:\n%s\nprints:\n%s",
								file, b.line, b.output.line, err, b.body, out)
						}
					}
				})
				if !ok {
					t.Fatalf("%s:%d failed; the blocks after it depend on it", file, b.line)
				}
			}
			if file == "README.md" && !skipped {
				t.Errorf("README.md: no `bash scripts/test.sh` block (the test command)")
			}
			if len(updates) > 0 {
				if err := os.WriteFile(filepath.Join(root, file), []byte(rewriteOutputs(string(text), blocks, updates)), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: rewrote %d outputs", file, len(updates))
			}
		})
	}
}

// elided reports whether an output shown has "..." lines (then it cannot
// be rewritten).
func elided(body string) bool {
	for l := range strings.SplitSeq(body, "\n") {
		if t := strings.TrimSpace(l); t == "..." || t == "…" {
			return true
		}
	}
	return false
}

// rewriteOutputs returns text with the bodies of the blocks at the lines
// of updates replaced.
func rewriteOutputs(text string, blocks []docBlock, updates map[int]string) string {
	lines := strings.Split(text, "\n")
	var out []string
	at := 0
	for _, b := range blocks {
		body, ok := updates[b.line]
		if !ok {
			continue
		}
		out = append(out, lines[at:b.line]...) // through the opening fence
		out = append(out, strings.Split(strings.TrimRight(body, "\n"), "\n")...)
		at = b.next - 1 // the closing fence
	}
	return strings.Join(append(out, lines[at:]...), "\n")
}

// skipTestCommand replaces the line `bash scripts/test.sh` of script (the
// test suite itself) with a no-op.
func skipTestCommand(script string, skipped bool) (string, bool) {
	lines := strings.Split(script, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "bash scripts/test.sh" {
			lines[i] = ": # bash scripts/test.sh: the suite this test is part of"
			skipped = true
		}
	}
	return strings.Join(lines, "\n"), skipped
}

// docEnv is the environment of the blocks: the caller's, with bin first on
// PATH and as GOBIN, builds sharing the build cache across copies, and
// neither the caller's store nor a toolchain download.
func docEnv(bin, goBin string) []string {
	var env []string
	goflags := "-trimpath"
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "GOBIN", "PARETO_STORE", "GOTOOLCHAIN":
			continue
		case "GOFLAGS":
			goflags = strings.TrimSpace(v + " -trimpath")
			continue
		}
		env = append(env, kv)
	}
	return append(env, "PATH="+bin+string(os.PathListSeparator)+goBin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOBIN="+bin, "GOFLAGS="+goflags, "GOTOOLCHAIN=local")
}

// runBlock runs script with bash -e in dir and returns what it printed,
// failing the test unless it exits 0.
func runBlock(t *testing.T, bash, dir string, env []string, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader("")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nthe block:\n%s\nprinted:\n%s", err, script, out.String())
	}
	return out.String()
}

// volatile matches what differs from run to run in an output: timestamps
// and the session names made of them.
var volatile = regexp.MustCompile(`\bs\d{8}T\d{6}(\.\d+)?Z\b|\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)

// matchOutput reports whether want, the output a document shows, is what
// a block printed (got): want's lines, split into chunks at lines "...",
// must each be a run of consecutive lines of got, in order, the first at
// the start of got and the last at its end (unless want starts or ends
// with "..."); timestamps and session names match any.
func matchOutput(want, got string) error {
	norm := func(s string) []string {
		var lines []string
		for l := range strings.SplitSeq(strings.TrimRight(s, "\n"), "\n") {
			lines = append(lines, strings.TrimRight(volatile.ReplaceAllString(l, "<time>"), " "))
		}
		return lines
	}
	g := norm(got)
	var chunks [][]string
	cur := []string{}
	for _, l := range norm(want) {
		if t := strings.TrimSpace(l); t == "..." || t == "…" {
			chunks = append(chunks, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, l)
	}
	chunks = append(chunks, cur)
	at := 0
	for i, c := range chunks {
		if len(c) == 0 {
			continue
		}
		j := indexRun(g[at:], c)
		if i == 0 && j != 0 || j < 0 {
			return fmt.Errorf("no lines\n%s\nfollow in the output", strings.Join(c, "\n"))
		}
		if i == len(chunks)-1 {
			// The last chunk ends the output: take its last run there.
			for k := len(g) - len(c); k > at+j; k-- {
				if slices.Equal(g[k:k+len(c)], c) {
					j = k - at
					break
				}
			}
			if at+j+len(c) != len(g) {
				return fmt.Errorf("the output goes on after\n%s", strings.Join(c, "\n"))
			}
		}
		at += j + len(c)
	}
	return nil
}

// indexRun returns the index of the first run of lines in hay equal to
// needle, or -1.
func indexRun(hay, needle []string) int {
	for i := 0; i+len(needle) <= len(hay); i++ {
		if slices.Equal(hay[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}

func TestMatchOutput(t *testing.T) {
	got := "a\nb 2026-12-01T20:12:03Z\nc\nsession s20261201T201301.114Z\nd\n"
	for _, tt := range []struct {
		want string
		ok   bool
	}{
		{got, true},
		{"a\nb 2026-01-01T00:00:00Z\n...\nd\n", true},
		{"a\n...\nsession s20250101T000000.000Z\nd\n", true},
		{"...\nb 1999-01-01T00:00:00Z\nc\n...\n", true},
		{"...\nd\n", true},
		{"b 1999-01-01T00:00:00Z\nc\n", false}, // the output starts with a
		{"a\nb 1999-01-01T00:00:00Z\n", false}, // and goes on after b
		{"a\nc\n", false},                      // not consecutive without "..."
		{"d\n...\na\n", false},                 // out of order
		{"a\nb\n", false},
	} {
		if err := matchOutput(tt.want, got); (err == nil) != tt.ok {
			t.Errorf("matchOutput(%q) = %v; want ok %v", tt.want, err, tt.ok)
		}
	}
}

func TestDocBlocks(t *testing.T) {
	blocks, err := docBlocks("x\n```sh\npareto a\n```\n\n```text\nout\n```\ntext\n```text\nillustrative\n```\n```sh\nb\n```\nprose\n```text\nnot its output\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 5 {
		t.Fatalf("%d blocks: %+v", len(blocks), blocks)
	}
	if blocks[0].output == nil || blocks[0].output.body != "out\n" || blocks[0].line != 2 {
		t.Errorf("block 0 = %+v; want line 2 with output \"out\"", blocks[0])
	}
	if blocks[3].output != nil {
		t.Errorf("block 3 has output %q; prose stands between", blocks[3].output.body)
	}
	if _, err := docBlocks("```sh\nnot closed\n"); err == nil {
		t.Errorf("an unclosed block was accepted")
	}
}

func TestRewriteOutputs(t *testing.T) {
	text := "a\n```sh\nx\n```\n\n```text\nold\nold2\n```\nb\n```sh\ny\n```\n```text\nkeep\n```\n"
	blocks, err := docBlocks(text)
	if err != nil {
		t.Fatal(err)
	}
	got := rewriteOutputs(text, blocks, map[int]string{6: "new\n"})
	want := "a\n```sh\nx\n```\n\n```text\nnew\n```\nb\n```sh\ny\n```\n```text\nkeep\n```\n"
	if got != want {
		t.Errorf("rewriteOutputs =\n%s\nwant\n%s", got, want)
	}
}
