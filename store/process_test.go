package store_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/pareto-llm/pareto/store"
)

// Helper process protocol: the test binary re-executes itself with
// -test.run=TestHelperProcess and these variables set.
const (
	helperEnv      = "PARETO_STORE_HELPER" // "ingest", "kill" or "read"
	helperLocEnv   = "PARETO_STORE_HELPER_LOCATION"
	helperStudyEnv = "PARETO_STORE_HELPER_STUDY"
	helperProcEnv  = "PARETO_STORE_HELPER_PROC"
)

const (
	procTrials = 10_000 // trials per concurrent process
	procSource = 1_000  // trials per source file
)

// TestHelperProcess is not a test: it is the body of the helper processes.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("helper process only")
	}
	ctx := context.Background()
	if mode == "read" {
		helperRead(ctx, os.Getenv(helperLocEnv), os.Getenv(helperStudyEnv))
		os.Exit(0)
	}
	s, err := store.Open(ctx, os.Getenv(helperLocEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	study := os.Getenv(helperStudyEnv)
	p, _ := strconv.Atoi(os.Getenv(helperProcEnv))
	switch mode {
	case "ingest":
		helperIngest(ctx, s, study, p)
	case "kill":
		helperKill(ctx, s, study)
	}
	s.Close()
	os.Exit(0)
}

// helperIngest writes process p's 10,000 trials in sources of 1,000, then
// re-ingests the first source of the next process (duplicates).
func helperIngest(ctx context.Context, s store.Store, study string, p int) {
	base := p * procTrials
	for from := base; from < base+procTrials; from += procSource {
		src := fmt.Sprintf("proc%d/%d.json", p, from)
		if _, _, err := s.Ingest(ctx, study, src, genTrials(from, procSource)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
	}
	next := ((p + 1) % 8) * procTrials
	if _, _, err := s.Ingest(ctx, study, "dup", genTrials(next, procSource)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
}

// helperKill commits one small source, then starts a big one and says
// "mid" once its first batch is written, and waits to be killed.
func helperKill(ctx context.Context, s store.Store, study string) {
	if _, _, err := s.Ingest(ctx, study, "committed", genTrials(0, 50)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
	var once sync.Once
	setAfterBatch(s, func() {
		once.Do(func() { fmt.Println("mid") })
		select {} // hold the transaction open until SIGKILL
	})
	s.Ingest(ctx, study, "killed", genTrials(50, 5000))
	os.Exit(5) // unreachable: the hook never returns
}

func helper(t *testing.T, mode, loc, study string, proc int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperLocEnv+"="+loc, helperStudyEnv+"="+study,
		helperProcEnv+"="+strconv.Itoa(proc))
	return cmd
}

// TestConcurrentProcesses runs 8 processes writing 10,000 trials each
// (plus 1,000 duplicates each) into one study.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			loc, study := b.location(t), studyName(t)
			s := openT(t, loc) // create the schema once; helpers race on the rest
			var wg sync.WaitGroup
			errs := make([]error, 8)
			outs := make([][]byte, 8)
			for p := range 8 {
				wg.Go(func() {
					outs[p], errs[p] = helper(t, "ingest", loc, study, p).CombinedOutput()
				})
			}
			wg.Wait()
			for p, err := range errs {
				if err != nil {
					t.Errorf("process %d: %v\n%s", p, err, outs[p])
				}
			}
			assertComplete(t, s, study, 8*procTrials)
		})
	}
}

// assertComplete checks that the study has want distinct trials, each with
// every measurement.
func assertComplete(t *testing.T, s store.Store, study string, want int) {
	t.Helper()
	got, err := s.Trials(context.Background(), study, store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for i := range got {
		ids[got[i].ID] = true
		if n := len(got[i].Measurements); n != 6 {
			t.Errorf("trial %s has %d measurements; want 6 (partial trial)", got[i].ID, n)
		}
	}
	if len(got) != want || len(ids) != want {
		t.Errorf("study has %d trials, %d distinct; want %d", len(got), len(ids), want)
	}
	t.Logf("%d trials, %d distinct, all complete", len(got), len(ids))
}

// TestSIGKILLMidIngest kills a process inside an Ingest transaction and
// checks that no partial trial is left and the store still works.
func TestSIGKILLMidIngest(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			loc, study := b.location(t), studyName(t)
			s := openT(t, loc)
			cmd := helper(t, "kill", loc, study, 0)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			if strings.TrimSpace(line) != "mid" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("helper said %q, stderr:\n%s", line, stderr.String())
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			assertComplete(t, s, study, 50)
			if added, _, err := s.Ingest(context.Background(), study, "killed", genTrials(50, 5000)); err != nil || added != 5000 {
				t.Errorf("ingest after the kill: %d added, %v; want 5000", added, err)
			}
			assertComplete(t, s, study, 5050)
		})
	}
}

// TestCheckAfterConcurrentIngests runs 8 ingests into one study at once,
// each through its own connection, 10 times, and checks after each round
// that Check finds the store sound: concurrent PostgreSQL writers
// interleave the trials' row ids, so that a block's row range holds
// trials of other blocks, which are not its damage.
func TestCheckAfterConcurrentIngests(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			loc := b.location(t)
			s := openT(t, loc)
			for round := range 10 {
				study := fmt.Sprintf("%s-%d", studyName(t), round)
				var wg sync.WaitGroup
				errs := make([]error, 8)
				for p := range 8 {
					w := openT(t, loc)
					wg.Go(func() {
						defer w.Close() // one round's connections at a time
						for k := range 4 {
							from := (p*4 + k) * 50
							if _, _, err := w.Ingest(context.Background(), study, fmt.Sprintf("w%d/%d.json", p, k), genTrials(from, 50)); err != nil {
								errs[p] = err
								return
							}
						}
					})
				}
				wg.Wait()
				if err := errors.Join(errs...); err != nil {
					t.Fatal(err)
				}
				checks, err := s.Check(context.Background(), study)
				if err != nil {
					t.Fatal(err)
				}
				if len(checks) != 1 || checks[0].Trials != 8*4*50 || len(checks[0].Damage) != 0 {
					for _, c := range checks {
						for _, d := range c.Damage[:min(len(c.Damage), 5)] {
							t.Errorf("round %d: %v", round, d)
						}
					}
					t.Fatalf("round %d: Check = %d studies, want 1 sound one with %d trials: %+v", round, len(checks), 8*4*50, checks)
				}
			}
		})
	}
}

// TestOpenAfterKilledWriter kills (SIGKILL) the only process that had a
// SQLite store open while it held a write transaction: the WAL it left
// needs recovery, which a read-only connection cannot do. The next
// writer opens the store (recovering it), finds what was committed, and
// writes.
func TestOpenAfterKilledWriter(t *testing.T) {
	loc, study := filepath.Join(t.TempDir(), "t.db"), "s"
	cmd := helper(t, "kill", loc, study, 0)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "mid" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper said %q, stderr:\n%s", line, stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	s, err := store.Open(context.Background(), loc)
	if err != nil {
		t.Fatalf("opening the store its only writer left mid-transaction: %v", err)
	}
	defer s.Close()
	assertComplete(t, s, study, 50)
	if added, _, err := s.Ingest(context.Background(), study, "after", genTrials(50, 10)); err != nil || added != 10 {
		t.Errorf("ingest after the kill: %d added, %v; want 10", added, err)
	}
}

// TestOpenHotJournal opens a store whose creator was killed (SIGKILL, by
// a `pareto ask` kill loop) inside its first transaction, before the
// store was in WAL mode: it left a hot rollback journal
// (testdata/hot-journal), which a read-only connection cannot roll back.
// A writer rolls it back and creates the store; read-only openers work
// after it.
func TestOpenHotJournal(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"t.db", "t.db-journal"} {
		b, err := os.ReadFile(filepath.Join("testdata", "hot-journal", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	loc := filepath.Join(dir, "t.db")
	ctx := context.Background()
	if _, err := store.OpenReadOnly(ctx, loc); err == nil {
		t.Fatal("the read-only open rolled back a hot journal: the fixture holds none")
	}
	s, err := store.Open(ctx, loc)
	if err != nil {
		t.Fatalf("opening a store with a hot journal: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "t.db-journal")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the hot journal is still there: %v", err)
	}
	if added, _, err := s.Ingest(ctx, "s", "after", genTrials(0, 10)); err != nil || added != 10 {
		t.Errorf("ingest: %d added, %v; want 10", added, err)
	}
	s.Close()
	r, err := store.OpenReadOnly(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if ts, err := r.Trials(ctx, "s", store.Query{}); err != nil || len(ts) != 10 {
		t.Errorf("read back %d trials, %v; want 10", len(ts), err)
	}
}
