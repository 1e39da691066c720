package ingest

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pareto-llm/pareto/internal/safe"
	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/table"
	"github.com/pareto-llm/pareto/trial"
)

// FormatTable is the trial.Source.Format of a row of a generic CSV or
// JSONL table (the user's own harness output); FormatVersion is "csv",
// "jsonl" or "json" (an array of objects).
const FormatTable = "table"

// LabelID is the label that holds a table row's id column (see
// TableOptions.ID); commands name the trial by it.
const LabelID = "id"

// TableOptions says how the rows of a generic table become trials.
type TableOptions struct {
	// ID names the column that identifies a row (its value becomes the
	// label "id", not a parameter). Empty means "id" when the table has
	// such a column.
	ID string
	// Rows, when set, says which rows of the table at path become trials
	// (row is 0-based): the others are read but converted to no trial,
	// and the checks of a row's cells (a numeric cell, the length bounds)
	// apply to the rows kept. A reader that already knows which rows it
	// needs (pareto report's second pass over a table it recorded column
	// by column) then pays for those alone.
	Rows func(path string, row int) bool
	// key is the file's trial.Source.Key (set by Load).
	key string
}

// tableWorkload maps table columns to the trial's workload: rows at
// different loads of one configuration are different points, and
// baselines are compared at the same load.
var tableWorkload = map[string]func(*trial.Workload, float64){
	"concurrency":     func(w *trial.Workload, v float64) { w.Concurrency = v },
	"max_concurrency": func(w *trial.Workload, v float64) { w.Concurrency = v },
	"request_rate":    func(w *trial.Workload, v float64) { w.RequestRate = v },
	"input_tokens":    func(w *trial.Workload, v float64) { w.InputTokens = v },
	"output_tokens":   func(w *trial.Workload, v float64) { w.OutputTokens = v },
}

// ReadTable reads a generic CSV (header row) or JSONL (one object per
// line, as Python's json.dumps writes them) table into one trial per row:
// every column but the id column is a parameter holding the cell as
// written, and every cell that is a finite number is also a measurement
// named by its column (so selectors and objectives name columns). Empty
// cells are neither. The columns concurrency, max_concurrency,
// request_rate, input_tokens and output_tokens also set the workload (a
// request_rate of "inf" or "Infinity", unbounded, is +Inf there and no
// measurement).
// Errors are *table.SyntaxError values naming the file, line and column.
func ReadTable(data []byte, name string, opts TableOptions) ([]trial.Trial, error) {
	return readTable(data, name, opts, Limits{})
}

// readTable is ReadTable within lim; a panic while reading becomes a
// *safe.InternalError.
func readTable(data []byte, name string, opts TableOptions, lim Limits) (out []trial.Trial, err error) {
	defer safe.Recover(&err, "reading", name)
	if panicHook != nil {
		panicHook(name)
	}
	out, err = readTableRows(data, name, opts, lim)
	if err == nil {
		err = checkTrials(out, name, data, nil)
	}
	return out, err
}

// notTable says why data, which starts with '[' or '{', is no generic
// table ("" when it may be one): a JSON array, or one JSON document
// across several lines (pretty-printed), is a document, not JSONL.
func notTable(data []byte) string {
	t := bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf")
	if len(t) == 0 {
		return ""
	}
	const why = ": no benchmark result pareto reads, and no generic table (a CSV with a header row, or JSONL with one object per line)"
	switch t[0] {
	case '[':
		return "a JSON array" + why
	case '{':
		line, _, _ := bytes.Cut(t, []byte("\n"))
		if !jsontext.Value(bytes.TrimSpace(line)).IsValid() && jsontext.Value(bytes.TrimSpace(t)).IsValid() {
			return "a JSON document of several lines" + why
		}
	}
	return ""
}

func readTableRows(data []byte, name string, opts TableOptions, lim Limits) ([]trial.Trial, error) {
	if what := notTable(data); what != "" {
		return nil, &NotResultError{Path: name, What: what}
	}
	max := lim.maxRecord()
	orig := data
	var lits *literals
	if t := bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf"); len(t) > 0 && t[0] == '{' && needsRewrite(data) {
		// JSONL as Python's json.dumps writes it: bare Infinity and NaN
		// become the strings "Infini" and "N" (same lengths, so positions
		// hold), and their cells are taken back as written (literalCells)
		data = bytes.Clone(data)
		rw := new(nanRewriter)
		rw.rewrite(data, true)
		if rw.lits.any() {
			lits = &rw.lits
		}
	}
	head, err := table.ReadBytes(data, name, table.Spec{MaxRecordSize: max, MaxColumns: lim.maxColumns()})
	if err != nil {
		return nil, err
	}
	if len(head.Columns) == 0 {
		return nil, &table.SyntaxError{File: name, Line: 1, Col: 1, Msg: "no columns"}
	}
	idCol := opts.ID
	if idCol == "" && slices.Contains(head.Columns, LabelID) {
		idCol = LabelID
	}
	if idCol != "" && !slices.Contains(head.Columns, idCol) {
		return nil, &table.SyntaxError{File: name, Line: 1, Col: 1,
			Msg: fmt.Sprintf("no id column %s (have: %s)", textin.Excerpt(idCol), textin.Names(head.Columns))}
	}
	t, err := table.ReadBytes(data, name, table.Spec{OptionalText: head.Columns, MaxRecordSize: max, MaxColumns: lim.maxColumns()})
	if err != nil {
		return nil, err
	}
	if t.Len() == 0 {
		return nil, &table.SyntaxError{File: name, Line: 2, Col: 1, Msg: "the table has a header but no rows"}
	}
	var asWritten map[int32]map[string]string
	if lits != nil {
		if asWritten, err = literalCells(orig, data, lits, name); err != nil {
			return nil, err
		}
	}
	kept := t.Len()
	if opts.Rows != nil {
		kept = 0
		for r := range t.Len() {
			if opts.Rows(name, r) {
				kept++
			}
		}
	}
	out := make([]trial.Trial, 0, kept)
	numeric := make([]bool, 0, kept) // the row has a numeric cell (NaN and ±Inf too: the front says why they are invalid)
	for r := range t.Len() {
		if opts.Rows != nil && !opts.Rows(name, r) {
			continue
		}
		out, numeric = append(out, trial.Trial{}), append(numeric, false)
		tr, k := &out[len(out)-1], len(out)-1
		tr.Source = trial.Source{Path: name, Key: opts.key, Format: FormatTable, FormatVersion: t.Format, Line: int(t.Lines[r]), Index: r}
		tr.Failed = -1
		// Every cell may become a parameter: a map of that size, not
		// SetParam's default (16), which at 10⁶ rows is a gigabyte.
		tr.Params = make(map[string]string, len(head.Columns))
		fixed := asWritten[t.Lines[r]]
		for c, col := range head.Columns {
			if t.Text[c] == nil {
				continue
			}
			cell := strings.TrimSpace(t.Text[c][r])
			if s, ok := fixed[col]; ok {
				cell = s
			}
			if cell == "" {
				continue
			}
			if col == idCol {
				tr.SetLabel(LabelID, cell)
				continue
			}
			v, err := strconv.ParseFloat(cell, 64) // a bare Infinity, -Infinity or NaN too
			ok := err == nil
			tr.SetParam(col, cell)
			if tr.Params[col] == trial.Redacted {
				continue // a secret column is no measurement
			}
			if !ok {
				continue
			}
			numeric[k] = true
			if math.IsNaN(v) {
				continue
			}
			if math.IsInf(v, 0) {
				// no measurement, but an unbounded load setting: request_rate
				// "inf" is +Inf, as every reader gives it
				if col == "request_rate" && v > 0 {
					tr.Workload.RequestRate = v
				}
				continue
			}
			tr.Measurements = append(tr.Measurements, trial.Measurement{Metric: col, Value: v, Native: col})
			if set := tableWorkload[col]; set != nil {
				set(&tr.Workload, v)
			}
		}
		if tr.Measurements == nil {
			tr.Measurements = []trial.Measurement{}
		}
		tr.Finalize()
	}
	if err := measuredRows(out, numeric, name); err != nil {
		return nil, err
	}
	if cols := onlySettings(out); cols != nil {
		return nil, &NotResultError{Path: name, What: fmt.Sprintf("a list of runs' load settings (%s) and no measurement: "+
			"a harness's own index of its runs, not a benchmark result", strings.Join(cols, ", "))}
	}
	return out, nil
}

// literalCells returns, by line, the cells of a JSONL table that the
// tolerant pre-pass rewrote from orig into data (at lits) as orig writes
// them: a member whose value is a bare Infinity, -Infinity or NaN is that
// text (which strconv.ParseFloat reads as ±Inf and NaN), one whose object
// or array holds one is its text as written. A genuine string "N" or
// "Infini" is no literal and stays as the table read it. A literal where
// a member name is expected is an error at its position, as it is no JSON.
// A member's last value counts, as in the table.
func literalCells(orig, data []byte, lits *literals, name string) (map[int32]map[string]string, error) {
	cells := map[int32]map[string]string{}
	line, from := int32(1), 0 // the line that starts at data[from]
	for i := 0; i < len(lits.at); {
		off := int(lits.at[i])
		start := bytes.LastIndexByte(data[:off], '\n') + 1
		end := len(data)
		if k := bytes.IndexByte(data[off:], '\n'); k >= 0 {
			end = off + k
		}
		line += int32(bytes.Count(data[from:start], []byte{'\n'}))
		from = start
		n, _ := slices.BinarySearch(lits.at, int64(end))
		at := lits.at[i:n] // the literals of this line
		i = n
		// holds reports whether data[a:b] (offsets in the line) holds one of at
		holds := func(a, b int64) bool {
			k, _ := slices.BinarySearch(at, int64(start)+a)
			return k < len(at) && at[k] < int64(start)+b
		}
		d := jsontext.NewDecoder(bytes.NewReader(data[start:end]), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
		if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
			continue // no object: the table said so, or its cells are no members
		}
		nameError := func(a int64, body string) error {
			lit, _ := lits.literal(int64(start)+a, body)
			return &table.SyntaxError{File: name, Line: int(line), Col: int(a) + 1, Msg: "invalid JSON: " + lit + " where a member name is expected"}
		}
		for d.PeekKind() == '"' {
			k, err := d.ReadValue()
			if err != nil {
				break
			}
			kEnd := d.InputOffset()
			if holds(kEnd-int64(len(k)), kEnd) {
				return nil, nameError(kEnd-int64(len(k)), string(k[1:len(k)-1]))
			}
			col, err := jsontext.AppendUnquote(nil, k)
			if err != nil {
				break
			}
			v, err := d.ReadValue()
			if err != nil {
				break
			}
			vEnd := d.InputOffset()
			vStart := vEnd - int64(len(v))
			row := cells[line]
			switch {
			case holds(vStart, vEnd):
				if a, body, ok := literalName(v, vStart, holds); ok {
					return nil, nameError(a, body)
				}
				if row == nil {
					row = map[string]string{}
					cells[line] = row
				}
				row[string(col)] = string(orig[int64(start)+vStart : int64(start)+vEnd])
			case row != nil:
				delete(row, string(col)) // a later duplicate without one
			}
		}
	}
	return cells, nil
}

// literalName returns the offset (in the line, where v starts at off) and
// body of the first name of an object in v that is a rewritten literal
// (holds tells, of a span of the line).
func literalName(v []byte, off int64, holds func(a, b int64) bool) (int64, string, bool) {
	if v[0] != '{' && v[0] != '[' {
		return 0, "", false
	}
	d := jsontext.NewDecoder(bytes.NewReader(v), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for {
		kind, n := d.StackIndex(d.StackDepth())
		tok, err := d.ReadToken()
		if err != nil {
			return 0, "", false
		}
		if kind == '{' && n%2 == 0 && tok.Kind() == '"' {
			// a rewritten literal has no escapes: it starts len(s)+2 bytes back
			s := tok.String()
			if a := off + d.InputOffset() - int64(len(s)) - 2; holds(a, off+d.InputOffset()) {
				return a, s, true
			}
		}
	}
}

// measuredRows checks that every row of a table holds a numeric cell
// (numeric[i]): a table with none is no result (a NotResultError saying
// so), and a row without one among rows with some is an error at its
// line (a row is a trial only with a measurement; none is dropped).
func measuredRows(rows []trial.Trial, numeric []bool, name string) error {
	bare := slices.Index(numeric, false)
	switch {
	case bare < 0:
		return nil
	case !slices.Contains(numeric, true):
		return &NotResultError{Path: name, What: "a table without a numeric cell in any row: no measurement, not a benchmark result"}
	}
	return &table.SyntaxError{File: name, Line: rows[bare].Source.Line, Col: 1,
		Msg: "a row without a numeric cell: no measurement (a row is a trial only with one)"}
}

// onlySettings returns the numeric columns of rows when every one of them
// is a load setting (tableWorkload: concurrency, request_rate, ...), and
// nil when some row holds another number: a table whose only numbers are
// the load it was run at (a harness's list of runs and their result
// files, say) measures nothing.
func onlySettings(rows []trial.Trial) []string {
	var cols []string
	for i := range rows {
		for _, m := range rows[i].Measurements {
			if tableWorkload[m.Metric] == nil {
				return nil
			}
			if !slices.Contains(cols, m.Metric) {
				cols = append(cols, m.Metric)
			}
		}
	}
	slices.Sort(cols)
	return cols
}
