package sqlite

import (
	"math"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/pareto-llm/pareto/store/internal/codec"
	"github.com/pareto-llm/pareto/trial"
)

// binder binds the parameters of a statement in order, keeping the first
// error.
type binder struct {
	st   *sqlite3.Stmt
	base int // parameters below base are bound once per statement
	next int
	err  error
	// memo, when not nil, holds what each parameter was last bound to
	// among NULL and integers (by parameter number), so that binding the
	// same again is skipped: bindings outlive the statement's reset, and
	// most columns of a row of a table (the empty ones, the origin) are
	// those of the row before. Each bind is a call into SQLite's
	// WebAssembly module.
	memo []bound
}

// bound is a binding that binder.memo remembers: an integer, or NULL.
type bound struct {
	null, set bool
	i         int64
}

// same reports whether the next parameter holds v already (NULL when
// null), and remembers v otherwise. A failed bind leaves b.err set and
// the statement unused.
func (b *binder) same(null bool, v int64) bool {
	if b.memo == nil {
		return false
	}
	for len(b.memo) <= b.next {
		b.memo = append(b.memo, bound{})
	}
	m := &b.memo[b.next]
	if m.set && m.null == null && m.i == v {
		return true
	}
	*m = bound{null: null, set: true, i: v}
	return false
}

// forget drops what memo holds of the next parameter (bound to something
// it does not remember).
func (b *binder) forget() {
	if b.next < len(b.memo) {
		b.memo[b.next] = bound{}
	}
}

func (b *binder) int(v int64) {
	b.next++
	if b.err == nil && !b.same(false, v) {
		b.err = b.st.BindInt64(b.next, v)
	}
}

// null binds NULL.
func (b *binder) null() error {
	if b.same(true, 0) {
		return nil
	}
	return b.st.BindNull(b.next)
}

// text binds v, an empty one as NULL: the statements that take text
// through a binder read it as ifnull(?, ”), which spares SQLite an
// allocation per empty string.
func (b *binder) text(v string) {
	b.next++
	if b.err != nil {
		return
	}
	if v == "" {
		b.err = b.null()
	} else {
		b.forget()
		b.err = b.st.BindText(b.next, v)
	}
}

// blob binds v, an empty one as a zero-length blob (not NULL).
func (b *binder) blob(v []byte) {
	b.next++
	if b.err == nil {
		if v == nil {
			v = []byte{}
		}
		b.forget()
		b.err = b.st.BindBlob(b.next, v)
	}
}

// float binds v, NaN as NULL (see nullable).
func (b *binder) float(v float64) {
	b.next++
	if b.err != nil {
		return
	}
	switch {
	case math.IsNaN(v):
		b.err = b.null()
	case v == 0 && !math.Signbit(v):
		if !b.same(false, 0) { // the NUMERIC column keeps 0.0 as 0 all the same
			b.err = b.st.BindInt64(b.next, 0)
		}
	default:
		b.forget()
		b.err = b.st.BindFloat(b.next, v)
	}
}

// exec runs the statement once all its parameters are bound.
func (b *binder) exec() error {
	if b.err != nil {
		return b.err
	}
	b.next = b.base
	return b.st.Exec()
}

// sqliteTrialColumns are the columns the SQLite store writes in trials,
// in the order of bindTrial, with the kind of their parameter: 's' for
// the study id (bound once per statement as ?1), 't' for text (see
// binder.text), '-' for others.
var sqliteTrialColumns = []struct {
	name string
	kind byte
}{
	{"study_id", 's'}, {"id", '-'}, {"hash", 't'}, {"hkey", '-'},
	{"origin_id", '-'}, {"source_line", '-'}, {"source_index", '-'},
	{"labels", 't'}, {"params", 't'}, {"param_refs", '-'}, {"input_tokens", '-'}, {"output_tokens", '-'}, {"mean_input_tokens", '-'},
	{"mean_output_tokens", '-'}, {"concurrency", '-'}, {"achieved_concurrency", '-'}, {"request_rate", '-'}, {"users", '-'},
	{"requests", '-'}, {"succeeded", '-'}, {"failed", '-'}, {"problem", 't'}, {"warnings", 't'},
	{"engine", 't'}, {"engine_version", 't'}, {"cuda", 't'}, {"driver", 't'}, {"gpu", 't'}, {"host", 't'},
	{"measurements", '-'}, {"layout", 't'}, {"allocated_gpus", '-'}, {"allocated_gpus_unknown", 't'},
	{"serving_gpus", '-'}, {"serving_gpus_unknown", 't'}, {"config_path", 't'}, {"config", '-'},
	{"content_id", 't'}, {"checksum", '-'},
}

// trialInsert inserts one trial: the study id is ?1, the values of
// bindTrial follow.
var trialInsert = func() string {
	var sb strings.Builder
	sb.WriteString("INSERT OR FAIL INTO trials (")
	for i, c := range sqliteTrialColumns {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(c.name)
	}
	sb.WriteString(") VALUES (")
	k := 1
	for i, c := range sqliteTrialColumns {
		if i > 0 {
			sb.WriteByte(',')
		}
		switch c.kind {
		case 's':
			sb.WriteString("?1")
		case 't':
			k++
			sb.WriteString("ifnull(?" + codec.Itoa(k) + ",'')")
		default:
			k++
			sb.WriteString("?" + codec.Itoa(k))
		}
	}
	sb.WriteByte(')')
	return sb.String()
}()

// bindTrial binds the per-trial values of sqliteTrialColumns for p,
// stored under row id with its origin. Empty labels, params and warnings
// are stored as the empty string.
func bindTrial(b *binder, id, origin int64, p *codec.Prepared) {
	t := p.Trial
	w := &t.Workload
	e := codec.Env(t)
	b.int(id)
	b.text(p.ID)
	b.int(codec.HashKey(p.ID))
	b.int(origin)
	b.int(int64(t.Source.Line))
	b.int(int64(t.Source.Index))
	b.text(emptyJSON(p.Labels))
	b.text(emptyJSON(p.Params))
	b.int(p.ParamRefs)
	for _, v := range [...]float64{w.InputTokens, w.OutputTokens, w.MeanInputTokens, w.MeanOutputTokens,
		w.Concurrency, w.AchievedConcurrency, w.RequestRate, w.Users} {
		b.float(v)
	}
	b.int(w.Requests)
	b.int(t.Succeeded)
	b.int(t.Failed)
	b.text(t.Problem)
	b.text(emptyJSON(p.Warnings))
	for _, v := range e {
		b.text(v)
	}
	b.blob(p.Packed)
	var dep trial.Deployment
	if t.Deployment != nil {
		dep = *t.Deployment
	}
	b.text(p.Layout)
	b.int(int64(dep.AllocatedGPUs))
	b.text(dep.AllocatedGPUsUnknown)
	b.int(int64(dep.ServingGPUs))
	b.text(dep.ServingGPUsUnknown)
	b.text(dep.ConfigPath)
	b.blob([]byte(dep.Config))
	b.text(p.ContentID)
	b.int(p.Checksum)
}

// emptyJSON returns "" for an empty JSON object or list, else s: reads
// decode the empty string as empty.
func emptyJSON(s string) string {
	if s == "{}" || s == "[]" {
		return ""
	}
	return s
}
