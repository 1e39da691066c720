package frontier

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Missing is the value of an absent cell. It is a NaN with a payload of
// its own, so IsMissing tells it apart from a NaN read from the data.
var Missing = math.Float64frombits(0x7ff8_0000_00ba_d0ff)

// IsMissing reports whether v is the Missing marker.
func IsMissing(v float64) bool { return math.Float64bits(v) == 0x7ff8_0000_00ba_d0ff }

// Problem is one frontier question over columnar data: which rows are worth
// keeping on the objectives, among those that meet every SLO.
type Problem struct {
	// Objectives are the axes, in order.
	Objectives []Objective
	// Values[o][r] is row r's value on objective o; Missing, NaN, ±Inf and
	// (on objectives with a band) non-positive values make the row invalid.
	Values [][]float64
	// SLOs are feasibility bounds; SLOValues[s][r] is row r's value for SLOs[s].
	SLOs      []SLO
	SLOValues [][]float64
	// Rows restricts the problem to a subset of rows (a group); nil means all.
	Rows []int32
	// Rejected holds rows already known to be invalid (for example a cell
	// that is not a number), with the reason to report.
	Rejected map[int32]string
	// Ranks asks for strict non-dominated ranks of the feasible rows.
	Ranks bool
	// Reference is the hypervolume reference point (one value per
	// objective, natural orientation); nil skips the hypervolume unless
	// AutoReference is set.
	Reference []float64
	// AutoReference derives the reference point with AutoReference.
	AutoReference bool
	// CountDominated leaves Result.Dominated empty and only counts the
	// dominated rows (Result.DominatedCount), for outputs that print the
	// frontier alone: 12 bytes a row fewer.
	CountDominated bool
}

// Result is the answer to a Problem. Row numbers refer to the Problem's
// columns. Every row of the problem appears in exactly one list.
type Result struct {
	// Frontier lists the rows worth keeping, sorted by objective values.
	Frontier []Member
	// Dominated lists feasible rows beaten by another row, in row order
	// (empty with Problem.CountDominated).
	Dominated []Dominated
	// DominatedCount is the number of dominated rows, listed or not.
	DominatedCount int
	// Infeasible lists rows that violate at least one SLO, in row order.
	Infeasible []Infeasible
	// Invalid lists rows whose values cannot be compared, in row order.
	Invalid []Invalid
	// Hypervolume is the volume dominated by the frontier up to Reference,
	// when HasHypervolume.
	Hypervolume    float64
	HasHypervolume bool
	// Reference is the reference point used for the hypervolume.
	Reference []float64
	// Cyclic reports that the noise parameters allow dominance cycles.
	Cyclic bool
}

// Member is a frontier row.
type Member struct {
	Row int32
	// Rank is the strict non-dominated rank (when ranks were asked for).
	Rank int32
	// Ties are other frontier rows with identical objective values. A tie
	// group is listed once: its first member in frontier order (the
	// lowest row) lists the others; each other member lists only that
	// first row, so that g ties cost O(g), not O(g²).
	Ties []int32
	// NoiseTied are the other members of its top cycle: rows it beats and
	// is beaten by, indistinguishable at the chosen thresholds; listed
	// once as Ties are (on the cycle's first member in frontier order, the
	// others list that member).
	NoiseTied []int32
}

// Dominated is a feasible row that another row beats.
type Dominated struct {
	Row  int32
	Rank int32
	// By is a row that beats it.
	By int32
}

// Infeasible is a row that violates SLO bounds.
type Infeasible struct {
	Row        int32
	Violations []Violation
}

// Violation is one violated bound and the row's value.
type Violation struct {
	SLO   SLO
	Value float64
}

// String renders the violation as "ttft=250 (want <=200)".
func (v Violation) String() string {
	return fmt.Sprintf("%s=%s (want %s%s)", v.SLO.Name, strconv.FormatFloat(v.Value, 'g', -1, 64),
		v.SLO.Op, strconv.FormatFloat(v.SLO.Bound, 'g', -1, 64))
}

// Invalid is a row with a value that cannot be compared.
type Invalid struct {
	Row    int32
	Reason string
}

// Analyze answers the problem: invalid rows first, then SLO feasibility,
// then dominance among the feasible rows (strict, or noise-aware when any
// objective has a band), with explanations, ties, ranks and hypervolume.
func Analyze(p *Problem) (Result, error) {
	if err := p.check(); err != nil {
		return Result{}, err
	}
	var res Result
	rows := p.rows()
	var feasible []int32 // nil while every row so far is feasible: then rows itself
	for i, r := range rows {
		if reason := p.invalid(r); reason != "" {
			res.Invalid = append(res.Invalid, Invalid{Row: r, Reason: reason})
		} else if v := p.violations(r); v != nil {
			res.Infeasible = append(res.Infeasible, Infeasible{Row: r, Violations: v})
		} else {
			if feasible != nil {
				feasible = append(feasible, r)
			}
			continue
		}
		if feasible == nil {
			feasible = append(make([]int32, 0, len(rows)), rows[:i]...)
		}
	}
	if feasible == nil {
		feasible = rows
	}
	p.dominance(feasible, &res)
	return res, nil
}

func (p *Problem) check() error {
	if len(p.Objectives) == 0 {
		return fmt.Errorf("frontier: no objectives")
	}
	if len(p.Values) != len(p.Objectives) || len(p.SLOValues) != len(p.SLOs) {
		return fmt.Errorf("frontier: %d objectives with %d value columns, %d SLOs with %d columns",
			len(p.Objectives), len(p.Values), len(p.SLOs), len(p.SLOValues))
	}
	if p.Reference != nil && len(p.Reference) != len(p.Objectives) {
		return fmt.Errorf("frontier: reference point has %d values for %d objectives", len(p.Reference), len(p.Objectives))
	}
	for _, o := range p.Objectives {
		if o.Noise < 0 || o.MinImprove < 0 || o.MinImprove >= 1 || math.IsNaN(o.Noise+o.MinImprove) {
			return fmt.Errorf("frontier: objective %s: noise must be >= 0 and minimum improvement in [0, 1)", o.Name)
		}
	}
	return nil
}

func (p *Problem) rows() []int32 {
	if p.Rows != nil {
		return p.Rows
	}
	n := 0
	if len(p.Values) > 0 {
		n = len(p.Values[0])
	}
	return allRows(n)
}

// invalid returns why row r cannot be compared, or "".
func (p *Problem) invalid(r int32) string {
	if len(p.Rejected) > 0 {
		if why, ok := p.Rejected[r]; ok {
			return why
		}
	}
	for o, obj := range p.Objectives {
		if v := p.Values[o][r]; v-v == 0 && (v > 0 || !obj.Relative()) {
			continue // finite, and positive where a relative band needs it: badValue says ""
		}
		if why := badValue(p.Values[o][r], obj.Relative()); why != "" {
			return obj.Name + ": " + why
		}
	}
	for s, slo := range p.SLOs {
		if v := p.SLOValues[s][r]; IsMissing(v) || math.IsNaN(v) {
			return "slo " + slo.Name + ": " + badValue(v, false)
		}
	}
	return ""
}

func badValue(v float64, relative bool) string {
	switch {
	case IsMissing(v):
		return "missing value"
	case math.IsNaN(v):
		return "value is NaN"
	case math.IsInf(v, 0):
		return "value is " + strconv.FormatFloat(v, 'g', -1, 64)
	case relative && v <= 0:
		return "value " + strconv.FormatFloat(v, 'g', -1, 64) + " is not positive, so a relative noise band cannot apply"
	}
	return ""
}

func (p *Problem) violations(r int32) []Violation {
	var out []Violation
	for s, slo := range p.SLOs {
		if v := p.SLOValues[s][r]; !slo.Holds(v) {
			out = append(out, Violation{SLO: slo, Value: v})
		}
	}
	return out
}

// matrix gathers the objective values of rows into a row-major matrix.
func (p *Problem) matrix(rows []int32) []float64 {
	k := len(p.Objectives)
	data := make([]float64, len(rows)*k)
	for o, col := range p.Values {
		for i, r := range rows {
			data[i*k+o] = col[r]
		}
	}
	return data
}

func (p *Problem) dominance(rows []int32, res *Result) {
	// by[i] is the index into rows of a row beating rows[i] (-1: none);
	// data holds the values of the rows drows[j] (front and tied index it).
	var (
		by, rank, drows []int32
		tied            [][]int32
		data            []float64
		sub             []int32  // data's rows as indices into rows; nil: all of them
		hv              hvResult // the volume, when found with the frontier
	)
	if !p.Ranks && !anyBand(p.Objectives) && len(rows) >= pivotFilterMin {
		by, sub, data, hv = p.columnsFront(rows)
		drows = make([]int32, len(sub))
		for j, i := range sub {
			drows[j] = rows[i]
		}
	} else {
		data, drows = p.matrix(rows), rows
		nr := NoiseFront(data, p.Objectives)
		by, tied = nr.By, nr.Tied
		res.Cyclic = nr.Cyclic && anyBand(p.Objectives)
		if p.Ranks {
			rank = Ranks(minSpace(data, p.Objectives), len(p.Objectives))
		}
	}
	var front []int32 // indices into data
	if sub != nil {
		for j, i := range sub {
			if by[i] < 0 {
				front = append(front, int32(j))
			}
		}
	} else {
		front = make([]int32, 0, len(by)-countDominated(by))
		for i, b := range by {
			if b < 0 {
				front = append(front, int32(i))
			}
		}
	}
	res.DominatedCount = len(by) - len(front)
	if !p.CountDominated {
		res.Dominated = slices.Grow(res.Dominated, res.DominatedCount)
		for i, b := range by {
			if b >= 0 {
				d := Dominated{Row: rows[i], By: rows[b]}
				if rank != nil {
					d.Rank = rank[i]
				}
				res.Dominated = append(res.Dominated, d)
			}
		}
	}
	res.Frontier = p.members(data, drows, front, rank, tied)
	p.hypervolume(data, front, res, hv)
}

// sortMembers sorts front (indices into data, stride k) by objective
// values, then by row. From smallSort points on, a radix sort by the first
// objective comes first (stable, and floatKey orders as cmp.Compare does,
// ±0 alike), and only the runs of equal first values are compared in full:
// the order is the same (rows are distinct, so it is unique), at a fraction
// of the comparisons for a frontier of 10³ points.
func sortMembers(data []float64, k int, rows, front []int32) {
	byValues := func(a, b int32) int {
		if c := slices.Compare(data[int(a)*k:int(a)*k+k], data[int(b)*k:int(b)*k+k]); c != 0 {
			return c
		}
		return cmp.Compare(rows[a], rows[b])
	}
	if len(front) < smallSort || slices.ContainsFunc(front, func(f int32) bool { return math.IsNaN(data[int(f)*k]) }) {
		slices.SortFunc(front, byValues)
		return
	}
	keys := make([]uint64, len(front))
	for i, f := range front {
		keys[i] = floatKey(data[int(f)*k])
	}
	sortByKeyBuf(keys, front, nil, nil)
	for i := 0; i < len(front); {
		j := i + 1
		for j < len(front) && keys[j] == keys[i] {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(front[i:j], byValues)
		}
		i = j
	}
}

// countDominated counts the rows with a beater.
func countDominated(by []int32) int {
	n := 0
	for _, b := range by {
		if b >= 0 {
			n++
		}
	}
	return n
}

// members builds the frontier list sorted by objective values (then row),
// with exact ties and noise ties (the top cycles tied, as indices into
// data) mapped back to rows, each group listed once (listGroup).
func (p *Problem) members(data []float64, rows, front, rank []int32, tied [][]int32) []Member {
	k := len(p.Objectives)
	sortMembers(data, k, rows, front)
	out := make([]Member, len(front))
	for i, f := range front {
		out[i] = Member{Row: rows[f]}
		if rank != nil {
			out[i].Rank = rank[f]
		}
	}
	for i := 0; i < len(front); { // runs of identical values
		j := i + 1
		for j < len(front) && sameRow(data, k, front[i], front[j]) {
			j++
		}
		if j-i > 1 {
			listGroup(out, runOf(i, j), func(m *Member) *[]int32 { return &m.Ties })
		}
		i = j
	}
	if len(tied) == 0 {
		return out
	}
	pos := make(map[int32]int, len(front))
	for i, f := range front {
		pos[f] = i
	}
	for _, g := range tied {
		at := make([]int, 0, len(g))
		for _, f := range g {
			if i, ok := pos[f]; ok {
				at = append(at, i)
			}
		}
		if len(at) > 1 {
			listGroup(out, at, func(m *Member) *[]int32 { return &m.NoiseTied })
		}
	}
	return out
}

// runOf returns the indices i..j-1.
func runOf(i, j int) []int {
	at := make([]int, 0, j-i)
	for ; i < j; i++ {
		at = append(at, i)
	}
	return at
}

// listGroup lists a tie group once: on its first member in frontier order
// the rows of the others, sorted; on each other member only the first
// one's row. at holds the group's indices in out; field picks Ties or
// NoiseTied.
func listGroup(out []Member, at []int, field func(*Member) *[]int32) {
	head := slices.Min(at)
	ref := []int32{out[head].Row} // shared, read only
	list := make([]int32, 0, len(at)-1)
	for _, i := range at {
		if i != head {
			list = append(list, out[i].Row)
			*field(&out[i]) = ref
		}
	}
	slices.Sort(list)
	*field(&out[head]) = list
}

func (p *Problem) hypervolume(data []float64, front []int32, res *Result, hv hvResult) {
	if p.Reference == nil && !p.AutoReference {
		return
	}
	if hv.ok {
		res.Reference = slices.Clone(minSpace(hv.ref, p.Objectives))
		res.Hypervolume, res.HasHypervolume = hv.volume, true
		return
	}
	k := len(p.Objectives)
	pts := make([]float64, 0, len(front)*k)
	for _, f := range front {
		pts = append(pts, data[int(f)*k:int(f)*k+k]...)
	}
	m := minSpace(pts, p.Objectives)
	ref := p.hvReference(m)
	if ref == nil {
		return
	}
	res.Reference = slices.Clone(minSpace(ref, p.Objectives)) // back to natural orientation, not the caller's slice
	res.Hypervolume, res.HasHypervolume = Hypervolume(m, k, ref), true
}

// hvResult is a hypervolume found with the frontier (columnsFront): ok,
// the volume and the reference point in min space.
type hvResult struct {
	ok     bool
	volume float64
	ref    []float64
}

// hvReference returns the reference point in min space for the frontier
// points m (min space): Reference, or AutoReference of m; nil when there
// is none (no reference asked for, or no points for auto).
func (p *Problem) hvReference(m []float64) []float64 {
	switch {
	case p.Reference != nil:
		return minSpace(p.Reference, p.Objectives)
	case p.AutoReference && len(m) > 0:
		return AutoReference(m, len(p.Objectives))
	}
	return nil
}

// WinOn returns the objectives on which row by beats row r by more than
// the minimum improvement (strictly better when there is no band).
func (p *Problem) WinOn(by, r int32) []int { return p.AppendWinOn(nil, by, r) }

// AppendWinOn appends WinOn(by, r) to dst: with a reused dst, explaining a
// million rows allocates nothing.
func (p *Problem) AppendWinOn(dst []int, by, r int32) []int {
	for o, obj := range p.Objectives {
		a, b := p.Values[o][by], p.Values[o][r]
		if obj.Direction == Maximize && a > b*(1+obj.MinImprove) ||
			obj.Direction == Minimize && a < b*(1-obj.MinImprove) {
			dst = append(dst, o)
		}
	}
	return dst
}

// Delta returns the relative difference (a-b)/|b| of row a against row b on
// objective o; it is ±Inf or NaN when b is zero.
func (p *Problem) Delta(o int, a, b int32) float64 {
	va, vb := p.Values[o][a], p.Values[o][b]
	return (va - vb) / math.Abs(vb)
}
