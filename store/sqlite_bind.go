package store

import (
	"math"

	"github.com/ncruces/go-sqlite3"
)

// binder binds the parameters of a statement in order, keeping the first
// error.
type binder struct {
	st   *sqlite3.Stmt
	next int
	err  error
}

func (b *binder) int(v int64) {
	b.next++
	if b.err == nil {
		b.err = b.st.BindInt64(b.next, v)
	}
}

func (b *binder) text(v string) {
	b.next++
	if b.err == nil {
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
		b.err = b.st.BindBlob(b.next, v)
	}
}

// float binds v, NaN as NULL (see nullable).
func (b *binder) float(v float64) {
	b.next++
	if b.err != nil {
		return
	}
	if math.IsNaN(v) {
		b.err = b.st.BindNull(b.next)
	} else {
		b.err = b.st.BindFloat(b.next, v)
	}
}

// exec runs the statement once all its parameters are bound.
func (b *binder) exec() error {
	if b.err != nil {
		return b.err
	}
	b.next = 0
	return b.st.Exec()
}

// bindTrial binds the values of sqliteTrialColumns for p.
func bindTrial(b *binder, studyID int64, p *prepared, now string) {
	t := p.t
	w := &t.Workload
	e := env(t)
	b.int(studyID)
	b.text(p.id)
	b.text(t.Source.Path)
	b.text(t.Source.Format)
	b.text(t.Source.FormatVersion)
	b.int(int64(t.Source.Line))
	b.int(int64(t.Source.Index))
	b.text(p.labels)
	b.text(p.params)
	for _, v := range [...]float64{w.InputTokens, w.OutputTokens, w.MeanInputTokens, w.MeanOutputTokens,
		w.Concurrency, w.AchievedConcurrency, w.RequestRate, w.Users} {
		b.float(v)
	}
	b.int(w.Requests)
	b.int(t.Succeeded)
	b.int(t.Failed)
	b.text(t.Problem)
	b.text(encodeList(t.Warnings))
	for _, v := range e {
		b.text(v)
	}
	b.text(now)
	b.blob(p.packed)
	b.int(hashKey(p.id))
}
