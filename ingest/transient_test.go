package ingest

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/trial"
)

// TestLoadTransient checks that Each gets the same trials with
// LoadOptions.Transient as without, measurements, parameters and labels
// included, though their memory is filled again once Each returns:
// generated AIPerf exports (the fast reader, its spare slices and maps),
// and every fixture (twins, sweeps, CloudAI
// trees), with and without LoadOptions.GPUs.
func TestLoadTransient(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	if err := os.MkdirAll(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		data := aiperfFile(t, i)
		if i%3 == 0 {
			data = aiperfFileWithout(t, i, "request_latency")
		}
		if err := os.WriteFile(filepath.Join(runs, fmt.Sprintf("run_%05d_profile_export_aiperf.json", i)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, gpus := range []trial.GPUs{{}, {Total: 8}, {Total: 8, Replicas: 2}} {
		for _, dir := range []string{runs, "testdata"} {
			t.Run(fmt.Sprintf("%s/gpus=%s", filepath.Base(dir), gpus), func(t *testing.T) {
				collect := func(transient bool) ([]trial.Trial, []Skip) {
					var got []trial.Trial
					d, err := Load([]string{dir}, LoadOptions{GPUs: gpus, Batches: true, Transient: transient,
						Each: func(ts []trial.Trial, _ *cloudai.Run) error {
							for _, x := range ts {
								x.Measurements = slices.Clone(x.Measurements)
								x.Params, x.Labels = maps.Clone(x.Params), maps.Clone(x.Labels)
								got = append(got, x)
							}
							return nil
						}})
					if err != nil {
						t.Fatal(err)
					}
					return got, d.Skipped
				}
				want, wantSkips := collect(false)
				got, gotSkips := collect(true)
				if len(want) == 0 {
					t.Fatal("no trials")
				}
				if len(got) != len(want) {
					t.Fatalf("%d trials, want %d", len(got), len(want))
				}
				for i := range want {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Fatalf("trial %d of %s differs with Transient", i, want[i].Source.Path)
					}
				}
				if !reflect.DeepEqual(gotSkips, wantSkips) {
					t.Fatalf("skips differ with Transient:\n%v\n%v", gotSkips, wantSkips)
				}
			})
		}
	}
}
