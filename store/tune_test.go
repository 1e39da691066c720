package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/store/tunequeue"
)

// TestTuneQueue exercises the queue on both stores: claims, leases,
// re-queue after a lost lease while a run has attempts left (max 2
// here), failure on the loss of its last, and that a worker whose run was
// taken cannot finish it.
func TestTuneQueue(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st := openT(t, b.fresh(t))
			q := st.(tunequeue.Queue)
			if _, _, err := q.ClaimRun(ctx, "s", "w1", time.Minute); !errors.Is(err, tunequeue.ErrNoTune) {
				t.Fatalf("claim before OpenTune: %v, want tunequeue.ErrNoTune", err)
			}
			ts, created, err := q.OpenTune(ctx, "s", tunequeue.Setup{Space: "fp", Options: []byte(`{"a":1}`), Sampler: []byte(`{}`), Budget: 5, MaxAttempts: 2})
			if err != nil || !created || ts.Budget != 5 || ts.MaxAttempts != 2 || string(ts.Options) != `{"a":1}` {
				t.Fatalf("OpenTune = %+v, %v, %v", ts, created, err)
			}
			if _, created, err := q.OpenTune(ctx, "s", tunequeue.Setup{Budget: 9}); err != nil || created {
				t.Fatalf("second OpenTune created=%v, %v", created, err)
			}
			var ids []int64
			err = q.UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error {
				if err := tx.SetSampler([]byte(`{"x":2}`)); err != nil {
					return err
				}
				if err := tx.PutTrial(tunequeue.Trial{Number: 0, Role: "candidate", Params: []byte(`{"tp":2}`), State: "running"}); err != nil {
					return err
				}
				for range 3 {
					id, err := tx.AddRun(0)
					if err != nil {
						return err
					}
					ids = append(ids, id)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			// A failing update changes nothing.
			boom := errors.New("boom")
			if err := q.UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error { tx.AddRun(0); return boom }); !errors.Is(err, boom) {
				t.Fatalf("UpdateTune = %v", err)
			}
			status := func() tunequeue.Status {
				t.Helper()
				s, err := q.TuneStatus(ctx, "s")
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			if s := status(); s.Queued != 3 || s.BudgetLeft != 2 || s.Trials != 1 {
				t.Fatalf("status %+v", s)
			}
			r1, ok, err := q.ClaimRun(ctx, "s", "w1", 400*time.Millisecond)
			if err != nil || !ok || r1.ID != ids[0] || r1.Attempts != 1 || r1.State != tunequeue.RunRunning {
				t.Fatalf("claim = %+v, %v, %v", r1, ok, err)
			}
			r2, _, _ := q.ClaimRun(ctx, "s", "w2", time.Hour)
			if r2.ID != ids[1] {
				t.Fatalf("second claim took run %d, want %d", r2.ID, ids[1])
			}
			if s := status(); s.Running != 2 || s.Queued != 1 || len(s.RunningRuns) != 2 {
				t.Fatalf("status %+v", s)
			}
			// w1's lease expires: the run is queued again and w3 gets it
			// (the oldest queued run) before run 3.
			time.Sleep(450 * time.Millisecond)
			r3, ok, err := q.ClaimRun(ctx, "s", "w3", 50*time.Millisecond)
			if err != nil || !ok || r3.ID != ids[0] || r3.Attempts != 2 {
				t.Fatalf("claim after expiry = %+v, %v, %v", r3, ok, err)
			}
			err = q.UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error { return tx.FinishRun(ids[0], "w1", tunequeue.RunComplete, "", nil) })
			if !errors.Is(err, tunequeue.ErrLeaseLost) {
				t.Fatalf("finish by the worker that lost it: %v, want tunequeue.ErrLeaseLost", err)
			}
			if err := q.RenewRun(ctx, "s", ids[0], "w1", time.Hour); !errors.Is(err, tunequeue.ErrLeaseLost) {
				t.Fatalf("renew by the worker that lost it: %v", err)
			}
			// Lost a second time: failed, not retried.
			time.Sleep(80 * time.Millisecond)
			r4, _, _ := q.ClaimRun(ctx, "s", "w4", time.Hour)
			if r4.ID != ids[2] {
				t.Fatalf("claim took run %d, want %d", r4.ID, ids[2])
			}
			if _, ok, _ := q.ClaimRun(ctx, "s", "w5", time.Hour); ok {
				t.Fatal("claimed a run from an empty queue")
			}
			err = q.UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error {
				if err := tx.StartRun(ids[1], "w2", "pid:1", "/tmp/x"); err != nil {
					return err
				}
				if err := tx.FinishRun(ids[1], "w2", tunequeue.RunComplete, "", []byte(`{"v":1}`)); err != nil {
					return err
				}
				return tx.ReleaseRun(ids[2], "w4", "interrupted")
			})
			if err != nil {
				t.Fatal(err)
			}
			if s := status(); s.Complete != 1 || s.Failed != 1 || s.Queued != 1 || s.Running != 0 {
				t.Fatalf("status %+v", s)
			}
			err = q.UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error {
				runs, err := tx.Runs()
				if err != nil {
					return err
				}
				if string(tx.Study().Sampler) != `{"x":2}` || len(runs) != 3 {
					return fmt.Errorf("study %+v, %d runs", tx.Study(), len(runs))
				}
				if runs[0].State != tunequeue.RunFailed || runs[0].Reason == "" || runs[1].Handle != "pid:1" || string(runs[1].Result) != `{"v":1}` ||
					runs[2].State != tunequeue.RunQueued || runs[2].Attempts != 0 || !runs[0].Lost() || runs[1].Lost() {
					return fmt.Errorf("runs %+v", runs)
				}
				if err := tx.ReviveRun(ids[1], nil); err == nil {
					return errors.New("revived a run that was not lost")
				}
				return tx.ReviveRun(ids[0], []byte(`{"v":2}`))
			})
			if err != nil {
				t.Fatal(err)
			}
			if s := status(); s.Complete != 2 || s.Failed != 0 {
				t.Fatalf("after ReviveRun: %+v", s)
			}
		})
	}
}

// TestTuneClaimConcurrent has 4 workers claim 40 runs at once: each run
// is claimed once.
func TestTuneClaimConcurrent(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			loc := b.fresh(t)
			q := openT(t, loc).(tunequeue.Queue)
			if _, _, err := q.OpenTune(ctx, "s", tunequeue.Setup{Budget: 40}); err != nil {
				t.Fatal(err)
			}
			err := q.UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error {
				if err := tx.PutTrial(tunequeue.Trial{Number: 0, Role: "candidate", Params: []byte(`{}`), State: "running"}); err != nil {
					return err
				}
				for range 40 {
					if _, err := tx.AddRun(0); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			seen := map[int64]string{}
			var wg sync.WaitGroup
			for w := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					wq := openT(t, loc).(tunequeue.Queue) // a process of its own, as far as the database sees
					name := fmt.Sprintf("w%d", w)
					for {
						r, ok, err := wq.ClaimRun(ctx, "s", name, time.Hour)
						if err != nil {
							t.Error(err)
							return
						}
						if !ok {
							return
						}
						mu.Lock()
						if other, dup := seen[r.ID]; dup {
							t.Errorf("run %d claimed by %s and %s", r.ID, other, name)
						}
						seen[r.ID] = name
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if len(seen) != 40 {
				t.Errorf("%d runs claimed, want 40", len(seen))
			}
		})
	}
}

// TestTuneMaxAttempts: a study's max attempts default to
// tunequeue.DefaultMaxAttempts (3) and can be changed; a run is queued again after
// each lost lease but its last, which fails it saying how often it was
// lost; DropRuns deletes only queued runs never claimed, giving their
// budget back.
func TestTuneMaxAttempts(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			q := openT(t, b.fresh(t)).(tunequeue.Queue)
			ts, _, err := q.OpenTune(ctx, "s", tunequeue.Setup{Budget: 6})
			if err != nil || ts.MaxAttempts != tunequeue.DefaultMaxAttempts || tunequeue.DefaultMaxAttempts != 3 {
				t.Fatalf("OpenTune = %+v, %v; want max attempts 3", ts, err)
			}
			var ids []int64
			err = q.UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error {
				if err := tx.SetMaxAttempts(0); err == nil {
					return errors.New("max attempts 0 accepted")
				}
				if err := tx.PutTrial(tunequeue.Trial{Number: 0, Role: "candidate", Params: []byte(`{}`), State: "running"}); err != nil {
					return err
				}
				for range 3 {
					id, err := tx.AddRun(0)
					if err != nil {
						return err
					}
					ids = append(ids, id)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			// Run 1 is lost three times: queued again twice, then failed.
			for attempt := 1; attempt <= 3; attempt++ {
				r, ok, err := q.ClaimRun(ctx, "s", fmt.Sprintf("w%d", attempt), 20*time.Millisecond)
				if err != nil || !ok || r.ID != ids[0] || r.Attempts != attempt {
					t.Fatalf("claim %d = %+v, %v, %v; want run %d", attempt, r, ok, err, ids[0])
				}
				time.Sleep(40 * time.Millisecond)
			}
			r, _, err := q.ClaimRun(ctx, "s", "w4", time.Hour) // expires run 1's last lease
			if err != nil || r.ID != ids[1] {
				t.Fatalf("claim after the last loss = %+v, %v; want run %d", r, err, ids[1])
			}
			s, err := q.TuneStatus(ctx, "s")
			if err != nil || s.Failed != 1 || len(s.FailedRuns) != 1 || s.FailedRuns[0].Reason != "lost 3 times (the lease of w3 expired): not retried" {
				t.Fatalf("status %+v, %v", s, err)
			}
			err = q.UpdateTune(ctx, "s", func(tx *tunequeue.Tx) error {
				if err := tx.SetMaxAttempts(5); err != nil {
					return err
				}
				n, err := tx.DropRuns(ids) // only run 3 is queued and never claimed
				if err != nil {
					return err
				}
				if n != 1 || tx.Study().Runs != 2 || tx.Study().MaxAttempts != 5 {
					return fmt.Errorf("DropRuns = %d, study %+v", n, tx.Study())
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if s, _ := q.TuneStatus(ctx, "s"); s.BudgetLeft != 4 || s.Queued != 0 || s.Running != 1 {
				t.Fatalf("after DropRuns: %+v", s)
			}
			ts, _, _ = q.OpenTune(ctx, "s", tunequeue.Setup{})
			if ts.MaxAttempts != 5 {
				t.Fatalf("max attempts %d, want 5", ts.MaxAttempts)
			}
		})
	}
}
