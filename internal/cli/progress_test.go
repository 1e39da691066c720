package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"golang.org/x/sys/unix"
)

func TestProgressText(t *testing.T) {
	for _, tt := range []struct {
		s       tunequeue.Status
		n       int
		elapsed time.Duration
		want    string
	}{
		{tunequeue.Status{Complete: 1, Budget: 10}, 0, 0, "\r1/10 runs (0 failed), ETA ?   "},
		{tunequeue.Status{Complete: 3, Failed: 1, Budget: 10}, 2, 10 * time.Second, "\r4/10 runs (1 failed), ETA 30s   "},
		{tunequeue.Status{Complete: 10, Budget: 10}, 10, time.Minute, "\r10/10 runs (0 failed), ETA 0s   "},
	} {
		if got := progressText(tt.s, tt.n, tt.elapsed); got != tt.want {
			t.Errorf("progressText(%+v, %d, %v) = %q; want %q", tt.s, tt.n, tt.elapsed, got, tt.want)
		}
	}
}

// openPTY opens a pseudo-terminal pair: the controlling side and the
// terminal a command writes to.
func openPTY(t *testing.T) (ptmx, tty *os.File) {
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("SKIP: no pseudo-terminal: %v", err)
	}
	fd := int(ptmx.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return ptmx, tty
}

// TestTuneProgressTTY: pareto tune rewrites a progress line on a
// terminal, and writes none to a pipe, a buffer or /dev/null.
func TestTuneProgressTTY(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(bin, "pareto")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(store.EnvVar, "")
	space := filepath.Join(dir, "space.toml")
	os.WriteFile(space, []byte(cliSpace), 0o644)
	args := func(study string) []string {
		return []string{"tune", "--store", filepath.Join(dir, "t.db"), "--study", study, "--space", space, "--budget", "4", "--repeats", "1", "--max-runs", "1",
			"--command", "pareto simulate --param max_num_seqs={max_num_seqs} --seed $PARETO_SEED --out result.json",
			"-o", "output_token_throughput:max", "-o", "ttft.p99:min", "--sampler", "sobol", "--seed", "2",
			"--work-dir", filepath.Join(dir, "runs-"+study)}
	}

	ptmx, tty := openPTY(t)
	defer ptmx.Close()
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(ptmx); got <- b }()
	var stdout bytes.Buffer
	code := Main(context.Background(), args("tty"), strings.NewReader(""), &stdout, tty)
	tty.Close()
	var out []byte
	select {
	case out = <-got: // EIO once the terminal side is closed
	case <-time.After(10 * time.Second):
		t.Fatal("reading the terminal did not end")
	}
	if code != 0 {
		t.Fatalf("pareto tune on a terminal: exit %d\n%s%s", code, stdout.String(), out)
	}
	if !bytes.Contains(out, []byte("\r4/4 runs (0 failed), ETA 0s")) {
		t.Errorf("the terminal got no progress line:\n%q", out)
	}

	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("%s is taken for a terminal", os.DevNull)
	}
	var stderr bytes.Buffer
	stdout.Reset()
	if code := Main(context.Background(), args("buffer"), strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("pareto tune: exit %d\n%s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "runs (") || strings.Contains(stderr.String(), "\r") {
		t.Errorf("a non-terminal got a progress line:\n%q", stderr.String())
	}
}

// TestTuneScreen: pareto tune --screen 1 on the simulator gives every
// configuration one run first and the further repeats only to those it
// does not screen; its summary validates against the schema; --screen
// must be below --repeats.
func TestTuneScreen(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(bin, "pareto")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(store.EnvVar, "")
	space := filepath.Join(dir, "space.toml")
	os.WriteFile(space, []byte(cliSpace), 0o644)
	args := []string{"tune", "--store", filepath.Join(dir, "t.db"), "--study", "screen", "--space", space, "--budget", "30",
		"--repeats", "3", "--max-runs", "3", "--screen", "1",
		"--command", "pareto simulate --param max_num_seqs={max_num_seqs} --param enable_chunked_prefill={enable_chunked_prefill} --seed $PARETO_SEED --out result.json",
		"-o", "output_token_throughput:max", "-o", "ttft.p99:min", "--min-improve", "0.5%", "--noise", "0.5%", "--sampler", "grid", "--seed", "1",
		"--work-dir", filepath.Join(dir, "runs"), "--format", "json"}
	out := runPareto(t, 0, args...)
	validateOutput(t, "tune", out)
	var sum struct {
		Trials []struct {
			Trial    int
			Role     string
			Decision string
		}
	}
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatal(err)
	}
	screened, kept := 0, 0
	for _, tr := range sum.Trials {
		switch {
		case tr.Role != "candidate" || tr.Decision == "baseline":
		case tr.Decision == "screened":
			screened++
		case tr.Decision != "":
			kept++
		}
	}
	if screened == 0 || kept == 0 {
		t.Errorf("%d configurations screened, %d judged by the gate; want some of each:\n%s", screened, kept, out)
	}
	var stderr bytes.Buffer
	bad := append(append([]string{}, args[:len(args)-2]...), "--screen", "3")
	if code := Main(context.Background(), bad, strings.NewReader(""), new(bytes.Buffer), &stderr); code != exitUsage || !strings.Contains(stderr.String(), "--screen must be 0 (off) or below --repeats") {
		t.Errorf("--screen 3 --repeats 3: exit %d, %s", code, stderr.String())
	}
}

// TestIngestReportProgressTTY: pareto ingest and pareto report draw a
// progress bar on standard error when it is a terminal, and nothing on a
// pipe or a buffer (what tests and logs get).
func TestIngestReportProgressTTY(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(store.EnvVar, "")
	results := filepath.Join("..", "..", "examples", "cloudai", "results")
	for _, args := range [][]string{
		{"ingest", results, "--store", filepath.Join(dir, "s.db"), "--study", "x"},
		{"report", results, "-x", "ttft.p50", "-y", "output_token_throughput", "--out", filepath.Join(dir, "r.html")},
	} {
		t.Run(args[0], func(t *testing.T) {
			ptmx, tty := openPTY(t)
			defer ptmx.Close()
			// A terminal has a size (the bar fits its width).
			if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 30, Col: 100}); err != nil {
				t.Fatal(err)
			}
			got := make(chan []byte)
			go func() { b, _ := io.ReadAll(ptmx); got <- b }()
			var stdout bytes.Buffer
			code := Main(context.Background(), args, strings.NewReader(""), &stdout, tty)
			tty.Close()
			var out []byte
			select {
			case out = <-got:
			case <-time.After(10 * time.Second):
				t.Fatal("reading the terminal did not end")
			}
			if code != 0 {
				t.Fatalf("pareto %s on a terminal: exit %d\n%s%s", args[0], code, stdout.String(), out)
			}
			name := map[string]string{"ingest": "ingest", "report": "reading"}[args[0]]
			if !regexp.MustCompile(name + ` +[0-9]+/[0-9]+ inputs \[[-=>]+\]`).Match(out) {
				t.Errorf("the terminal got no progress bar:\n%q", out)
			}
			if bytes.Contains(stdout.Bytes(), []byte(" inputs")) {
				t.Errorf("the progress bar reached standard output:\n%q", stdout.String())
			}

			var stderr bytes.Buffer
			stdout.Reset()
			if code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 {
				t.Fatalf("pareto %s: exit %d\n%s", args[0], code, stderr.String())
			}
			if strings.Contains(stderr.String(), " inputs") || strings.Contains(stderr.String(), "\r") || strings.Contains(stderr.String(), "\x1b") {
				t.Errorf("a buffer got a progress bar:\n%q", stderr.String())
			}
		})
	}
}
