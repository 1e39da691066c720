package query

import (
	"bufio"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/enc"
)

func writeFrontTable(w *bufio.Writer, rep *Result) error {
	for g := range rep.results {
		if g > 0 {
			w.WriteByte('\n')
		}
		writeGroupTable(w, rep, g)
	}
	if sk := rep.data.skipped; len(sk) > 0 {
		fmt.Fprintf(w, "\nSKIPPED (inputs and runs that yielded no trial)\n")
		enc.SkipSection(w, sk)
	}
	return nil
}

func objectiveHeaders(objs []frontier.Objective) []string {
	h := make([]string, len(objs))
	for i, o := range objs {
		arrow := "↓"
		if o.Direction == frontier.Maximize {
			arrow = "↑"
		}
		h[i] = o.Name + " " + arrow
	}
	return h
}

func writeGroupTable(w *bufio.Writer, rep *Result, g int) {
	res, p, ids := &rep.results[g], rep.problems[g], rep.data.ids
	k := len(p.Objectives)
	if rep.grouped {
		fmt.Fprintf(w, "== group %s ==\n", enc.Safe(rep.names[g]))
	}
	fmt.Fprintf(w, "%d on the frontier, %d dominated, %d infeasible, %d invalid\n",
		len(res.Frontier), res.DominatedCount, len(res.Infeasible), len(res.Invalid))
	if res.HasHypervolume {
		fmt.Fprintf(w, "hypervolume %s (reference %s)\n", fmtNum(res.Hypervolume), fmtList(res.Reference))
	}
	objH := objectiveHeaders(p.Objectives)
	fmt.Fprintf(w, "\nFRONTIER\n")
	h := append(append([]string{"id"}, objH...), "ties", "noise-tied")
	if rep.ranks {
		h = append(h, "rank")
	}
	xh, xcell := extraColumns(rep)
	enc.Section(w, append(h, xh...), len(res.Frontier), func(b []byte, r, c int) []byte {
		m := res.Frontier[r]
		switch {
		case c <= k:
			return appendIDValue(b, ids, p, m.Row, c)
		case c == k+1:
			return appendSomeIDs(b, ids, m.Ties)
		case c == k+2:
			return appendSomeIDs(b, ids, m.NoiseTied)
		case c == k+3 && rep.ranks:
			return strconv.AppendInt(b, int64(m.Rank), 10)
		}
		return xcell(b, m.Row, c-len(h))
	})
	if rep.frontierOnly {
		return
	}
	if len(res.Dominated) > 0 {
		writeDominatedTable(w, rep, g, objH)
	}
	if len(res.Infeasible) > 0 {
		fmt.Fprintf(w, "\nINFEASIBLE\n")
		enc.Section(w, append(append([]string{"id"}, objH...), "violates"), len(res.Infeasible), func(b []byte, r, c int) []byte {
			x := res.Infeasible[r]
			if c <= k {
				return appendIDValue(b, ids, p, x.Row, c)
			}
			for i, v := range x.Violations {
				if i > 0 {
					b = append(b, "; "...)
				}
				b = append(b, v.String()...)
			}
			return b
		})
	}
	if len(res.Invalid) > 0 {
		fmt.Fprintf(w, "\nINVALID\n")
		enc.Section(w, []string{"id", "reason"}, len(res.Invalid), func(b []byte, r, c int) []byte {
			if c == 0 {
				return append(b, ids[res.Invalid[r].Row]...)
			}
			return append(b, res.Invalid[r].Reason...)
		})
	}
}

func writeDominatedTable(w *bufio.Writer, rep *Result, g int, objH []string) {
	res, p, ids := &rep.results[g], rep.problems[g], rep.data.ids
	k := len(p.Objectives)
	fmt.Fprintf(w, "\nDOMINATED (Δ: the dominating trial relative to this one)\n")
	h := append(append([]string{"id"}, objH...), "dominated by", "win on")
	for _, o := range p.Objectives {
		h = append(h, "Δ"+o.Name)
	}
	if rep.ranks {
		h = append(h, "rank")
	}
	enc.Section(w, h, len(res.Dominated), func(b []byte, r, c int) []byte {
		x := res.Dominated[r]
		switch {
		case c <= k:
			return appendIDValue(b, ids, p, x.Row, c)
		case c == k+1:
			return append(b, ids[x.By]...)
		case c == k+2:
			var buf [8]int
			for i, o := range p.AppendWinOn(buf[:0], x.By, x.Row) {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, p.Objectives[o].Name...)
			}
			return b
		case c <= 2*k+2:
			return enc.AppendPercent(b, p.Delta(c-k-3, x.By, x.Row))
		}
		return strconv.AppendInt(b, int64(x.Rank), 10)
	})
}

// appendIDValue appends column c (at most k) of row: its id (0) or its
// objective value c-1, the columns every trial table of a group starts
// with.
func appendIDValue(b []byte, ids []string, p *frontier.Problem, row int32, c int) []byte {
	if c == 0 {
		return append(b, ids[row]...)
	}
	return enc.AppendNum(b, p.Values[c-1][row])
}

// shownTies is how many ids of a tie group the text table shows.
const shownTies = 8

// appendSomeIDs appends the first shownTies ids of rows and how many more
// there are ("a,b,…,h and 29991 more"): a tie group of thousands stays one
// readable cell (JSON and CSV list every id).
func appendSomeIDs(b []byte, ids []string, rows []int32) []byte {
	if len(rows) <= shownTies {
		return appendIDs(b, ids, rows)
	}
	b = appendIDs(b, ids, rows[:shownTies])
	b = append(b, " and "...)
	b = strconv.AppendInt(b, int64(len(rows)-shownTies), 10)
	return append(b, " more"...)
}

func appendIDs(b []byte, ids []string, rows []int32) []byte {
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, ids[r]...)
	}
	return b
}

func fmtNum(v float64) string { return string(enc.AppendNum(nil, v)) }

func fmtList(vs []float64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmtNum(v)
	}
	return strings.Join(parts, ",")
}

// extraColumns returns the repeat and baseline columns: n and the spread
// (min..max) when repeats were combined, and the delta to the baseline on
// every objective when --baseline is set.
func extraColumns(rep *Result) ([]string, func(b []byte, row int32, c int) []byte) {
	d := rep.data
	objs := rep.query.Objectives
	var h []string
	repeats := d.points != nil && slices.ContainsFunc(d.points, func(p point) bool { return p.n > 1 })
	if repeats {
		h = append(h, "n")
		for _, o := range objs {
			h = append(h, o.Name+" min..max")
		}
	}
	if d.baseline != nil {
		for _, o := range objs {
			h = append(h, "Δbase "+o.Name)
		}
	}
	cell := func(b []byte, r int32, c int) []byte {
		if repeats {
			if c == 0 {
				return strconv.AppendInt(b, int64(d.n(r)), 10)
			}
			if c <= len(objs) {
				if d.n(r) == 1 {
					return b
				}
				st := d.stat(r, c-1)
				return enc.AppendNum(append(enc.AppendNum(b, st.Min), ".."...), st.Max)
			}
			c -= 1 + len(objs)
		}
		if d.isBaseline(r) {
			return append(b, "baseline"...)
		}
		if delta := d.points[r].baseline().delta; delta != nil {
			return enc.AppendPercent(b, delta[c])
		}
		return append(b, "n/a"...)
	}
	return h, cell
}
