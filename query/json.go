package query

import (
	"bufio"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/internal/enc"
)

// writeFrontJSON appends JSON by hand: the frontier of a million trials is
// printed in well under a second, with no intermediate structures.
func writeFrontJSON(w *bufio.Writer, rep *Result) error {
	j := &enc.JSON{}
	j.Raw(`{"objectives":[`)
	for i, o := range rep.query.Objectives {
		if i > 0 {
			j.Raw(",")
		}
		j.Raw(`{"name":`)
		j.Str(o.Name)
		j.Raw(`,"direction":`)
		j.Str(o.Direction.String())
		j.Raw(`,"noise":`)
		j.Num(o.Noise)
		j.Raw(`,"min_improve":`)
		j.Num(o.MinImprove)
		j.Raw("}")
	}
	j.Raw(`],"slos":[`)
	for i, s := range rep.query.SLOs {
		if i > 0 {
			j.Raw(",")
		}
		j.Str(s.String())
	}
	j.Raw(`],"aggregate":`)
	j.Str(rep.aggregate)
	if d := rep.data; d.baseline != nil {
		j.Raw(`,"baseline":{"selector":`)
		j.Str(rep.baselineSpec)
		j.Raw(`,"ids":[`)
		for i, b := range d.baseline {
			if i > 0 {
				j.Raw(",")
			}
			j.Str(d.ids[b])
		}
		j.Raw("]}")
	}
	j.Raw(`,"groups":[`)
	for g := range rep.results {
		if g > 0 {
			j.Raw(",")
		}
		if err := writeGroupJSON(w, j, rep, g); err != nil {
			return err
		}
	}
	j.Raw(`],"skipped":`)
	j.Skips(rep.data.skipped)
	j.Raw(`,"warnings":`)
	j.Strs(rep.warnings)
	j.Raw("}\n")
	return j.Flush(w, true)
}

func writeGroupJSON(w *bufio.Writer, j *enc.JSON, rep *Result, g int) error {
	res, p, d := &rep.results[g], rep.problems[g], rep.data
	j.Raw(`{"name":`)
	j.Str(rep.names[g])
	j.Raw(`,"frontier":[`)
	for i, m := range res.Frontier {
		if i > 0 {
			j.Raw(",")
		}
		writePointJSON(j, rep, p, m.Row, m.Rank)
		j.Raw(`,"ties":`)
		writeIDs(j, d.ids, m.Ties)
		j.Raw(`,"noise_tied":`)
		writeIDs(j, d.ids, m.NoiseTied)
		j.Raw("}")
		if err := j.Flush(w, false); err != nil {
			return err
		}
	}
	j.Raw(`],"counts":{"frontier":`)
	j.Int(int64(len(res.Frontier)))
	j.Raw(`,"dominated":`)
	j.Int(int64(res.DominatedCount))
	j.Raw(`,"infeasible":`)
	j.Int(int64(len(res.Infeasible)))
	j.Raw(`,"invalid":`)
	j.Int(int64(len(res.Invalid)))
	j.Raw(`},"dominated":[`)
	if rep.frontierOnly {
		j.Raw(`],"infeasible":[],"invalid":[]`)
		writeHypervolumeJSON(j, res)
		j.Raw("}")
		return nil
	}
	for i, x := range res.Dominated {
		if i > 0 {
			j.Raw(",")
		}
		writeDominatedJSON(j, rep, p, x)
		if err := j.Flush(w, false); err != nil {
			return err
		}
	}
	j.Raw(`],"infeasible":[`)
	for i, x := range res.Infeasible {
		if i > 0 {
			j.Raw(",")
		}
		writePointJSON(j, rep, p, x.Row, -1)
		j.Raw(`,"violations":[`)
		for k, v := range x.Violations {
			if k > 0 {
				j.Raw(",")
			}
			j.Raw(`{"bound":`)
			j.Str(v.SLO.String())
			j.Raw(`,"value":`)
			j.Num(v.Value)
			j.Raw("}")
		}
		j.Raw("]}")
	}
	j.Raw(`],"invalid":[`)
	for i, x := range res.Invalid {
		if i > 0 {
			j.Raw(",")
		}
		j.Raw(`{"id":`)
		j.Str(d.ids[x.Row])
		j.Raw(`,"reason":`)
		j.Str(x.Reason)
		j.Raw("}")
	}
	j.Raw("]")
	writeHypervolumeJSON(j, res)
	j.Raw("}")
	return nil
}

func writeHypervolumeJSON(j *enc.JSON, res *frontier.Result) {
	if !res.HasHypervolume {
		return
	}
	j.Raw(`,"hypervolume":`)
	j.Num(res.Hypervolume)
	j.Raw(`,"reference":`)
	j.Nums(res.Reference)
}

func writeDominatedJSON(j *enc.JSON, rep *Result, p *frontier.Problem, x frontier.Dominated) {
	ids := rep.data.ids
	writePointJSON(j, rep, p, x.Row, x.Rank)
	j.Raw(`,"dominated_by":`)
	j.Str(ids[x.By])
	j.Raw(`,"win_on":[`)
	var buf [8]int
	for i, o := range p.AppendWinOn(buf[:0], x.By, x.Row) {
		if i > 0 {
			j.Raw(",")
		}
		j.Str(p.Objectives[o].Name)
	}
	j.Raw(`],"deltas":{`)
	for o, obj := range p.Objectives {
		if o > 0 {
			j.Raw(",")
		}
		j.Key(obj.Name)
		j.Rel(p.Delta(o, x.By, x.Row))
	}
	j.Raw("}}")
}

// writePointJSON opens the object of point row: its id, values and
// repeats, and its rank when the query ranks (rank >= 0).
func writePointJSON(j *enc.JSON, rep *Result, p *frontier.Problem, row, rank int32) {
	j.Raw(`{"id":`)
	j.Str(rep.data.ids[row])
	j.Raw(`,"values":`)
	writeValues(j, p, row)
	writeRepeatsJSON(j, rep, row)
	if rep.ranks && rank >= 0 {
		j.Raw(`,"rank":`)
		j.Int(int64(rank))
	}
}

func writeValues(j *enc.JSON, p *frontier.Problem, r int32) {
	j.Raw("{")
	for o, obj := range p.Objectives {
		if o > 0 {
			j.Raw(",")
		}
		j.Key(obj.Name)
		j.Num(p.Values[o][r])
	}
	j.Raw("}")
}

func writeIDs(j *enc.JSON, ids []string, rows []int32) {
	j.Raw("[")
	for i, r := range rows {
		if i > 0 {
			j.Raw(",")
		}
		j.Str(ids[r])
	}
	j.Raw("]")
}

// writeRepeatsJSON writes n, and for several runs the spread of each
// objective and the member ids; with a baseline, the relative deltas.
func writeRepeatsJSON(j *enc.JSON, rep *Result, r int32) {
	d := rep.data
	j.Raw(`,"n":`)
	j.Int(int64(d.n(r)))
	if d.n(r) > 1 {
		j.Raw(`,"spread":{`)
		for o, obj := range rep.query.Objectives {
			if o > 0 {
				j.Raw(",")
			}
			st := d.stat(r, o)
			j.Key(obj.Name)
			j.Raw(`{"min":`)
			j.Num(st.Min)
			j.Raw(`,"q1":`)
			j.Num(st.Q1)
			j.Raw(`,"median":`)
			j.Num(st.Median)
			j.Raw(`,"q3":`)
			j.Num(st.Q3)
			j.Raw(`,"max":`)
			j.Num(st.Max)
			j.Raw("}")
		}
		j.Raw(`},"members":`)
		writeIDs(j, d.memberIDs, d.members(int32(r)))
	}
	if d.baseline == nil {
		return
	}
	if d.isBaseline(r) {
		j.Raw(`,"baseline":true`)
	}
	j.Raw(`,"baseline_deltas":`)
	bc := d.points[r].baseline()
	delta := bc.delta
	if delta == nil {
		j.Raw("null")
		if why := bc.why; why != "" {
			j.Raw(`,"baseline_why":`)
			j.Str(why)
		}
		return
	}
	j.Raw("{")
	for o, obj := range rep.query.Objectives {
		if o > 0 {
			j.Raw(",")
		}
		j.Key(obj.Name)
		j.Rel(delta[o])
	}
	j.Raw("}")
}
