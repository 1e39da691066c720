package store

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/pareto-llm/pareto/trial"
)

// verifier checks the content hashes of the trials a read decodes on the
// other cores while the reader goes on decoding: hashing every trial is a
// sixth of decoding it, and would otherwise slow the read path by as much.
// Trials are handed over in batches, as shallow copies (the hash only
// reads them); wait returns the first damaged trial in read order.
type verifier struct {
	batch []verifyItem
	work  chan []verifyItem
	wg    sync.WaitGroup
	mu    sync.Mutex
	bad   *IntegrityError
	first int // read order of bad
	seq   int
	done  bool
}

// verifyItem is one trial to hash: its read order, the trial and the
// content hash it must have.
type verifyItem struct {
	seq  int
	t    trial.Trial
	want string
}

// verifyBatch is the number of trials handed over at once.
const verifyBatch = 256

func newVerifier() *verifier {
	v := &verifier{work: make(chan []verifyItem, 4)}
	for range max(1, runtime.GOMAXPROCS(0)-1) {
		v.wg.Add(1)
		go v.run()
	}
	return v
}

func (v *verifier) run() {
	defer v.wg.Done()
	for items := range v.work {
		for i := range items {
			it := &items[i]
			if got := trial.ComputeID(&it.t); got != it.want {
				v.report(it.seq, &IntegrityError{Trial: it.t.ID,
					Detail: fmt.Sprintf("what is stored hashes to %s, not to its content hash %s", got, it.want)})
			}
		}
	}
}

func (v *verifier) report(seq int, e *IntegrityError) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.bad == nil || seq < v.first {
		v.bad, v.first = e, seq
	}
}

// add queues t, which must hash to want.
func (v *verifier) add(t *trial.Trial, want string) {
	v.batch = append(v.batch, verifyItem{seq: v.seq, t: *t, want: want})
	v.seq++
	if len(v.batch) == verifyBatch {
		v.work <- v.batch
		v.batch = make([]verifyItem, 0, verifyBatch)
	}
}

// wait hashes what is queued, stops the workers and returns the first
// damaged trial (nil when every one is sound). Calling it again returns
// the same.
func (v *verifier) wait() error {
	if !v.done {
		v.done = true
		if len(v.batch) > 0 {
			v.work <- v.batch
			v.batch = nil
		}
		close(v.work)
		v.wg.Wait()
	}
	if v.bad == nil {
		return nil
	}
	return v.bad
}
