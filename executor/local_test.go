package executor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLocal(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		command string
		limit   time.Duration
		cancel  bool
		want    State
		code    int
		reason  string
	}{
		{name: "completed", command: `echo "$PARETO_PARAM_TP $(pwd)" > out.txt; echo logged; echo err >&2`, want: Completed},
		{name: "failed", command: "exit 3", want: Failed, code: 3, reason: "exit status 3"},
		{name: "timeout", command: "sleep 30", limit: 200 * time.Millisecond, want: TimedOut, code: -1, reason: "time limit"},
		{name: "cancelled", command: "sleep 30 & sleep 30; wait", cancel: true, want: Cancelled, code: -1, reason: "cancelled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := &Local{Grace: time.Second}
			dir := filepath.Join(t.TempDir(), "job")
			start := time.Now()
			h, err := l.Start(ctx, Job{ID: tc.name, Command: tc.command, Dir: dir, Env: []string{"PARETO_PARAM_TP=2"},
				Resources: Resources{TimeLimit: tc.limit}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(h), "pid:") {
				t.Errorf("handle %q", h)
			}
			if tc.cancel {
				time.Sleep(100 * time.Millisecond)
				if err := l.Cancel(ctx, h); err != nil {
					t.Fatal(err)
				}
			}
			st, err := l.Wait(ctx, h)
			if err != nil {
				t.Fatal(err)
			}
			if st.State != tc.want || st.ExitCode != tc.code || !strings.Contains(st.Reason, tc.reason) {
				t.Errorf("status %+v, want %s exit %d reason ~%q", st, tc.want, tc.code, tc.reason)
			}
			if time.Since(start) > 10*time.Second {
				t.Errorf("took %s: the process group was not stopped", time.Since(start))
			}
			if tc.want != Completed {
				return
			}
			b, err := os.ReadFile(filepath.Join(dir, "out.txt"))
			if err != nil || string(b) != "2 "+dir+"\n" {
				t.Errorf("out.txt = %q, %v", b, err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, StdoutFile)); string(b) != "logged\n" {
				t.Errorf("stdout %q", b)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, StderrFile)); string(b) != "err\n" {
				t.Errorf("stderr %q", b)
			}
		})
	}
}

func TestLocalLost(t *testing.T) {
	var l Local
	if _, err := l.Wait(context.Background(), "pid:1"); !errors.Is(err, ErrLost) {
		t.Errorf("Wait on another process's handle: %v, want ErrLost", err)
	}
	if err := l.Cancel(context.Background(), "pid:1"); !errors.Is(err, ErrLost) {
		t.Errorf("Cancel on another process's handle: %v, want ErrLost", err)
	}
	if _, err := l.Wait(context.Background(), "slurm:12"); err == nil || errors.Is(err, ErrLost) {
		t.Errorf("Wait on a foreign handle: %v", err)
	}
}
