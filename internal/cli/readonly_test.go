package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pareto-llm/pareto/store"
)

// readCommands are the commands that only read a store, run on the study
// the help examples make (a baseline and tries in study tune).
func readCommands(db string) [][]string {
	return [][]string{
		{"studies", "--store", db},
		{"trials", "--store", db, "--study", "tune"},
		{"front", "--store", db, "--study", "tune", "-o", "output_token_throughput:max", "-o", "ttft.p99"},
		{"front", "--store", db, "--study", "tune", "-o", "output_token_throughput:max", "-o", "ttft.p99", "--aggregate", "none"},
		{"pick", "--store", db, "--study", "tune", "--maximize", "output_token_throughput", "--minimize", "ttft.p99"},
		{"noise", "--store", db, "--study", "tune", "-o", "output_token_throughput", "-o", "ttft.p99"},
		{"drift", "--store", db, "--study", "tune", "--baseline", "role=baseline", "-o", "output_token_throughput:max",
			"-o", "ttft.p99:min", "--min-improve", "3%"},
		{"check", "--store", db},
		{"gate", "--store", db, "--study", "tune", "--archive-list"},
	}
}

// TestReadOnlyCommands runs every command that only reads a store (and
// report --study without inputs, which only reads too) on a
// store file made read-only (0444) in a read-only directory (0555), as a
// user who cannot write them (the test binary run as nobody when the
// tests run as root, who writes anyway): each succeeds and the directory
// is left byte for byte as it was; a command that writes fails saying
// why.
func TestReadOnlyCommands(t *testing.T) {
	root, err := os.MkdirTemp("", "pareto-ro-cli-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(root, func(p string, _ fs.DirEntry, _ error) error { os.Chmod(p, 0o755); return nil })
		os.RemoveAll(root)
	})
	dir := filepath.Join(root, "ro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "runs.db")
	for _, args := range [][]string{
		{"ingest", "../../examples/decide/baseline-sglang-0.5.6.jsonl", "../../examples/decide/baseline-sglang-0.6.0.jsonl",
			"--store", db, "--study", "tune", "--label", "role=baseline"},
		{"ingest", "../../examples/decide/tries-sglang-0.6.0.jsonl", "--store", db, "--study", "tune"},
	} {
		var out bytes.Buffer
		if code := Main(context.Background(), args, strings.NewReader(""), &out, &out); code != 0 {
			t.Fatalf("%s: exit %d\n%s", args, code, out.String())
		}
	}
	os.Chmod(db, 0o444)
	os.Chmod(dir, 0o555)
	before := hashes(t, dir)
	run := func(args []string) (int, string) {
		var out bytes.Buffer
		if os.Geteuid() != 0 {
			code := Main(context.Background(), args, strings.NewReader(""), &out, &out)
			return code, out.String()
		}
		cmd := exec.Command(nobodyPareto(t, root), args...)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), out.String()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, out.String()
	}
	out := filepath.Join(root, "out")
	if err := os.Mkdir(out, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(out, 0o777) // whatever the umask: nobody writes the report there
	report := []string{"report", "--store", db, "--study", "tune", "-x", "ttft.p99", "-y", "output_token_throughput",
		"--out", filepath.Join(out, "tune.html")}
	for _, args := range append(readCommands(db), report) {
		if code, out := run(args); code != 0 || out == "" {
			t.Errorf("%s on a read-only store: exit %d, output:\n%s", args, code, out)
		}
	}
	code, msg := run([]string{"ingest", db, "--store", db, "--study", "more"})
	if code == 0 || !strings.Contains(msg, "writable") {
		t.Errorf("ingest into a read-only store: exit %d, %q; want a failure saying the store is not writable", code, msg)
	}
	if diff := cmp.Diff(before, hashes(t, dir)); diff != "" {
		t.Errorf("the read-only directory changed (-before +after):\n%s", diff)
	}
}

// nobodyPareto copies the test binary as "pareto" (testscript.Main then
// runs the command) where user nobody may run it, and returns its path.
func nobodyPareto(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(root, "bin", "pareto")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(root, 0o755)
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// hashes returns the SHA-256 of every file under dir, by name.
func hashes(t *testing.T, dir string) map[string][sha256.Size]byte {
	t.Helper()
	out := map[string][sha256.Size]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = sha256.Sum256(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStoreLocationHelp checks that every command with --store names the
// same default.
func TestStoreLocationHelp(t *testing.T) {
	for _, c := range newRoot(&env{}).Commands() {
		if f := c.Flags().Lookup("store"); f != nil && !strings.Contains(f.Usage, store.EnvVar) {
			t.Errorf("%s --store: %q does not name $%s", c.Name(), f.Usage, store.EnvVar)
		}
	}
}
