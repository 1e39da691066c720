package cli

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/ingest"
)

// jsonBuf appends JSON by hand: the frontier of a million trials is
// printed in well under a second, with no intermediate structures.
type jsonBuf struct{ b []byte }

func (j *jsonBuf) raw(s string) { j.b = append(j.b, s...) }

func (j *jsonBuf) str(s string) {
	const hex = "0123456789abcdef"
	j.b = append(j.b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			j.b = append(j.b, c)
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				j.b = append(j.b, `\ufffd`...)
			} else if r == '\u2028' || r == '\u2029' {
				j.b = append(j.b, `\u202`...)
				j.b = append(j.b, hex[r&0xf])
			} else {
				j.b = append(j.b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			j.b = append(j.b, '\\', c)
		case '\n':
			j.b = append(j.b, `\n`...)
		case '\t':
			j.b = append(j.b, `\t`...)
		case '\r':
			j.b = append(j.b, `\r`...)
		default:
			j.b = append(j.b, `\u00`...)
			j.b = append(j.b, hex[c>>4], hex[c&0xf])
		}
		i++
	}
	j.b = append(j.b, '"')
}

// num writes a float exactly (shortest round-trip form); NaN and ±Inf
// become null.
func (j *jsonBuf) num(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		j.raw("null")
		return
	}
	j.b = strconv.AppendFloat(j.b, v, 'g', -1, 64)
}

// rel writes a relative difference rounded to 6 significant digits.
func (j *jsonBuf) rel(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		j.raw("null")
		return
	}
	j.b = strconv.AppendFloat(j.b, v, 'g', 6, 64)
}

func (j *jsonBuf) key(k string) { j.str(k); j.b = append(j.b, ':') }

// flush writes the buffer out when it grows large.
func (j *jsonBuf) flush(w *bufio.Writer, force bool) error {
	if len(j.b) < 1<<16 && !force {
		return nil
	}
	_, err := w.Write(j.b)
	j.b = j.b[:0]
	return err
}

func writeFrontJSON(out io.Writer, rep *frontReport) error {
	w := bufio.NewWriterSize(out, 1<<16)
	j := &jsonBuf{}
	j.raw(`{"objectives":[`)
	for i, o := range rep.query.objectives {
		if i > 0 {
			j.raw(",")
		}
		j.raw(`{"name":`)
		j.str(o.Name)
		j.raw(`,"direction":`)
		j.str(o.Direction.String())
		j.raw(`,"noise":`)
		j.num(o.Noise)
		j.raw(`,"min_improve":`)
		j.num(o.MinImprove)
		j.raw("}")
	}
	j.raw(`],"slos":[`)
	for i, s := range rep.query.slos {
		if i > 0 {
			j.raw(",")
		}
		j.str(s.String())
	}
	j.raw(`],"aggregate":`)
	j.str(rep.aggregate)
	if d := rep.data; d.baseline != nil {
		j.raw(`,"baseline":{"selector":`)
		j.str(rep.baselineSpec)
		j.raw(`,"ids":[`)
		for i, b := range d.baseline {
			if i > 0 {
				j.raw(",")
			}
			j.str(d.ids[b])
		}
		j.raw("]}")
	}
	j.raw(`,"groups":[`)
	for g := range rep.results {
		if g > 0 {
			j.raw(",")
		}
		if err := writeGroupJSON(w, j, rep, g); err != nil {
			return err
		}
	}
	j.raw(`],"skipped":`)
	j.skips(rep.data.skipped)
	j.raw(`,"warnings":[`)
	for i, s := range rep.warnings {
		if i > 0 {
			j.raw(",")
		}
		j.str(s)
	}
	j.raw("]}\n")
	if err := j.flush(w, true); err != nil {
		return err
	}
	return w.Flush()
}

func writeGroupJSON(w *bufio.Writer, j *jsonBuf, rep *frontReport, g int) error {
	res, p, d := &rep.results[g], rep.problems[g], rep.data
	j.raw(`{"name":`)
	j.str(rep.names[g])
	j.raw(`,"frontier":[`)
	for i, m := range res.Frontier {
		if i > 0 {
			j.raw(",")
		}
		j.raw(`{"id":`)
		j.str(d.ids[m.Row])
		j.raw(`,"values":`)
		writeValues(j, p, m.Row)
		writeRepeatsJSON(j, rep, m.Row)
		if rep.ranks {
			j.raw(`,"rank":`)
			j.b = strconv.AppendInt(j.b, int64(m.Rank), 10)
		}
		j.raw(`,"ties":`)
		writeIDs(j, d.ids, m.Ties)
		j.raw(`,"noise_tied":`)
		writeIDs(j, d.ids, m.NoiseTied)
		j.raw("}")
		if err := j.flush(w, false); err != nil {
			return err
		}
	}
	j.raw(`],"counts":{"frontier":`)
	j.b = strconv.AppendInt(j.b, int64(len(res.Frontier)), 10)
	j.raw(`,"dominated":`)
	j.b = strconv.AppendInt(j.b, int64(len(res.Dominated)), 10)
	j.raw(`,"infeasible":`)
	j.b = strconv.AppendInt(j.b, int64(len(res.Infeasible)), 10)
	j.raw(`,"invalid":`)
	j.b = strconv.AppendInt(j.b, int64(len(res.Invalid)), 10)
	j.raw(`},"dominated":[`)
	if rep.frontierOnly {
		j.raw(`],"infeasible":[],"invalid":[]`)
		writeHypervolumeJSON(j, res)
		j.raw("}")
		return nil
	}
	for i, x := range res.Dominated {
		if i > 0 {
			j.raw(",")
		}
		writeDominatedJSON(j, rep, p, x)
		if err := j.flush(w, false); err != nil {
			return err
		}
	}
	j.raw(`],"infeasible":[`)
	for i, x := range res.Infeasible {
		if i > 0 {
			j.raw(",")
		}
		j.raw(`{"id":`)
		j.str(d.ids[x.Row])
		j.raw(`,"values":`)
		writeValues(j, p, x.Row)
		writeRepeatsJSON(j, rep, x.Row)
		j.raw(`,"violations":[`)
		for k, v := range x.Violations {
			if k > 0 {
				j.raw(",")
			}
			j.raw(`{"bound":`)
			j.str(v.SLO.String())
			j.raw(`,"value":`)
			j.num(v.Value)
			j.raw("}")
		}
		j.raw("]}")
	}
	j.raw(`],"invalid":[`)
	for i, x := range res.Invalid {
		if i > 0 {
			j.raw(",")
		}
		j.raw(`{"id":`)
		j.str(d.ids[x.Row])
		j.raw(`,"reason":`)
		j.str(x.Reason)
		j.raw("}")
	}
	j.raw("]")
	writeHypervolumeJSON(j, res)
	j.raw("}")
	return nil
}

func writeHypervolumeJSON(j *jsonBuf, res *frontier.Result) {
	if !res.HasHypervolume {
		return
	}
	j.raw(`,"hypervolume":`)
	j.num(res.Hypervolume)
	j.raw(`,"reference":[`)
	for i, v := range res.Reference {
		if i > 0 {
			j.raw(",")
		}
		j.num(v)
	}
	j.raw("]")
}

func writeDominatedJSON(j *jsonBuf, rep *frontReport, p *frontier.Problem, x frontier.Dominated) {
	ids := rep.data.ids
	j.raw(`{"id":`)
	j.str(ids[x.Row])
	j.raw(`,"values":`)
	writeValues(j, p, x.Row)
	writeRepeatsJSON(j, rep, x.Row)
	if rep.ranks {
		j.raw(`,"rank":`)
		j.b = strconv.AppendInt(j.b, int64(x.Rank), 10)
	}
	j.raw(`,"dominated_by":`)
	j.str(ids[x.By])
	j.raw(`,"win_on":[`)
	for i, o := range p.WinOn(x.By, x.Row) {
		if i > 0 {
			j.raw(",")
		}
		j.str(p.Objectives[o].Name)
	}
	j.raw(`],"deltas":{`)
	for o, obj := range p.Objectives {
		if o > 0 {
			j.raw(",")
		}
		j.key(obj.Name)
		j.rel(p.Delta(o, x.By, x.Row))
	}
	j.raw("}}")
}

func writeValues(j *jsonBuf, p *frontier.Problem, r int32) {
	j.raw("{")
	for o, obj := range p.Objectives {
		if o > 0 {
			j.raw(",")
		}
		j.key(obj.Name)
		j.num(p.Values[o][r])
	}
	j.raw("}")
}

func writeIDs(j *jsonBuf, ids []string, rows []int32) {
	j.raw("[")
	for i, r := range rows {
		if i > 0 {
			j.raw(",")
		}
		j.str(ids[r])
	}
	j.raw("]")
}

// skips writes the inputs and runs that yielded no trial as an array.
func (j *jsonBuf) skips(list []ingest.Skip) {
	j.raw("[")
	for i, s := range list {
		if i > 0 {
			j.raw(",")
		}
		j.raw(`{"path":`)
		j.str(s.Path)
		j.raw(`,"run":`)
		j.str(s.Run)
		j.raw(`,"code":`)
		j.str(s.Code)
		j.raw(`,"reason":`)
		j.str(s.Reason)
		j.raw("}")
	}
	j.raw("]")
}

// writeRepeatsJSON writes n, and for several runs the spread of each
// objective and the member ids; with a baseline, the relative deltas.
func writeRepeatsJSON(j *jsonBuf, rep *frontReport, r int32) {
	d := rep.data
	j.raw(`,"n":`)
	j.b = strconv.AppendInt(j.b, int64(d.n(r)), 10)
	if d.n(r) > 1 {
		j.raw(`,"spread":{`)
		for o, obj := range rep.query.objectives {
			if o > 0 {
				j.raw(",")
			}
			st := d.stat(r, o)
			j.key(obj.Name)
			j.raw(`{"min":`)
			j.num(st.Min)
			j.raw(`,"q1":`)
			j.num(st.Q1)
			j.raw(`,"median":`)
			j.num(st.Median)
			j.raw(`,"q3":`)
			j.num(st.Q3)
			j.raw(`,"max":`)
			j.num(st.Max)
			j.raw("}")
		}
		j.raw(`},"members":[`)
		for i, m := range d.points[r].members {
			if i > 0 {
				j.raw(",")
			}
			j.str(d.memberIDs[m])
		}
		j.raw("]")
	}
	if d.baseline == nil {
		return
	}
	if d.isBaseline(r) {
		j.raw(`,"baseline":true`)
	}
	j.raw(`,"baseline_deltas":`)
	delta := d.points[r].delta
	if delta == nil {
		j.raw("null")
		return
	}
	j.raw("{")
	for o, obj := range rep.query.objectives {
		if o > 0 {
			j.raw(",")
		}
		j.key(obj.Name)
		j.rel(delta[o])
	}
	j.raw("}")
}
