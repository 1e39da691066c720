package shared

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// Verifier checks the content hashes of the trials a read decodes on the
// other cores while the reader goes on decoding: hashing every trial is a
// sixth of decoding it, and would otherwise slow the read path by as much.
// Trials are handed over in batches, as shallow copies (the hash only
// reads them); wait returns the first damaged trial in read order.
type Verifier struct {
	batch []verifyItem
	work  chan verifyChunk
	// group, when set, counts the chunks handed over since setGroup that
	// are not hashed yet (a streamed read waits for them: see scanner).
	group *sync.WaitGroup
	wg    sync.WaitGroup
	mu    sync.Mutex
	bad   *store.IntegrityError
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

// verifyChunk is a batch of trials handed over, and the group that
// counts it (nil for none).
type verifyChunk struct {
	items []verifyItem
	group *sync.WaitGroup
}

// verifyBatch is the number of trials handed over at once.
const verifyBatch = 256

// NewVerifier returns a Verifier whose workers are running.
func NewVerifier() *Verifier {
	v := &Verifier{work: make(chan verifyChunk, 4)}
	for range max(1, runtime.GOMAXPROCS(0)-1) {
		v.wg.Add(1)
		go v.run()
	}
	return v
}

func (v *Verifier) run() {
	defer v.wg.Done()
	for c := range v.work {
		for i := range c.items {
			it := &c.items[i]
			if got := trial.ComputeID(&it.t); got != it.want {
				v.report(it.seq, &store.IntegrityError{Trial: it.t.ID,
					Detail: fmt.Sprintf("what is stored hashes to %s, not to its content hash %s", got, it.want)})
			}
		}
		if c.group != nil {
			c.group.Done()
		}
	}
}

func (v *Verifier) report(seq int, e *store.IntegrityError) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.bad == nil || seq < v.first {
		v.bad, v.first = e, seq
	}
}

// add queues t, which must hash to want.
func (v *Verifier) add(t *trial.Trial, want string) {
	v.batch = append(v.batch, verifyItem{seq: v.seq, t: *t, want: want})
	v.seq++
	if len(v.batch) == verifyBatch {
		v.send()
	}
}

// Wait hashes what is queued, stops the workers and returns the first
// damaged trial (nil when every one is sound). Calling it again returns
// the same.
func (v *Verifier) Wait() error {
	if !v.done {
		v.done = true
		if len(v.batch) > 0 {
			v.send()
		}
		close(v.work)
		v.wg.Wait()
	}
	if v.bad == nil {
		return nil
	}
	return v.bad
}

// send hands the queued trials over to the workers.
func (v *Verifier) send() {
	if v.group != nil {
		v.group.Add(1)
	}
	v.work <- verifyChunk{items: v.batch, group: v.group}
	v.batch = make([]verifyItem, 0, verifyBatch)
}

// setGroup hands the queued trials over (counted by the previous group)
// and makes g count the chunks handed over from now on.
func (v *Verifier) setGroup(g *sync.WaitGroup) {
	if len(v.batch) > 0 {
		v.send()
	}
	v.group = g
}

// failed returns the first damaged trial found so far, or nil.
func (v *Verifier) failed() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.bad == nil {
		return nil
	}
	return v.bad
}
