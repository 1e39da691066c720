package search

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
)

// stateFormat names the layout of a saved study.
const stateFormat = "pareto-search-study/1"

type savedStudy struct {
	Format  string       `json:"format"`
	Space   string       `json:"space"` // Space.Fingerprint
	Options Options      `json:"options"`
	RNG     []byte       `json:"rng"` // the generator's state
	Trials  []savedTrial `json:"trials"`
	Queue   []Config     `json:"queue,omitempty"`
	Next    uint64       `json:"next,omitempty"`
	Gen     int          `json:"generation,omitempty"`
	Parents []int        `json:"parents,omitempty"`
}

type savedTrial struct {
	Trial
	Genes  []float64 `json:"genes"`
	Pooled bool      `json:"pooled,omitempty"`
}

// MarshalJSON saves the study's whole state: its options, its random
// generator, every trial and NSGA-II's population. ResumeStudy restores
// it.
func (s *Study) MarshalJSON() ([]byte, error) {
	rng, err := s.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	st := savedStudy{Format: stateFormat, Space: s.space.Fingerprint(), Options: s.opts, RNG: rng,
		Trials: make([]savedTrial, len(s.trials)), Queue: s.queue, Next: s.next, Gen: s.gen, Parents: s.parents}
	for i := range s.trials {
		t := &s.trials[i]
		st.Trials[i] = savedTrial{Trial: *t, Genes: t.genes, Pooled: t.pooled}
	}
	return json.Marshal(st)
}

// ResumeStudy restores a study saved by MarshalJSON on the same space: it
// continues exactly where the saved one was.
func ResumeStudy(space *Space, data []byte) (*Study, error) {
	var st savedStudy
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("search: reading a saved study: %w", err)
	}
	if st.Format != stateFormat {
		return nil, fmt.Errorf("search: a saved study of format %q, not %q", st.Format, stateFormat)
	}
	if fp := space.Fingerprint(); st.Space != fp {
		return nil, fmt.Errorf("search: the study was saved on another search space (fingerprint %s, this one %s)", st.Space, fp)
	}
	pcg := &rand.PCG{}
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, fmt.Errorf("search: reading a saved study: %w", err)
	}
	s := &Study{space: space, opts: st.Options, pcg: pcg, queue: st.Queue, next: st.Next, gen: st.Gen, parents: st.Parents}
	for i, t := range st.Trials {
		if t.ID != i || len(t.Genes) != len(space.Params) {
			return nil, fmt.Errorf("search: a saved study with a damaged trial %d", i)
		}
		tr := t.Trial
		tr.genes, tr.pooled = t.Genes, t.Pooled
		s.trials = append(s.trials, tr)
	}
	for _, id := range s.parents {
		if id < 0 || id >= len(s.trials) || s.trials[id].State != Complete {
			return nil, fmt.Errorf("search: a saved study whose population names trial %d", id)
		}
	}
	if err := s.prepare(); err != nil {
		return nil, err
	}
	return s, nil
}
