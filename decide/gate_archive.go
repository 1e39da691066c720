package decide

import (
	"context"
	"fmt"
	"slices"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// Selector reads a study's trials: the read half of Store, all that
// RunArchive needs (store.ReaderSelecting provides it on a read-only
// store).
type Selector interface {
	// Select returns the study's trials that satisfy every condition of
	// where, in ingest order. A study that does not exist is an error.
	Select(ctx context.Context, study string, where []trial.Condition) ([]trial.Trial, error)
}

// ArchiveMember is one configuration of a study's archive: the trials
// RunGate labelled AdmittedLabel=AdmittedValue, grouped by configuration.
type ArchiveMember struct {
	// Key is the configuration, "key:HEX", as verdicts name members.
	Key   string       `json:"key"`
	Scope repeat.Scope `json:"scope"`
	// Params is the configuration (that of its first admitted run).
	Params map[string]string `json:"params"`
	// Workloads are those its admitted runs were measured on, sorted.
	Workloads []string `json:"workloads"`
	// Trials are the IDs of its admitted runs, sorted; Sessions the
	// sessions they were recorded in, sorted.
	Trials   []string `json:"trials"`
	Sessions []string `json:"sessions"`
}

// RunArchive lists the archive of the study (its trials filtered by
// where), one member per configuration (keys as in GateRequest), in the
// order the members were first admitted.
func RunArchive(ctx context.Context, st Selector, study string, where []trial.Condition, keys []string) ([]ArchiveMember, error) {
	ts, err := st.Select(ctx, study, append(slices.Clip(where), trial.Condition{Key: AdmittedLabel, Op: trial.OpEq, Value: AdmittedValue}))
	if err != nil {
		return nil, fmt.Errorf("reading study %q: %w", study, err)
	}
	out := []ArchiveMember{}
	for _, arm := range Arms(groupPtrs(repeat.GroupRepeats(ts, keys))) {
		m := ArchiveMember{Key: arm.Name, Scope: arm.Scope, Params: arm.Groups[0].Params(keys),
			Workloads: []string{}, Trials: arm.IDs(), Sessions: []string{}}
		for _, g := range arm.Groups {
			m.Workloads = append(m.Workloads, g.Workload.String())
			for _, t := range g.Trials {
				m.Sessions = append(m.Sessions, t.Source.Session)
			}
		}
		slices.Sort(m.Workloads)
		slices.Sort(m.Trials)
		slices.Sort(m.Sessions)
		m.Sessions = slices.Compact(m.Sessions)
		out = append(out, m)
	}
	return out, nil
}

// Revoke removes from the archive the members that sel selects (key:HEX,
// say): their trials lose AdmittedLabel, so later gates no longer compare
// with them; the runs stay stored. It returns the members revoked; a
// selection that matches no member is an error.
func Revoke(ctx context.Context, st Store, study string, where []trial.Condition, keys []string, sel repeat.Selection) ([]ArchiveMember, error) {
	members, err := RunArchive(ctx, st, study, where, keys)
	if err != nil {
		return nil, err
	}
	ts, err := st.Select(ctx, study, append(slices.Clip(where), trial.Condition{Key: AdmittedLabel, Op: trial.OpEq, Value: AdmittedValue}))
	if err != nil {
		return nil, fmt.Errorf("reading study %q: %w", study, err)
	}
	configs := map[string]bool{}
	for _, g := range repeat.Select(repeat.GroupRepeats(ts, keys), sel) {
		configs["key:"+g.Config] = true
	}
	var out []ArchiveMember
	var ids []string
	for _, m := range members {
		if configs[m.Key] {
			out = append(out, m)
			ids = append(ids, m.Trials...)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q selects no archive member of study %q", sel.Raw, study)
	}
	if _, err := st.SetLabels(ctx, study, ids, map[string]string{AdmittedLabel: ""}); err != nil {
		return nil, fmt.Errorf("revoking: %w", err)
	}
	return out, nil
}
