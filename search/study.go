package search

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/pareto-llm/pareto/frontier"
)

// Sampler names, as Options.Sampler takes them.
const (
	NSGA2  = "nsga2"
	Sobol  = "sobol"
	Random = "random"
	Grid   = "grid"
)

// Samplers lists the sampler names.
var Samplers = []string{NSGA2, Sobol, Random, Grid}

// ErrExhausted is returned by Ask when a grid has no configuration left.
var ErrExhausted = errors.New("search: every configuration of the grid has been asked")

// ErrInfeasible is returned by Ask when the constraints reject every
// configuration the sampler tried (10 000 of them): the constraints leave
// almost nothing of the space.
var ErrInfeasible = errors.New("search: the constraints reject every configuration tried")

// Options configure a study. The zero value of a numeric field means its
// default.
type Options struct {
	// Sampler is NSGA2 (the default), Sobol, Random or Grid.
	Sampler string `json:"sampler"`
	// Seed makes the study deterministic: the same space, options and
	// sequence of Ask and Tell calls give the same configurations.
	Seed uint64 `json:"seed"`
	// Objectives name what Tell reports, in order, with their directions.
	// NSGA-II needs at least one; the other samplers record them.
	Objectives []frontier.Objective `json:"objectives"`
	// Population is NSGA-II's population size (default 50); a generation
	// ends when that many of its trials completed.
	Population int `json:"population,omitempty"`
	// CrossoverProb is the probability that a child is bred by crossover
	// (default 0.9); MutationProb the probability that each parameter is
	// mutated (default 1/number of parameters).
	CrossoverProb float64 `json:"crossover_prob,omitempty"`
	MutationProb  float64 `json:"mutation_prob,omitempty"`
	// CrossoverEta and MutationEta are the distribution indices of SBX
	// and polynomial mutation (default 20 each).
	CrossoverEta float64 `json:"crossover_eta,omitempty"`
	MutationEta  float64 `json:"mutation_eta,omitempty"`
	// Initial samples NSGA-II's first generation: Sobol (the default) or
	// Random.
	Initial string `json:"initial,omitempty"`
}

// DefaultPopulation is NSGA-II's default population size.
const DefaultPopulation = 50

// withDefaults fills the defaults in.
func (o Options) withDefaults(params int) Options {
	if o.Sampler == "" {
		o.Sampler = NSGA2
	}
	if o.Sampler == NSGA2 {
		if o.Population == 0 {
			o.Population = DefaultPopulation
		}
		if o.CrossoverProb == 0 {
			o.CrossoverProb = 0.9
		}
		if o.MutationProb == 0 {
			o.MutationProb = 1 / float64(params)
		}
		if o.CrossoverEta == 0 {
			o.CrossoverEta = 20
		}
		if o.MutationEta == 0 {
			o.MutationEta = 20
		}
		if o.Initial == "" {
			o.Initial = Sobol
		}
	}
	return o
}

// TrialState is where a trial stands.
type TrialState string

const (
	// Running trials were asked and not told yet.
	Running TrialState = "running"
	// Complete trials were told their objective values.
	Complete TrialState = "complete"
	// Failed trials were told that they could not be measured.
	Failed TrialState = "failed"
)

// Trial is one configuration asked of a study.
type Trial struct {
	// ID numbers the trials from 0 in the order they were asked.
	ID     int        `json:"id"`
	Config Config     `json:"config"`
	State  TrialState `json:"state"`
	// Values are the objective values told (Options.Objectives order),
	// Violation how far the trial is from feasible (0: feasible).
	Values    []float64 `json:"values,omitempty"`
	Violation float64   `json:"violation,omitempty"`
	// Generation is the NSGA-II generation that bred the trial.
	Generation int `json:"generation"`
	// Enqueued trials were given by Enqueue, not sampled.
	Enqueued bool `json:"enqueued,omitempty"`

	// genes are the internal coordinates of every parameter (Param.bounds),
	// inactive ones included: what NSGA-II breeds from.
	genes []float64
	// pooled marks a complete trial that took part in a survivor selection.
	pooled bool
}

// Result is what Tell records for a trial.
type Result struct {
	// Values holds one value per objective, in Options.Objectives order.
	Values []float64
	// Violation is how far the trial is from meeting its constraints (the
	// SLOs, say): 0 when it meets them, otherwise positive, larger for
	// worse. NSGA-II ranks every feasible trial before any infeasible one.
	Violation float64
	// Failed says the trial could not be measured; Values are ignored.
	Failed bool
}

// Study is an ask/tell optimisation over a search space. It is not safe
// for concurrent use. Its whole state is saved by MarshalJSON and
// restored by ResumeStudy: a resumed study continues exactly as the
// original would have.
type Study struct {
	space *Space
	opts  Options

	pcg *rand.PCG
	rng *rand.Rand

	trials []Trial
	queue  []Config
	next   uint64 // Sobol or grid position
	gen    int    // NSGA-II generation
	// parents are the trial IDs of NSGA-II's current population.
	parents []int

	// Derived state, rebuilt on resume.
	asked  map[string]bool
	done   int   // complete trials of the current generation
	fresh  []int // complete trials not pooled yet, in ID order
	sobol  *sobolSeq
	grid   *gridOrder
	ranked *ranked // of parents
}

// NewStudy starts a study of space.
func NewStudy(space *Space, opts Options) (*Study, error) {
	opts = opts.withDefaults(len(space.Params))
	s := &Study{space: space, opts: opts, pcg: rand.NewPCG(opts.Seed, 0x7475726e)} // "turn"
	if err := s.prepare(); err != nil {
		return nil, err
	}
	return s, nil
}

// prepare checks the options and builds the derived state.
func (s *Study) prepare() error {
	o := &s.opts
	s.rng = rand.New(s.pcg)
	if !slices.Contains(Samplers, o.Sampler) {
		return fmt.Errorf("search: unknown sampler %q (have nsga2, sobol, random, grid)", o.Sampler)
	}
	for _, obj := range o.Objectives {
		if obj.Direction != frontier.Minimize && obj.Direction != frontier.Maximize {
			return fmt.Errorf("search: objective %q has no direction", obj.Name)
		}
	}
	s.asked = map[string]bool{}
	s.done, s.fresh = 0, nil
	for i := range s.trials {
		t := &s.trials[i]
		s.asked[t.Config.Key()] = true
		if t.State == Complete && t.Generation == s.gen {
			s.done++
		}
		if t.State == Complete && !t.pooled {
			s.fresh = append(s.fresh, t.ID)
		}
	}
	switch o.Sampler {
	case NSGA2:
		if len(o.Objectives) == 0 {
			return errors.New("search: NSGA-II needs at least one objective")
		}
		if o.Population < 2 {
			return fmt.Errorf("search: the population must be at least 2, not %d", o.Population)
		}
		if o.Initial != Sobol && o.Initial != Random {
			return fmt.Errorf("search: the first generation is sampled by sobol or random, not %q", o.Initial)
		}
		if !(o.CrossoverProb >= 0 && o.CrossoverProb <= 1 && o.MutationProb >= 0 && o.MutationProb <= 1) {
			return errors.New("search: the crossover and mutation probabilities must be in [0, 1]")
		}
		if !(o.CrossoverEta > 0 && o.MutationEta > 0) {
			return errors.New("search: the distribution indices must be positive")
		}
		if o.Initial == Sobol {
			if err := s.initSobol(); err != nil {
				return err
			}
		}
		s.rankParents()
	case Sobol:
		return s.initSobol()
	case Grid:
		g, err := newGridOrder(s.space, o.Seed)
		if err != nil {
			return err
		}
		s.grid = g
	}
	return nil
}

func (s *Study) initSobol() error {
	seq, err := newSobol(len(s.space.Params), s.opts.Seed)
	if err != nil {
		return err
	}
	s.sobol = seq
	return nil
}

// Trials returns a copy of every trial, in ID order.
func (s *Study) Trials() []Trial {
	out := make([]Trial, len(s.trials))
	for i, t := range s.trials {
		out[i] = t.clone()
	}
	return out
}

// Trial returns a copy of trial id.
func (s *Study) Trial(id int) (Trial, bool) {
	if id < 0 || id >= len(s.trials) {
		return Trial{}, false
	}
	return s.trials[id].clone(), true
}

// Generation returns NSGA-II's current generation (0 for the first).
func (s *Study) Generation() int { return s.gen }

func (t *Trial) clone() Trial {
	c := *t
	c.Config = make(Config, len(t.Config))
	for k, v := range t.Config {
		c.Config[k] = v
	}
	c.Values = slices.Clone(t.Values)
	c.genes = slices.Clone(t.genes)
	return c
}

// Enqueue makes the next Ask return c (after configurations enqueued
// earlier): the baseline, or a configuration an agent proposes. c must
// be a configuration of the space (Space.Check).
func (s *Study) Enqueue(c Config) error {
	if err := s.space.Check(c); err != nil {
		return fmt.Errorf("search: enqueue %s: %w", c, err)
	}
	s.queue = append(s.queue, c)
	return nil
}

// Ask returns the next trial to run, recorded as running.
func (s *Study) Ask() (Trial, error) {
	t := Trial{ID: len(s.trials), State: Running, Generation: s.gen}
	if len(s.queue) > 0 {
		t.Config, s.queue = s.queue[0], s.queue[1:]
		t.Enqueued = true
		t.genes = s.genesOf(t.Config)
	} else {
		var err error
		t.genes, t.Config, err = s.propose()
		if err != nil {
			return Trial{}, err
		}
	}
	s.asked[t.Config.Key()] = true
	s.trials = append(s.trials, t)
	return t.clone(), nil
}

// Tell records the result of trial id, which must be running.
func (s *Study) Tell(id int, r Result) error {
	if id < 0 || id >= len(s.trials) {
		return fmt.Errorf("search: no trial %d", id)
	}
	t := &s.trials[id]
	if t.State != Running {
		return fmt.Errorf("search: trial %d is already %s", id, t.State)
	}
	if r.Failed {
		t.State = Failed
		return nil
	}
	if k := len(s.opts.Objectives); k > 0 && len(r.Values) != k {
		return fmt.Errorf("search: trial %d: %d values for %d objectives", id, len(r.Values), k)
	}
	for _, v := range r.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("search: trial %d: value %v is not finite (tell a failure instead)", id, v)
		}
	}
	if !(r.Violation >= 0) || math.IsInf(r.Violation, 0) {
		return fmt.Errorf("search: trial %d: violation %v must be a non-negative number", id, r.Violation)
	}
	t.State, t.Values, t.Violation = Complete, slices.Clone(r.Values), r.Violation
	i, _ := slices.BinarySearch(s.fresh, id)
	s.fresh = slices.Insert(s.fresh, i, id)
	if t.Generation == s.gen {
		s.done++
	}
	if s.opts.Sampler == NSGA2 {
		s.advance()
	}
	return nil
}

// genesOf returns the internal coordinates of c; an inactive parameter
// gets the middle of its range.
func (s *Study) genesOf(c Config) []float64 {
	g := make([]float64, len(s.space.Params))
	for i := range s.space.Params {
		p := &s.space.Params[i]
		if v, ok := c[p.Name]; ok {
			g[i] = p.toCoord(v)
			continue
		}
		lo, hi := p.bounds()
		g[i] = p.toCoord(p.fromCoord((lo + hi) / 2))
	}
	return g
}

// decode returns the configuration of genes, snapping each gene to the
// coordinate of its value.
func (s *Study) decode(genes []float64) Config {
	values := make([]Value, len(genes))
	for i := range genes {
		p := &s.space.Params[i]
		values[i] = p.fromCoord(genes[i])
		genes[i] = p.toCoord(values[i])
	}
	return s.space.assemble(values)
}

// fromUnit returns the genes and configuration of a point of the unit
// cube.
func (s *Study) fromUnit(u []float64) ([]float64, Config) {
	genes := make([]float64, len(u))
	for i := range u {
		p := &s.space.Params[i]
		genes[i] = p.toCoord(p.fromUnit(u[i]))
	}
	return genes, s.decode(genes)
}

// Give up on a duplicate after this many tries, on feasibility after
// maxInfeasibleTries.
const (
	maxDuplicateTries  = 100
	maxInfeasibleTries = 10_000
)

// propose samples a new configuration.
func (s *Study) propose() ([]float64, Config, error) {
	switch s.opts.Sampler {
	case Grid:
		return s.grid.next(s)
	case Random:
		return s.drawUnit(s.randomPoint)
	case Sobol:
		return s.drawUnit(s.sobolPoint)
	}
	if s.ranked == nil { // the first generation
		if s.opts.Initial == Sobol {
			return s.drawUnit(s.sobolPoint)
		}
		return s.drawUnit(s.randomPoint)
	}
	return s.breed()
}

func (s *Study) randomPoint(u []float64) {
	for i := range u {
		u[i] = s.rng.Float64()
	}
}

func (s *Study) sobolPoint(u []float64) {
	s.sobol.point(s.next, u)
	s.next++
}

// drawUnit draws points of the unit cube until one is feasible and new;
// after maxDuplicateTries feasible duplicates it takes the first of them.
func (s *Study) drawUnit(point func([]float64)) ([]float64, Config, error) {
	u := make([]float64, len(s.space.Params))
	genes, c, ok := s.firstNew(maxInfeasibleTries, func() ([]float64, Config) {
		point(u)
		return s.fromUnit(u)
	})
	if !ok {
		return nil, nil, ErrInfeasible
	}
	return genes, c, nil
}

// firstNew takes up to tries candidates from next and returns the first
// feasible configuration not asked before; after maxDuplicateTries
// feasible duplicates, or when the tries run out, the first of those
// duplicates. ok is false when no candidate was feasible.
func (s *Study) firstNew(tries int, next func() ([]float64, Config)) (genes []float64, c Config, ok bool) {
	var dupGenes []float64
	var dup Config
	dups := 0
	for range tries {
		genes, c := next()
		if !s.space.Feasible(c) {
			continue
		}
		if !s.asked[c.Key()] {
			return genes, c, true
		}
		if dup == nil {
			dupGenes, dup = genes, c
		}
		if dups++; dups >= maxDuplicateTries {
			break
		}
	}
	return dupGenes, dup, dup != nil
}

// breed returns a child of the current parents: two binary tournaments,
// crossover with probability CrossoverProb, mutation, and up to
// maxDuplicateTries tries for a feasible configuration not asked before;
// a feasible duplicate is taken if nothing new comes, a random feasible
// configuration if nothing feasible does.
func (s *Study) breed() ([]float64, Config, error) {
	genes, c, ok := s.firstNew(maxDuplicateTries, func() ([]float64, Config) {
		genes := s.child()
		return genes, s.decode(genes)
	})
	if !ok {
		return s.drawUnit(s.randomPoint)
	}
	return genes, c, nil
}

// child breeds one child's genes from two tournament winners.
func (s *Study) child() []float64 {
	n := len(s.parents)
	a := &s.trials[s.parents[s.ranked.tournament(s.rng, n)]]
	b := &s.trials[s.parents[s.ranked.tournament(s.rng, n)]]
	genes := slices.Clone(a.genes)
	if s.rng.Float64() < s.opts.CrossoverProb {
		for i := range genes {
			p := &s.space.Params[i]
			if s.rng.IntN(2) == 0 {
				continue
			}
			if p.Kind == Categorical {
				genes[i] = b.genes[i]
				continue
			}
			lo, hi := p.bounds()
			genes[i], _ = sbx(s.rng, a.genes[i], b.genes[i], lo, hi, s.opts.CrossoverEta)
		}
	}
	for i := range genes {
		if s.rng.Float64() >= s.opts.MutationProb {
			continue
		}
		p := &s.space.Params[i]
		if p.Kind == Categorical {
			if k := len(p.Values); k > 1 {
				j := s.rng.IntN(k - 1)
				if j >= int(genes[i]) {
					j++
				}
				genes[i] = float64(j)
			}
			continue
		}
		lo, hi := p.bounds()
		genes[i] = polyMutate(s.rng, genes[i], lo, hi, s.opts.MutationEta)
	}
	return genes
}

// objectives returns t's objective vector, every objective minimised.
func (s *Study) objectives(t *Trial) []float64 {
	out := make([]float64, len(t.Values))
	for i, v := range t.Values {
		if s.opts.Objectives[i].Direction == frontier.Maximize {
			v = -v
		}
		out[i] = v
	}
	return out
}

// advance ends NSGA-II generations whose quota of complete trials is
// met: the parents and every complete trial not yet pooled compete, and
// the survivors become the next parents.
func (s *Study) advance() {
	for s.done >= s.opts.Population {
		pool := append(slices.Clone(s.parents), s.fresh...)
		for _, id := range s.fresh {
			s.trials[id].pooled = true
		}
		s.fresh = nil
		pop := s.individuals(pool)
		var next []int
		for _, i := range selectSurvivors(pop, len(s.opts.Objectives), s.opts.Population) {
			next = append(next, pool[i])
		}
		slices.Sort(next)
		s.parents = next
		s.gen++
		s.done = 0
		for i := range s.trials {
			if t := &s.trials[i]; t.State == Complete && t.Generation == s.gen {
				s.done++
			}
		}
		s.rankParents()
	}
}

func (s *Study) individuals(ids []int) []individual {
	pop := make([]individual, len(ids))
	for i, id := range ids {
		t := &s.trials[id]
		pop[i] = individual{id: id, obj: s.objectives(t), violation: t.Violation}
	}
	return pop
}

// rankParents caches the ranks and crowding distances of the parents.
func (s *Study) rankParents() {
	s.ranked = nil
	if len(s.parents) > 0 {
		r := rankPool(s.individuals(s.parents), len(s.opts.Objectives))
		s.ranked = &r
	}
}
