package ingest

import (
	"runtime"
	"sync"

	"github.com/pareto-llm/pareto/trial"
)

// ReadFiles reads many files concurrently with up to workers goroutines
// (GOMAXPROCS when workers <= 0), within the default Limits, and calls fn
// once per file, from one goroutine at a time, in no particular order. An
// error in one file, or a panic while reading it (a *safe.InternalError
// for that file), does not stop the others.
func ReadFiles(paths []string, workers int, fn func(i int, ts []trial.Trial, err error)) {
	readFiles(paths, nil, workers, readSettings{}, nil, fn, nil)
}

// readSettings are what readFiles gives its readers: the limits, and
// whether the trials go without IDs (LoadOptions.NoIDs).
type readSettings struct {
	lim   Limits
	noIDs bool
	// deploy, when set, has the fast AIPerf reader give its trials their
	// deployment, with these LoadOptions.GPUs (Dataset.gpuCount).
	deploy *trial.GPUs
	// spare, when set, holds measurement slices for the fast AIPerf
	// reader to fill (LoadOptions.Transient).
	spare *spares
}

// readAhead is how far past the first file not yet done readFiles starts
// reading: a reader held up on one file (a large one, or a thread the
// system did not run for a while) does not let the others read, and hold,
// the trials of the whole directory in the meantime. A Dataset hands the
// files on in order, so those trials would wait for it.
const readAhead = 16

// readFiles is ReadFiles within lim, with keys[i] (when keys is not nil)
// as the trial.Source.Key of the trials of paths[i]. A path whose pass[i]
// is set is not read: fn gets no trial and no error for it (the caller
// reads it otherwise). With part set, the trials of a file of many
// records (JSONL, appended results) go to part in batches as they are
// read, from one goroutine at a time as fn, and fn gets those after the
// last batch; an error of part ends the file's read and comes to fn. No
// file is started readAhead files or more after the first not yet done.
func readFiles(paths, keys []string, workers int, set readSettings, pass []bool, fn func(i int, ts []trial.Trial, err error), part func(i int, ts []trial.Trial) error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		next int
		mu   sync.Mutex
		wg   sync.WaitGroup
		// Every file before low is done; moved tells when low moves on.
		low   int
		done  = make([]bool, len(paths))
		moved = sync.NewCond(&mu)
	)
	finished := func(i int) { // with mu held
		done[i] = true
		if i == low {
			for low < len(paths) && done[low] {
				low++
			}
			moved.Broadcast()
		}
	}
	for range min(workers, len(paths)) {
		wg.Go(func() {
			r := readers.Get().(*reader)
			r.lim, r.noIDs, r.deploy, r.spare = set.lim, set.noIDs, set.deploy, set.spare
			defer func() { r.part, r.noIDs, r.deploy, r.spare = nil, false, nil, nil; readers.Put(r) }()
			for {
				mu.Lock()
				for next < len(paths) && next >= low+readAhead {
					moved.Wait()
				}
				i := next
				next++
				mu.Unlock()
				if i >= len(paths) {
					return
				}
				if pass != nil && pass[i] {
					mu.Lock()
					fn(i, nil, nil)
					finished(i)
					mu.Unlock()
					continue
				}
				r.key = ""
				if keys != nil {
					r.key = keys[i]
				}
				r.part = nil
				if part != nil {
					r.part = func(ts []trial.Trial) error {
						mu.Lock()
						defer mu.Unlock()
						return part(i, ts)
					}
				}
				ts, err := r.safeReadFile(paths[i])
				if isInternal(err) { // its scratch state may be inconsistent
					r = newReader()
					r.lim, r.noIDs, r.deploy, r.spare = set.lim, set.noIDs, set.deploy, set.spare
				}
				mu.Lock()
				fn(i, ts, err)
				finished(i)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
