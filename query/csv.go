package query

import (
	"bufio"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/enc"
)

// writeFrontCSV prints one row per trial with its status, values and
// explanation, for spreadsheets and scripts.
func writeFrontCSV(w *bufio.Writer, rep *Result) error {
	objs := rep.query.Objectives
	h := []string{"group", "id", "status"}
	for _, o := range objs {
		h = append(h, o.Name)
	}
	h = append(h, "rank", "dominated_by", "win_on")
	for _, o := range objs {
		h = append(h, "delta_"+o.Name)
	}
	h = append(h, "ties", "noise_tied", "reason")
	var b []byte
	for i, s := range h {
		if i > 0 {
			b = append(b, ',')
		}
		b = csvField(b, s)
	}
	w.Write(append(b, '\n'))
	for g := range rep.results {
		writeGroupCSV(w, rep, g)
	}
	return nil
}

// csvRow accumulates one output row.
type csvRow struct {
	rep  *Result
	p    *frontier.Problem
	name string
	b    []byte
	win  []int // AppendWinOn's buffer
	// plainNames says no objective name needs quoting: win_on is
	// appended name by name.
	plainNames bool
}

// start begins a row at the end of c.b.
func (c *csvRow) start(id, status string, row int32) {
	c.b = csvField(c.b, c.name)
	c.b = append(c.b, ',')
	c.b = csvField(c.b, id)
	c.b = append(c.b, ',')
	c.b = append(c.b, status...)
	for o := range c.p.Objectives {
		c.b = append(c.b, ',')
		if v := c.p.Values[o][row]; !frontier.IsMissing(v) {
			c.b = strconv.AppendFloat(c.b, v, 'g', -1, 64)
		}
	}
}

func (c *csvRow) rank(r int32) {
	c.b = append(c.b, ',')
	if c.rep.ranks {
		c.b = strconv.AppendInt(c.b, int64(r), 10)
	}
}

func (c *csvRow) tail(fields ...string) {
	for _, f := range fields {
		c.b = append(c.b, ',')
		c.b = csvField(c.b, f)
	}
	c.b = append(c.b, '\n')
}

// winOn appends the objectives x's beater wins on, joined by ";".
func (c *csvRow) winOn(x frontier.Dominated) {
	c.win = c.p.AppendWinOn(c.win[:0], x.By, x.Row)
	if !c.plainNames {
		var win []string
		for _, o := range c.win {
			win = append(win, c.p.Objectives[o].Name)
		}
		c.b = csvField(c.b, strings.Join(win, ";"))
		return
	}
	for i, o := range c.win {
		if i > 0 {
			c.b = append(c.b, ';')
		}
		c.b = append(c.b, c.p.Objectives[o].Name...)
	}
}

func (c *csvRow) blanks(n int) {
	for range n {
		c.b = append(c.b, ',')
	}
}

func writeGroupCSV(w *bufio.Writer, rep *Result, g int) {
	res, p, ids := &rep.results[g], rep.problems[g], rep.data.ids
	k := len(p.Objectives)
	c := &csvRow{rep: rep, p: p, name: rep.names[g], plainNames: !slices.ContainsFunc(p.Objectives, func(o frontier.Objective) bool {
		return needsQuotes(o.Name)
	})}
	for _, m := range res.Frontier {
		c.b = c.b[:0]
		c.start(ids[m.Row], "frontier", m.Row)
		c.rank(m.Rank)
		c.blanks(2 + k)
		c.tail(string(appendIDs(nil, ids, m.Ties)), string(appendIDs(nil, ids, m.NoiseTied)), "")
		w.Write(c.b)
	}
	if rep.frontierOnly {
		return
	}
	writeChunks(w, len(res.Dominated), func(dst []byte, lo, hi int) []byte {
		c := &csvRow{rep: c.rep, p: c.p, name: c.name, plainNames: c.plainNames}
		for _, x := range res.Dominated[lo:hi] {
			c.b = dst
			c.start(ids[x.Row], "dominated", x.Row)
			c.rank(x.Rank)
			c.b = append(c.b, ',')
			c.b = csvField(c.b, ids[x.By])
			c.b = append(c.b, ',')
			c.winOn(x)
			for o := range p.Objectives {
				c.b = append(c.b, ',')
				c.b = enc.AppendRel(c.b, p.Delta(o, x.By, x.Row))
			}
			dst = append(c.b, ",,,\n"...) // no ties, noise ties or reason
		}
		return dst
	})
	for _, x := range res.Infeasible {
		c.b = c.b[:0]
		c.start(ids[x.Row], "infeasible", x.Row)
		c.blanks(3 + k)
		var v []string
		for _, vi := range x.Violations {
			v = append(v, vi.String())
		}
		c.tail("", "", strings.Join(v, "; "))
		w.Write(c.b)
	}
	for _, x := range res.Invalid {
		c.b = c.b[:0]
		c.start(ids[x.Row], "invalid", x.Row)
		c.blanks(3 + k)
		c.tail("", "", x.Reason)
		w.Write(c.b)
	}
}

// csvField appends s, quoted when it holds a comma, quote or line break.
func csvField(b []byte, s string) []byte {
	if !needsQuotes(s) {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}

// needsQuotes reports whether s holds a comma, quote or line break: a loop
// over the bytes, four times cheaper than strings.ContainsAny on the short
// ids of a million rows.
func needsQuotes(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= '"' && (c == '"' || c == '\n' || c == '\r') || c == ',' {
			return true
		}
	}
	return false
}
