package ingest

import (
	"errors"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/trial"
)

// A Scanner reads the trials of a set of paths one at a time, as Load
// reads them (same order, same skips), without holding them all in
// memory. Its API is modelled on bufio.Scanner and benchfmt.Files:
//
//	s := ingest.NewScanner(paths, opts)
//	defer s.Close()
//	for s.Next() {
//		use(s.Trial(), s.Run())
//	}
//	if err := s.Err(); err != nil { ... }
//	skipped := s.Skipped()
//
// Inputs are read concurrently ahead of Next (LoadOptions.Workers), a
// file of many records in batches (LoadOptions.Batches); LoadOptions.Each
// is not used.
type Scanner struct {
	batches chan scanBatch
	stop    chan struct{}
	done    chan struct{}
	cur     scanBatch
	i       int
	ds      *Dataset
	err     error
}

type scanBatch struct {
	ts  []trial.Trial
	run *cloudai.Run
}

// errScanClosed ends the loading of a Scanner that was closed early.
var errScanClosed = errors.New("ingest: scanner closed")

// NewScanner starts reading paths with opts; call Next to get the
// trials, and Close when done (Next returning false closes it).
func NewScanner(paths []string, opts LoadOptions) *Scanner {
	s := &Scanner{batches: make(chan scanBatch), stop: make(chan struct{}), done: make(chan struct{}), i: -1}
	opts.Batches = true // files of many records are handed on as read
	opts.Each = func(ts []trial.Trial, run *cloudai.Run) error {
		if len(ts) == 0 {
			return nil
		}
		select {
		case s.batches <- scanBatch{ts, run}:
			return nil
		case <-s.stop:
			return errScanClosed
		}
	}
	go func() {
		defer close(s.done)
		defer close(s.batches)
		s.ds, s.err = Load(paths, opts)
		if errors.Is(s.err, errScanClosed) {
			s.err = nil
		}
	}()
	return s
}

// Next advances to the next trial and reports whether there is one.
func (s *Scanner) Next() bool {
	if s.i+1 < len(s.cur.ts) {
		s.i++
		return true
	}
	b, ok := <-s.batches
	if !ok {
		s.cur, s.i = scanBatch{}, -1
		return false
	}
	s.cur, s.i = b, 0
	return true
}

// Trial returns the trial Next advanced to.
func (s *Scanner) Trial() trial.Trial { return s.cur.ts[s.i] }

// Run returns the CloudAI run of the current trial, or nil.
func (s *Scanner) Run() *cloudai.Run { return s.cur.run }

// Err returns the error that ended the reading (a path that does not
// exist or cannot be listed), once Next has returned false; a file that
// cannot be read is a skip, not an error.
func (s *Scanner) Err() error {
	s.Close()
	return s.err
}

// Skipped returns the inputs that yielded no trial, once Next has
// returned false.
func (s *Scanner) Skipped() []Skip {
	s.Close()
	if s.ds == nil {
		return nil
	}
	return s.ds.Skipped
}

// Close stops the reading and waits for it to end; Next then returns
// false. Close may be called more than once.
func (s *Scanner) Close() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	for range s.batches { // let a blocked send see stop
	}
	<-s.done
	s.cur, s.i = scanBatch{}, -1
}
