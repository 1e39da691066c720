package store_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pareto-llm/pareto/internal/safe"
	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/columnar"
	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/store/internal/shared"
	"github.com/pareto-llm/pareto/trial"
)

// TestScan reads a study of several batches with Scan: the same trials in
// the same order as Trials, for every query; fn's error is returned as it
// is and stops the read.
func TestScan(t *testing.T) {
	const n = 2*shared.ScanBatch + 300
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := openT(t, b.fresh(t))
			study := studyName(t)
			for from := 0; from < n; from += 1000 {
				if _, _, err := s.Ingest(ctx, study, fmt.Sprint("src", from), genTrials(from, min(1000, n-from))); err != nil {
					t.Fatal(err)
				}
			}
			for _, q := range []store.Query{
				{},
				{Slim: true, Metrics: []string{trial.TTFT}},
				{Where: []store.Condition{{Key: "engine", Op: store.OpEq, Value: "vllm"}}},
				{Limit: shared.ScanBatch + 7},
				{Metrics: []string{trial.OutputTokenThroughput}},
			} {
				want, err := s.Trials(ctx, study, q)
				if err != nil {
					t.Fatal(err)
				}
				var got []trial.Trial
				batches := 0
				err = s.Scan(ctx, study, q, func(ts []trial.Trial) error {
					if len(ts) == 0 || len(ts) > shared.ScanBatch {
						t.Errorf("%+v: a batch of %d trials", q, len(ts))
					}
					batches++
					got = append(got, ts...)
					return nil
				})
				if err != nil {
					t.Fatalf("Scan(%+v): %v", q, err)
				}
				if len(got) != len(want) || !reflect.DeepEqual(got, want) {
					t.Errorf("Scan(%+v): %d trials in %d batches, Trials %d; they differ", q, len(got), batches, len(want))
				}
				if wantBatches := (len(want) + shared.ScanBatch - 1) / shared.ScanBatch; batches != wantBatches {
					t.Errorf("Scan(%+v): %d batches, want %d", q, batches, wantBatches)
				}
			}
			// Equal label maps are shared in a Scan (fn only reads them),
			// copied by Trials (whose caller may change them).
			scanned := map[string]map[uintptr]bool{}
			if err := s.Scan(ctx, study, store.Query{}, func(ts []trial.Trial) error {
				for i := range ts {
					k := fmt.Sprint(ts[i].Labels)
					if scanned[k] == nil {
						scanned[k] = map[uintptr]bool{}
					}
					scanned[k][reflect.ValueOf(ts[i].Labels).Pointer()] = true
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			for k, ptrs := range scanned {
				if len(ptrs) != 1 {
					t.Errorf("Scan: labels %s in %d maps; want one shared", k, len(ptrs))
				}
			}
			all, err := s.Trials(ctx, study, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if len(all) > 1 && reflect.DeepEqual(all[0].Labels, all[1].Labels) && reflect.ValueOf(all[0].Labels).Pointer() == reflect.ValueOf(all[1].Labels).Pointer() {
				t.Errorf("Trials shares a labels map between trials")
			}
			stop := errors.New("stop")
			calls := 0
			err = s.Scan(ctx, study, store.Query{}, func([]trial.Trial) error { calls++; return stop })
			if err != stop || calls != 1 {
				t.Errorf("Scan with a failing fn = %v after %d calls; want its error as it is, after 1", err, calls)
			}
			var ie *safe.InternalError
			if err := s.Scan(ctx, study, store.Query{}, func([]trial.Trial) error { panic("boom") }); !errors.As(err, &ie) {
				t.Errorf("Scan with a panicking fn = %v; want a *safe.InternalError", err)
			}
			if err := s.Scan(ctx, "no-such-study", store.Query{}, func([]trial.Trial) error { return nil }); !errors.Is(err, store.ErrNoStudy) {
				t.Errorf("Scan of a missing study = %v; want ErrNoStudy", err)
			}
		})
	}
}

// TestSketchRoundTrip packs sketches and unpacks them, and refuses
// truncated or trailing bytes.
func TestSketchRoundTrip(t *testing.T) {
	ts := genTrials(0, 50)
	ts[3].Labels = map[string]string{"id": "x", "run": "2", "engine": "vllm"}
	ts[4].Source.Format = "table"
	ts[5].Labels = map[string]string{"id": "x", "run": "2"} // as the previous
	ts[6].Labels = map[string]string{trial.LabelTestCase: "c", trial.LabelPhase: "decode", trial.DimBenchmark: "b"}
	var sk columnar.Sketcher
	var want []trial.Sketch
	for i := range ts {
		k := codec.SketchKey(&ts[i])
		sk.Add(&ts[i], k)
		want = append(want, trial.SketchOf(&ts[i], k))
	}
	got, err := columnar.UnpackSketches(sk.Buf, len(ts), nil)
	if err != nil || !cmp.Equal(got, want) {
		t.Fatalf("unpackSketches = %v, %v; want %v", got, err, want)
	}
	if _, err := columnar.UnpackSketches(sk.Buf[:len(sk.Buf)-1], len(ts), nil); err == nil {
		t.Error("a truncated blob unpacks")
	}
	if _, err := columnar.UnpackSketches(append(slices.Clone(sk.Buf), 0), len(ts), nil); err == nil {
		t.Error("a blob with a trailing byte unpacks")
	}
}
