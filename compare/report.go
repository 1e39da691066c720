package compare

import "github.com/pareto-llm/pareto/decide"

// Num is a float that encodes in JSON with 6 significant digits (null
// when not finite), as every decision's JSON is written.
type Num = decide.Num

// Verdicts of a pair: B against A.
const (
	// BDominates: B is better than A beyond the minimum improvement
	// somewhere and worse beyond the noise band nowhere.
	BDominates = "b_dominates"
	// ADominates: A is better somewhere and B better nowhere.
	ADominates = "a_dominates"
	// Crossing: each is better somewhere (Pair.Uplift.Crossings says where).
	Crossing = "crossing"
	// Indistinguishable: within the noise bands everywhere.
	Indistinguishable = "indistinguishable"
	// Inconclusive: too uncertain to say any of the above.
	Inconclusive = "inconclusive"
)

// Statuses of a pair for CI: has B regressed against A?
const (
	NoRegression        = "no_regression"
	Regression          = "regression"
	RegressionUnsettled = "inconclusive"
)

// Statuses of one comparison (a point of the uplift curve, a bucket, the
// reach): B against A, on the oriented log scale of decide.LogBands.
const (
	Better    = "better"
	Worse     = "worse"
	Same      = "same"
	Uncertain = "uncertain"
	// Outside marks a bucket outside a frontier's span.
	Outside = "outside"
)

// Report is the answer of Run: every side and every pair.
type Report struct {
	Objectives    []Objective   `json:"objectives"`
	Reference     []Num         `json:"reference"`
	Interpolation string        `json:"interpolation"`
	Resamples     int           `json:"resamples"`
	Seed          uint64        `json:"seed"`
	Confidence    Num           `json:"confidence"`
	Sides         []SideSummary `json:"sides"`
	// Pairs compare the first side (A) with each other side (B).
	Pairs    []Pair   `json:"pairs"`
	Warnings []string `json:"warnings"`
}

// Objective is one axis with the bands it is judged with.
type Objective struct {
	Name       string `json:"name"`
	Direction  string `json:"direction"`
	Noise      Num    `json:"noise"`
	MinImprove Num    `json:"min_improve"`
	// Band says where the bands come from: BandGiven, BandMeasured or
	// BandUnmeasured; Measured is the noise measured (or attempted) from
	// the repeats when none was given.
	Band     string        `json:"band"`
	Measured *NoiseMeasure `json:"measured,omitempty"`
}

// SideSummary is one side: its size, hypervolume and frontier.
type SideSummary struct {
	Name string `json:"name"`
	// Points are the feasible points, Runs the runs they aggregate,
	// Excluded the infeasible and invalid points.
	Points   int `json:"points"`
	Runs     int `json:"runs"`
	Excluded int `json:"excluded"`
	// Hypervolume against the report's reference, with its bootstrap
	// interval.
	Hypervolume Num    `json:"hypervolume"`
	Interval    [2]Num `json:"interval"`
	// Frontier is the strict frontier of the point estimates (for two
	// objectives in ascending order of the first).
	Frontier []FrontierPoint `json:"frontier"`
}

// FrontierPoint is a point of a side's frontier.
type FrontierPoint struct {
	ID     string `json:"id"`
	Values []Num  `json:"values"`
}

// Pair is B compared with A.
type Pair struct {
	A string `json:"a"`
	B string `json:"b"`
	// Verdict is one of BDominates, ADominates, Crossing,
	// Indistinguishable and Inconclusive.
	Verdict string `json:"verdict"`
	// Status says whether B regressed against A beyond the noise bands
	// (Regression), cannot be ruled to (RegressionUnsettled) or did not.
	Status string `json:"status"`
	// Reasons explain the verdict, most important first.
	Reasons     []string `json:"reasons"`
	Hypervolume HVChange `json:"hypervolume"`
	// Leads are the points of each side on the noise-aware frontier of
	// both sides that the other side does not reach within the bands, and
	// Reach compares how far each side reaches on every objective: the
	// claims the verdict is made of (established or unsettled ones; those
	// ruled out are left out).
	Leads Leads   `json:"leads"`
	Reach []Reach `json:"reach"`
	// Uplift is the uplift curve and buckets (two objectives only).
	Uplift *Uplift `json:"uplift,omitempty"`
	// Baseline is the baseline's drift between the sides, compared first
	// (with a baseline selection).
	Baseline *decide.DriftReport `json:"baseline,omitempty"`
}

// Leads are each side's leading points.
type Leads struct {
	A []Lead `json:"a"`
	B []Lead `json:"b"`
}

// Lead is a point of one side on the noise-aware frontier of both sides
// that no point of the other side reaches within the noise bands: at the
// point estimates (Estimate) and in Share of the resamples. Status is
// "established" (at the estimates and in at least the confidence level
// of the resamples) or "unsettled".
type Lead struct {
	ID       string `json:"id"`
	Values   []Num  `json:"values"`
	Estimate bool   `json:"estimate"`
	Share    Num    `json:"share"`
	Status   string `json:"status"`
}

// Reach is the best value each side reaches on one objective. Status is
// better when B reaches further than A beyond the noise band (established
// as a Lead is), worse when A does, the same when neither may, else
// uncertain; ShareA and ShareB are the shares of resamples in which A (B)
// reaches further.
type Reach struct {
	Objective string `json:"objective"`
	A         Num    `json:"a"`
	B         Num    `json:"b"`
	Change    Num    `json:"change"`
	ShareA    Num    `json:"share_a"`
	ShareB    Num    `json:"share_b"`
	Status    string `json:"status"`
}

// HVChange is the hypervolume of each side against the common reference
// and B's relative change, with its bootstrap interval.
type HVChange struct {
	A        Num    `json:"a"`
	B        Num    `json:"b"`
	Change   Num    `json:"change"`
	Interval [2]Num `json:"interval"`
}

// Uplift is B's best Y at each X relative to A's (two objectives: X is the
// first, Y the second).
type Uplift struct {
	X string `json:"x"`
	Y string `json:"y"`
	// SpanA and SpanB are the X ranges of the frontiers.
	SpanA [2]Num `json:"span_a"`
	SpanB [2]Num `json:"span_b"`
	// Reach compares the best X each frontier reaches.
	Reach Change `json:"reach"`
	// Curve holds B against A at every X of either frontier within both
	// spans, ascending.
	Curve []Change `json:"curve"`
	// Buckets are the values at the X asked for.
	Buckets []Bucket `json:"buckets"`
	// Crossings say where the lead changes.
	Crossings []Crossover `json:"crossings"`
}

// Change is B against A at one X: each side's value, B's relative change
// with its interval, and its status.
type Change struct {
	X        Num    `json:"x"`
	A        Num    `json:"a"`
	B        Num    `json:"b"`
	Change   Num    `json:"change"`
	Interval [2]Num `json:"interval"`
	Status   string `json:"status"`
}

// Bucket is both frontiers read at one X asked for.
type Bucket struct {
	X        Num     `json:"x"`
	A        Reading `json:"a"`
	B        Reading `json:"b"`
	Change   Num     `json:"change"`
	Interval [2]Num  `json:"interval"`
	Status   string  `json:"status"`
}

// Reading is one frontier's Y at an X: measured (a frontier point lies
// there) or interpolated, or outside its span (no value).
type Reading struct {
	Value        Num    `json:"value"`
	Interval     [2]Num `json:"interval"`
	Interpolated bool   `json:"interpolated"`
	// Outside is "below" or "above" when X is outside the span.
	Outside string `json:"outside,omitempty"`
}

// Crossover is a change of lead along X: Below leads at lower X, Above at
// higher X; At is where the frontiers cross and Range the X of the last
// and first comparisons that establish each lead.
type Crossover struct {
	At    Num    `json:"at"`
	Range [2]Num `json:"range"`
	Below string `json:"below"`
	Above string `json:"above"`
}
