package report

import (
	"maps"
	"slices"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// Slimmer reduces the trials of a large study, as they are read, to what
// Build reads of them for one configuration and options without a
// baseline: the measurements of the plots' metrics, the parameters that
// make up a configuration (not the run's seed or date) and those a plot
// groups by, everything else as it is. Equal labels and equal parameters
// share one map. Build gives the same page for the slim trials as for the
// trials themselves (a baseline selects by any label or parameter:
// Build then needs the whole trials).
type Slimmer struct {
	cfg       *Config
	metrics   map[string]bool // of the plots
	keys      map[string]bool // parameters kept besides the configuration's
	explicit  bool            // only keys make up a configuration
	measured  map[string]bool // every metric of the trials seen
	lastLabel map[string]string
	params    map[string]map[string]string
	buf       []byte   // slimParams' scratch
	names     []string // slimParams' scratch
}

// NewSlimmer returns a Slimmer for cfg and opts (whose Baseline must be
// nil).
func NewSlimmer(cfg *Config, opts Options) *Slimmer {
	s := &Slimmer{cfg: cfg, metrics: map[string]bool{}, keys: map[string]bool{}, measured: map[string]bool{},
		params: map[string]map[string]string{}, explicit: len(opts.ConfigKeys) > 0}
	for _, k := range opts.ConfigKeys {
		s.keys[k] = true
	}
	for i := range cfg.Plots {
		p := &cfg.Plots[i]
		s.metrics[p.X.Metric], s.metrics[p.Y.Metric] = true, true
		for j := range p.SLOs {
			s.metrics[p.SLOs[j].Metric] = true
		}
		if p.GroupBy != "" {
			s.keys[p.GroupBy] = true
		}
	}
	return s
}

// Slim returns the slim copy of t.
func (s *Slimmer) Slim(t *trial.Trial) trial.Trial {
	out := *t
	for _, m := range t.Measurements {
		s.measured[m.Metric] = true
	}
	if s.resolves(t) {
		n := 0
		for _, m := range t.Measurements {
			if s.metrics[m.Metric] {
				n++
			}
		}
		out.Measurements = nil
		if n > 0 { // one allocation of the kept size
			out.Measurements = make([]trial.Measurement, 0, n)
			for _, m := range t.Measurements {
				if s.metrics[m.Metric] {
					out.Measurements = append(out.Measurements, m)
				}
			}
		}
	} // else the exclusion lists every measurement as a candidate
	if maps.Equal(t.Labels, s.lastLabel) && t.Labels != nil {
		out.Labels = s.lastLabel
	} else {
		s.lastLabel = t.Labels
	}
	out.Params = s.slimParams(t.Params)
	out.Warnings = nil // the page does not show them
	return out
}

// resolves reports whether every axis of every plot resolves on t.
func (s *Slimmer) resolves(t *trial.Trial) bool {
	for i := range s.cfg.Plots {
		p := &s.cfg.Plots[i]
		if _, err := resolve(&p.X, t); err != nil {
			return false
		}
		if _, err := resolve(&p.Y, t); err != nil {
			return false
		}
		for j := range p.SLOs {
			if _, err := resolve(&p.SLOs[j].Axis, t); err != nil {
				return false
			}
		}
	}
	return true
}

// slimParams keeps the configuration's parameters and the grouping keys,
// one shared map per distinct set.
func (s *Slimmer) slimParams(ps map[string]string) map[string]string {
	if len(ps) == 0 {
		return ps
	}
	keep := func(k string) bool { return s.keys[k] || !s.explicit && !repeat.IsRunParam(k) }
	names := s.names[:0]
	for k := range ps {
		if keep(k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	s.names = names
	b := s.buf[:0]
	for _, k := range names {
		b = append(append(b, k...), 0)
		b = append(append(b, ps[k]...), 0)
	}
	s.buf = b
	if m, ok := s.params[string(b)]; ok { // no allocation on a hit
		return m
	}
	m := make(map[string]string, len(names))
	for _, k := range names {
		m[k] = ps[k]
	}
	s.params[string(b)] = m
	return m
}

// Metrics returns every metric the trials seen measure, sorted (what
// Config.CheckMetrics checks against).
func (s *Slimmer) Metrics() []string {
	return slices.Sorted(maps.Keys(s.measured))
}
