package query

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// AddTrials appends trials as rows, resolving each objective and SLO
// selector; a trial whose selector matches no measurement, or several, is
// rejected with the reason and the candidates. A trial is named by the
// query's ID label or parameter, its "id" label (a table row's id), its
// CloudAI point, else its file (with the line or index when the file holds
// several trials).
func (d *Rows) AddTrials(ts []trial.Trial) {
	q := d.q
	objSel := selectors(q.Objectives)
	sloSel := make([]selectorOrErr, len(q.SLOs))
	for i, s := range q.SLOs {
		sloSel[i] = parseSel(s.Name)
	}
	perFile := map[string]int{}
	for i := range ts {
		perFile[ts[i].Source.Path]++
	}
	seen := d.seenIDs()
	for i := range ts {
		t := &ts[i]
		row := int32(len(d.ids))
		d.ids = append(d.ids, uniqueID(d.displayID(t, q.ID, perFile[t.Source.Path] > 1), seen))
		d.setTrial(row, t)
		if t.Source.Format == formatTable {
			d.tableValues(row, t)
		}
		for c, sel := range objSel {
			d.values[c] = append(d.values[c], d.resolve(row, t, sel))
		}
		for c, sel := range sloSel {
			d.slo[c] = append(d.slo[c], d.resolve(row, t, sel))
		}
		if q.GroupBy != "" {
			d.group = append(d.group, groupOf(t, q.GroupBy))
		}
	}
}

// formatTable is the trial.Source.Format of a generic table's row
// (ingest.FormatTable).
const formatTable = "table"

// tableValues rejects the table row row (trial t) whose objective or SLO
// column holds a NaN or an infinity (no measurement in the trial) or a
// negative latency, throughput or count, with the reasons AddTable gives.
func (d *Rows) tableValues(row int32, t *trial.Trial) {
	check := func(name string) {
		v, err := strconv.ParseFloat(strings.TrimSpace(t.Params[name]), 64)
		if err != nil {
			return
		}
		pos := fmt.Sprintf("%s:%d", t.Source.Path, t.Source.Line)
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			d.reject(row, name+": value is "+strconv.FormatFloat(v, 'g', -1, 64))
		case v < 0 && trial.NonNegativeColumn(name):
			d.reject(row, negativeReason(pos, name, v))
		}
	}
	for _, obj := range d.q.Objectives {
		check(obj.Name)
	}
	for _, s := range d.q.SLOs {
		check(s.Name)
	}
}

// TrialStream appends trials handed over in batches (a store's Scan) as
// rows, as one AddTrials call over all of them would, but keeps none of
// them: a row keeps its values, its repeat key, computed as the trial is
// added, and what names it. Rows of a stream have no trial (Result.Trial
// is nil), so a query with a baseline, which selects by label or
// parameter, cannot use it (Streamable).
type TrialStream struct {
	d              *Rows
	objSel, sloSel []selectorOrErr
	first          int32
	names          []pendingName
	files          []streamFile     // the files the rows come from
	fileIndex      map[string]int32 // a file's place in files
	fixed          map[int32]string // names that do not depend on the file (fixedID), by row of the stream
	scratch        trial.Trial      // what names a sketched row (AddSketch)
}

// pendingName is what names a streamed row once every row is known (a
// file holding several trials names each by its line or index): its file
// (a place in TrialStream.files), line and index.
type pendingName struct {
	file, line, index int32
}

// streamFile is a file streamed rows come from and how many rows it gave.
type streamFile struct {
	path string
	rows int
}

const (
	noKey    = ""     // the row repeats no other row
	notKeyed = "\x01" // the row's key comes from its trial
)

// Streamable reports whether q's rows can be streamed (TrialStream):
// without a baseline, no answer needs the trials themselves.
func (q *Query) Streamable() bool { return q.Baseline == "" }

// StreamTrials starts a stream of trials; call Done after the last batch.
// The streamed rows are in Len once Done has named them.
func (d *Rows) StreamTrials() *TrialStream {
	for len(d.keys) < len(d.ids) {
		d.keys = append(d.keys, notKeyed)
	}
	sloSel := make([]selectorOrErr, len(d.q.SLOs))
	for i, s := range d.q.SLOs {
		sloSel[i] = parseSel(s.Name)
	}
	return &TrialStream{d: d, objSel: selectors(d.q.Objectives), sloSel: sloSel, first: int32(len(d.ids)), fileIndex: map[string]int32{}}
}

// Add appends a batch of trials; the stream keeps none of them.
func (s *TrialStream) Add(ts []trial.Trial) {
	for i := range ts {
		s.AddTrial(&ts[i])
	}
}

// AddTrial appends one trial, as Add does a batch; the stream keeps none
// of it.
func (s *TrialStream) AddTrial(t *trial.Trial) {
	d, q := s.d, s.d.q
	row := s.first + int32(len(s.names)) // named, and so counted in d.ids, by Done
	if t.Source.Format == formatTable {
		d.tableValues(row, t)
	}
	for c, sel := range s.objSel {
		d.values[c] = append(d.values[c], d.resolve(row, t, sel))
	}
	for c, sel := range s.sloSel {
		d.slo[c] = append(d.slo[c], d.resolve(row, t, sel))
	}
	if q.GroupBy != "" {
		d.group = append(d.group, groupOf(t, q.GroupBy))
	}
	key := noKey
	if q.Aggregate != repeat.None {
		if k, ok := d.keyMemo.Key(t, q.ConfigKeys); ok {
			key = k
		}
	}
	d.keys = append(d.keys, key)
	name, fixed := d.fixedID(t, q.ID)
	s.addName(t.Source.Path, t.Source.Line, t.Source.Index, name, fixed)
}

// Grow makes room for n more rows (a hint: 0 when unknown).
func (s *TrialStream) Grow(n int) {
	d := s.d
	d.keys = slices.Grow(d.keys, n) // ids are added by Done, at their length
	for c := range d.values {
		d.values[c] = slices.Grow(d.values[c], n)
	}
	for c := range d.slo {
		d.slo[c] = slices.Grow(d.slo[c], n)
	}
	s.names = slices.Grow(s.names, n)
}

// AddSketch appends a trial read column by column (a store's Columns) as
// Add would append the trial itself: its sketch (repeat key and what names
// it), its value of every objective then every SLO, and its Problem when
// it is unusable. The stored trial ID names nothing (rows are named by
// their source, as Add names them). It is for a query whose objectives and
// SLOs name stored columns exactly, with no value missing but those of
// unusable trials, that keys repeats by the default configuration keys,
// names rows by no label or parameter (ID) and groups by nothing
// (Sketchable). The stream keeps none of values.
func (s *TrialStream) AddSketch(_ string, k *trial.Sketch, problem string, values []float64) {
	d, q := s.d, s.d.q
	nObj := len(d.values)
	row := s.first + int32(len(s.names)) // named, and so counted in d.ids, by Done
	for c, v := range values {
		if c < nObj {
			d.values[c] = append(d.values[c], v)
		} else {
			d.slo[c-nObj] = append(d.slo[c-nObj], v)
		}
	}
	t := &s.scratch // what names a row, and rejects an unusable one
	t.Problem = problem
	if t.Problem != "" { // rejected as resolve rejects it
		for _, sel := range s.objSel {
			d.resolve(row, t, sel)
		}
		for _, sel := range s.sloSel {
			d.resolve(row, t, sel)
		}
	}
	key := noKey
	if q.Aggregate != repeat.None && k.Key != "" {
		key = k.Key
	}
	d.keys = append(d.keys, key)
	t.Source = trial.Source{Path: k.Path, Format: k.Format, Line: k.Line, Index: k.Index}
	t.Labels = k.Labels
	name, fixed := d.fixedID(t, q.ID)
	s.addName(k.Path, k.Line, k.Index, name, fixed)
}

// Sketchable reports whether q's rows can be added from sketches
// (TrialStream.AddSketch): q keys repeats by the default configuration
// keys, names rows by no label or parameter, groups by nothing and has no
// baseline.
func (q *Query) Sketchable() bool {
	return q.Streamable() && len(q.ConfigKeys) == 0 && q.ID == "" && q.GroupBy == ""
}

// Done names the streamed rows, as AddTrials names its trials. Rows of
// one file named by their lines (or indexes) alone, before any other name,
// are unique without a count of every name: the count (seenIDs) is then
// only made if a later row needs it.
func (s *TrialStream) Done() {
	d := s.d
	if len(d.seen) == 0 && d.unseen == nil && s.distinctNames() {
		d.ids = slices.Grow(d.ids, len(s.names))
		for _, n := range s.names {
			d.ids = append(d.ids, s.fileName(n))
		}
		d.unseen = d.ids[s.first:len(d.ids):len(d.ids)]
		s.names, s.files, s.fileIndex, s.fixed = nil, nil, nil, nil
		return
	}
	seen := d.seenIDs()
	d.ids = slices.Grow(d.ids, len(s.names))
	for i, n := range s.names {
		name, ok := s.fixed[int32(i)]
		if !ok {
			name = s.fileName(n)
		}
		d.ids = append(d.ids, uniqueID(name, seen))
	}
	s.names, s.files, s.fileIndex, s.fixed = nil, nil, nil, nil
}

// addName notes what names the next row: its file, line and index, and
// its name when fixed (fixedID). Every row counts in its file's rows, as
// AddTrials counts them.
func (s *TrialStream) addName(path string, line, index int, name string, fixed bool) {
	f := int32(len(s.files) - 1)
	if f < 0 || s.files[f].path != path {
		var ok bool
		if f, ok = s.fileIndex[path]; !ok {
			f = int32(len(s.files))
			s.fileIndex[path] = f
			s.files = append(s.files, streamFile{path: path})
		}
	}
	s.files[f].rows++
	if fixed {
		if s.fixed == nil {
			s.fixed = map[int32]string{}
		}
		s.fixed[int32(len(s.names))] = name
	}
	s.names = append(s.names, pendingName{file: f, line: int32(line), index: int32(index)})
}

// fileName is the name of a row named by its file (fileID).
func (s *TrialStream) fileName(n pendingName) string {
	f := s.files[n.file]
	return fileID(f.path, int(n.line), int(n.index), f.rows > 1)
}

// distinctNames reports whether the streamed rows' names are distinct by
// construction: every row is named by its file, one file for them all,
// with lines (and indexes of rows without a line) rising.
func (s *TrialStream) distinctNames() bool {
	if len(s.files) != 1 || len(s.fixed) > 0 {
		return false
	}
	prevLine, prevIndex := int32(0), int32(-1)
	for _, n := range s.names {
		switch {
		case n.line > 0:
			if n.line <= prevLine {
				return false
			}
			prevLine = n.line
		default:
			if n.index <= prevIndex {
				return false
			}
			prevIndex = n.index
		}
	}
	return true
}

// seenIDs returns the count of the display ids given so far (uniqueID),
// first counting the streamed rows Done named without it.
func (d *Rows) seenIDs() map[string]int {
	if d.unseen != nil {
		for _, id := range d.unseen {
			d.seen[id]++
		}
		d.unseen = nil
	}
	return d.seen
}

type selectorOrErr struct {
	sel trial.Selector
	res *trial.Resolver // sel prepared for many trials (nil with err)
	err error
}

func parseSel(name string) selectorOrErr {
	sel, err := trial.ParseSelector(name)
	if err != nil {
		return selectorOrErr{sel: sel, err: err}
	}
	return selectorOrErr{sel: sel, res: trial.NewResolver(sel)}
}

func selectors(objs []frontier.Objective) []selectorOrErr {
	out := make([]selectorOrErr, len(objs))
	for i, o := range objs {
		out[i] = parseSel(o.Name)
	}
	return out
}

// resolve returns the selector's value in t, or Missing after recording
// why the row is rejected.
func (d *Rows) resolve(row int32, t *trial.Trial, s selectorOrErr) float64 {
	if s.err != nil {
		d.reject(row, s.err.Error())
		return frontier.Missing
	}
	m, err := s.res.Resolve(t)
	if err == nil {
		return m.Value
	}
	var re *trial.ResolveError
	if errors.As(err, &re) {
		d.reject(row, resolveReason(s.sel, re))
	} else {
		d.reject(row, err.Error())
	}
	return frontier.Missing
}

func (d *Rows) reject(row int32, why string) {
	if _, dup := d.rejected[row]; !dup {
		d.rejected[row] = why
	}
}

// displayID names a trial for people: the CloudAI point, else the file
// (with the line or index when a file holds several trials).
func (d *Rows) displayID(t *trial.Trial, idKey string, several bool) string {
	if name, ok := d.fixedID(t, idKey); ok {
		return name
	}
	return fileID(t.Source.Path, t.Source.Line, t.Source.Index, several)
}

// fixedID is displayID of a trial named by a label, a parameter or its
// table row: a name that does not depend on the other trials of its file.
func (d *Rows) fixedID(t *trial.Trial, idKey string) (string, bool) {
	if idKey != "" {
		if v, ok := t.Labels[idKey]; ok && v != "" {
			return v, true
		}
		if v, ok := t.Params[idKey]; ok && v != "" {
			return v, true
		}
	}
	if r := t.Labels["id"]; r != "" {
		return r, true
	}
	if r := t.Labels["run"]; r != "" {
		return r, true
	}
	if t.Source.Format == "table" { // as AddTable names a row without an id
		row := strconv.Itoa(t.Source.Index + 1)
		if d.several {
			return t.Source.Path + ":" + row, true
		}
		return row, true
	}
	return "", false
}

// fileID names a trial by its file, and by its line or index there when
// the file holds several trials.
func fileID(path string, line, index int, several bool) string {
	if !several {
		return path
	}
	sep, n := byte(':'), line
	if line <= 0 {
		sep, n = '#', index
	}
	var digits [20]byte // the name is one allocation of its own length
	num := strconv.AppendInt(digits[:0], int64(n), 10)
	var b strings.Builder
	b.Grow(len(path) + 1 + len(num))
	b.WriteString(path)
	b.WriteByte(sep)
	b.Write(num)
	return b.String()
}

// uniqueID suffixes repeated ids with ~2, ~3, ...
func uniqueID(id string, seen map[string]int) string {
	seen[id]++
	if n := seen[id]; n > 1 {
		return id + "~" + strconv.Itoa(n)
	}
	return id
}

// groupOf returns a trial's label, else its parameter, named key.
func groupOf(t *trial.Trial, key string) string {
	if v, ok := t.Labels[key]; ok {
		return v
	}
	return t.Params[key]
}

// AddColumns appends rows read column by column (a store's Columns): ids,
// one column per objective then per SLO, and why a row is unusable.
func (d *Rows) AddColumns(ids []string, cols [][]float64, problems map[int]string) {
	base := int32(len(d.ids))
	nObj := len(d.values)
	d.ids = append(d.ids, ids...)
	for k, col := range cols {
		if k < nObj {
			d.values[k] = append(d.values[k], col...)
		} else {
			d.slo[k-nObj] = append(d.slo[k-nObj], col...)
		}
	}
	for i, why := range problems {
		d.reject(base+int32(i), "unusable ("+why+")")
	}
}

// AddValues appends one row whose objective and SLO values the caller
// resolved itself (the report resolves axes in a point's context), named
// id; reject, when not empty, says why the row cannot be compared.
func (d *Rows) AddValues(t *trial.Trial, id string, values, slo []float64, reject string) {
	row := int32(len(d.ids))
	d.ids = append(d.ids, uniqueID(id, d.seenIDs()))
	d.setTrial(row, t)
	for c := range d.values {
		d.values[c] = append(d.values[c], values[c])
	}
	for c := range d.slo {
		d.slo[c] = append(d.slo[c], slo[c])
	}
	if d.q.GroupBy != "" {
		g := ""
		if t != nil {
			g = groupOf(t, d.q.GroupBy)
		}
		d.group = append(d.group, g)
	}
	if reject != "" {
		d.reject(row, reject)
	}
}

// AddValuesKey is AddValues of a row whose repeat key the caller computed
// (repeat.RepeatKey; "" for a row that repeats no other): t may then be nil,
// and the row still joins its repeats.
func (d *Rows) AddValuesKey(t *trial.Trial, id, key string, values, slo []float64, reject string) {
	for len(d.keys) < len(d.ids) {
		d.keys = append(d.keys, notKeyed)
	}
	d.AddValues(t, id, values, slo, reject)
	d.keys = append(d.keys, key)
}

// resolveReason is the one-line reason a selector yields no value for a
// trial: the measurements it could mean when the trial has its metric
// (with other dimensions, or several that match), else that the trial
// measures no such metric, with the names alike when there are some.
func resolveReason(sel trial.Selector, re *trial.ResolveError) string {
	msg := re.Selector + ": " + re.Reason
	if re.Detail != "" {
		msg += " (" + re.Detail + ")"
	}
	if len(re.Candidates) == 0 {
		return msg
	}
	if re.Reason != trial.ReasonMissing || slices.ContainsFunc(re.Candidates, func(c string) bool {
		return sameMetric(c, sel.Metric) || sameMetric(c, sel.Name)
	}) {
		return msg + "; candidates: " + strings.Join(re.Candidates, ", ")
	}
	msg += "; the trial measures no " + sel.Metric
	var alike []string
	for _, c := range re.Candidates {
		if len(alike) < 3 && namedAlike(c, sel.Metric) {
			alike = append(alike, c)
		}
	}
	if len(alike) > 0 {
		msg += " (alike: " + strings.Join(alike, ", ") + ")"
	}
	return msg
}

// sameMetric reports whether the selector text c names metric, with or
// without a statistic or dimensions.
func sameMetric(c, metric string) bool {
	rest, ok := strings.CutPrefix(c, metric)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '{')
}

// namedAlike reports whether the metric name c looks like a misspelling
// or a part of want (or want of c): one holds the other, or they are a
// few edits apart.
func namedAlike(c, want string) bool {
	if strings.HasPrefix(c, "… ") {
		return false
	}
	if min(len(c), len(want)) >= 3 && (strings.Contains(c, want) || strings.Contains(want, c)) {
		return true
	}
	return editDistance(c, want) <= max(1, len(want)/4)
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
