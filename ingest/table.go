package ingest

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

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
// Load reads a table of any length batch by batch instead (TableBatch).
func ReadTable(data []byte, name string, opts TableOptions) ([]trial.Trial, error) {
	var out []trial.Trial
	err := readTable(bytes.NewReader(data), name, opts, Limits{}, func(ts []trial.Trial) error {
		out = append(out, ts...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
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
		if !jsonArrayStart(t) {
			return "" // text that starts with '[' (a Markdown link or badge), not JSON
		}
		return "a JSON array" + why
	case '{':
		line, _, _ := bytes.Cut(t, []byte("\n"))
		if !jsontext.Value(bytes.TrimSpace(line)).IsValid() && jsontext.Value(bytes.TrimSpace(t)).IsValid() {
			return "a JSON document of several lines" + why
		}
	}
	return ""
}

// jsonArrayStart reports whether t, which starts with '[', starts as a
// JSON array does: its first element (or its end) follows.
func jsonArrayStart(t []byte) bool {
	r := bytes.TrimLeft(t[1:], " \t\r\n")
	if len(r) == 0 {
		return true // cut at the head's end
	}
	switch c := r[0]; {
	case c == '{' || c == '[' || c == '"' || c == ']' || c == '-' || c >= '0' && c <= '9':
		return true
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(r, []byte(lit)) || bytes.HasPrefix([]byte(lit), r) {
				return true
			}
		}
		return false
	}
}

// tableRows turns the rows of t, a batch of the table name starting at
// row index first, into trials: cols are the text columns t holds (in
// the order of t.Text), idCol is the id column ("" for none),
// asWritten holds, by line of t, the cells whose bare Infinity or NaN the
// tolerant pre-pass rewrote, as the file writes them (literalCells), and
// shift is added to t's line numbers. numeric[r] says
// whether row r holds a numeric cell (NaN and ±Inf too: the front says
// why they are invalid).
func tableRows(t *table.Table, cols []string, name string, opts TableOptions, idCol string, asWritten map[int32]map[string]string, first, shift int) (out []trial.Trial, numeric []bool) {
	kept := t.Len()
	if opts.Rows != nil {
		kept = 0
		for r := range t.Len() {
			if opts.Rows(name, first+r) {
				kept++
			}
		}
	}
	out = make([]trial.Trial, 0, kept)
	numeric = make([]bool, 0, kept)
	for r := range t.Len() {
		if opts.Rows != nil && !opts.Rows(name, first+r) {
			continue
		}
		out, numeric = append(out, trial.Trial{}), append(numeric, false)
		tr, k := &out[len(out)-1], len(out)-1
		tr.Source = trial.Source{Path: name, Key: opts.key, Format: FormatTable, FormatVersion: t.Format,
			Line: int(t.Lines[r]) + shift, Index: first + r}
		tr.Failed = -1
		// Every cell may become a parameter: a map of that size, not
		// SetParam's default (16), which at 10⁶ rows is a gigabyte.
		tr.Params = make(map[string]string, len(cols))
		fixed := asWritten[t.Lines[r]]
		for c, col := range cols {
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
	return out, numeric
}

// tableCheck holds what decides, once a table is read batch by batch,
// whether it is a result: the first row without a numeric cell and
// whether any row has one (the one rule of what makes a row a trial), and
// whether every measurement is a load setting.
type tableCheck struct {
	name     string
	bare     int  // the line of the first row without a numeric cell (0: none yet)
	numeric  bool // some row has a numeric cell
	measured bool // some row has a measurement other than a load setting
	settings []string
}

// add checks a batch of rows (numeric as tableRows returns it). A row
// without a numeric cell among rows with some is an error at its line, as
// soon as both are seen (a row is a trial only with a measurement; none is
// dropped).
func (c *tableCheck) add(rows []trial.Trial, numeric []bool) error {
	if i := slices.Index(numeric, false); i >= 0 && c.bare == 0 {
		c.bare = rows[i].Source.Line
	}
	c.numeric = c.numeric || slices.Contains(numeric, true)
	for i := range rows {
		for _, m := range rows[i].Measurements {
			switch {
			case c.measured:
			case tableWorkload[m.Metric] == nil:
				c.measured, c.settings = true, nil
			case !slices.Contains(c.settings, m.Metric):
				c.settings = append(c.settings, m.Metric)
			}
		}
	}
	if c.bare > 0 && c.numeric {
		return &table.SyntaxError{File: c.name, Line: c.bare, Col: 1,
			Msg: "a row without a numeric cell: no measurement (a row is a trial only with one)"}
	}
	return nil
}

// end says, once every row was added, whether the table is a result: a
// table without a numeric cell is none, and neither is one whose only
// numbers are the load it was run at (a harness's list of runs and their
// result files, say): a *NotResultError says so.
func (c *tableCheck) end() error {
	if c.bare > 0 {
		return &NotResultError{Path: c.name, What: "a table without a numeric cell in any row: no measurement, not a benchmark result"}
	}
	if cols := c.onlySettings(); cols != nil {
		return &NotResultError{Path: c.name, What: fmt.Sprintf("a list of runs' load settings (%s) and no measurement: "+
			"a harness's own index of its runs, not a benchmark result", strings.Join(cols, ", "))}
	}
	return nil
}

// onlySettings returns the numeric columns of the rows added when every
// one of them is a load setting (tableWorkload: concurrency,
// request_rate, ...), and nil when some row holds another number.
func (c *tableCheck) onlySettings() []string {
	if c.measured || len(c.settings) == 0 {
		return nil
	}
	return slices.Sorted(slices.Values(c.settings))
}

// onlySettings is tableCheck.onlySettings of rows.
func onlySettings(rows []trial.Trial) []string {
	c := tableCheck{}
	c.add(rows, nil)
	return c.onlySettings()
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
