package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/query"
	"github.com/pareto-llm/pareto/trial"
)

// Match dimensions. statistic applies to distribution metrics only; phase
// and benchmark to every metric (they also name the point's AIPerf phase
// and benchmark tool).
var (
	pointDims = []string{trial.DimBenchmark, trial.DimPhase}
	distDims  = []string{trial.DimBenchmark, trial.DimPhase, trial.DimStatistic}
)

// distribution metrics have a statistic dimension.
var distribution = map[string]bool{
	trial.TTFT: true, trial.TTST: true, trial.TTFOT: true, trial.TPOT: true, trial.ITL: true, trial.E2EL: true,
	trial.OutputTokenThroughputPerUser: true, trial.TotalTokenThroughputPerUser: true,
	trial.InputSequenceLength: true, trial.OutputSequenceLength: true,
}

// MatchKeys returns the match dimensions a metric accepts, sorted.
func MatchKeys(metric string) []string {
	if distribution[metric] {
		return distDims
	}
	return pointDims
}

// metricKeys lists the registry keys for error messages.
func metricKeys() string {
	var keys []string
	for _, m := range trial.Metrics() {
		keys = append(keys, m.Key)
	}
	return strings.Join(keys, ", ")
}

// axis decodes x or y: { metric, match, direction, noise, min_improve, log }.
func (d *decoder) axis(path string, v any, objective bool) Axis {
	a := Axis{At: d.ix[path]}
	if v == nil {
		d.errorf(parentOf(path), "missing %s", lastPart(path))
		return a
	}
	m, ok := d.table(path, v)
	if !ok {
		return a
	}
	allowed := []string{"metric", "match"}
	if objective {
		allowed = append(allowed, "direction", "noise", "min_improve", "log")
	}
	d.keys(path, m, allowed...)
	a.Metric = d.str(join(path, "metric"), m["metric"], true)
	if a.Metric == "" {
		return a
	}
	reg, known := trial.Lookup(a.Metric)
	if !known {
		// A column of the user's own table, say: checked against the data
		// once it is read (Config.CheckMetrics); it needs a direction.
		a.Custom, a.MetricAt = true, d.ix[join(path, "metric")]
		if _, ok := m["direction"]; objective && !ok {
			d.errorf(join(path, "metric"), "unknown metric %q (available metrics: %s; a column of your own table needs direction = \"minimize\" or \"maximize\")", a.Metric, metricKeys())
			return a
		}
	}
	a.Unit, a.Direction = reg.Unit, reg.Direction
	a.Match = d.match(join(path, "match"), m["match"], a.Metric, MatchKeys(a.Metric))
	if !objective {
		return a
	}
	if v, ok := m["direction"]; ok {
		a.Direction = d.direction(join(path, "direction"), v)
	} else if !reg.Ranked && known {
		d.errorf(join(path, "metric"), "metric %q has no default direction: set direction = \"minimize\" or \"maximize\"", a.Metric)
	}
	a.Noise = d.fraction(join(path, "noise"), m["noise"], query.NoiseBand)
	a.MinImprove = d.fraction(join(path, "min_improve"), m["min_improve"], query.MinImprove)
	if v, ok := m["log"]; ok {
		a.Log = d.boolean(join(path, "log"), v)
		a.logGiven = true
	}
	return a
}

// match decodes a match table against the metric's dimensions.
func (d *decoder) match(path string, v any, metric string, allowed []string) trial.Dims {
	if v == nil {
		return nil
	}
	m, ok := d.table(path, v)
	if !ok {
		return nil
	}
	var dims trial.Dims
	for _, k := range slices.Sorted(maps.Keys(m)) {
		kp := join(path, k)
		if !slices.Contains(allowed, k) {
			what := "metric " + strconv.Quote(metric)
			if metric == "" {
				what = "a frontier"
			}
			d.errorf(kp, "match key %q is not a dimension of %s (allowed: %s)", k, what, strings.Join(allowed, ", "))
			continue
		}
		val := d.str(kp, m[k], true)
		if k == trial.DimStatistic && val != "" {
			st, err := trial.ParseStatistic(val)
			if err != nil {
				d.errorf(kp, "%v", err)
				continue
			}
			val = st
		}
		dims = append(dims, trial.Dim{Key: k, Value: val})
	}
	return dims
}

// pointMatch decodes a frontier's match: point context only.
func (d *decoder) pointMatch(path string, v any) trial.Dims {
	return d.match(path, v, "", pointDims)
}

// slos decodes slo = [{ metric, match, max | min }] (extension).
func (d *decoder) slos(path string, v any) []SLOSpec {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		d.errorf(path, "slo must be an array of tables such as [{ metric = \"ttft\", match = { statistic = \"p99\" }, max = 400 }]")
		return nil
	}
	var out []SLOSpec
	for i, el := range list {
		p := join(path, itoa(i))
		m, ok := d.table(p, el)
		if !ok {
			continue
		}
		bounds := map[string]any{}
		rest := map[string]any{}
		for k, v := range m {
			if k == "max" || k == "min" {
				bounds[k] = v
			} else {
				rest[k] = v
			}
		}
		s := SLOSpec{Axis: d.axis(p, rest, false)}
		if len(bounds) != 1 {
			d.errorf(p, "slo needs exactly one of max or min")
			continue
		}
		for k, v := range bounds {
			s.Op = map[string]frontier.Op{"max": frontier.LE, "min": frontier.GE}[k]
			s.Bound = d.number(join(p, k), v)
		}
		out = append(out, s)
	}
	return out
}

// direction decodes minimize/maximize (also min/max).
func (d *decoder) direction(path string, v any) frontier.Direction {
	s := d.str(path, v, true)
	dir, err := frontier.ParseDirection(s)
	if err != nil && s != "" {
		d.errorf(path, "unknown direction %q (want \"minimize\" or \"maximize\")", s)
	}
	return dir
}

// fraction decodes a relative band of kind k: 0.05 or "5%"
// (query.ParseBand, the one band parser, and query.CheckBand for numbers).
func (d *decoder) fraction(path string, v any, k query.BandKind) float64 {
	if v == nil {
		return 0
	}
	var f float64
	var err error
	if s, ok := v.(string); ok {
		f, err = query.ParseBand(s, k)
	} else {
		n := len(d.errs)
		if f = d.number(path, v); len(d.errs) > n {
			return 0 // not a finite number: reported
		}
		err = query.CheckBand(f, k)
	}
	if err != nil {
		d.errorf(path, "%s %s", lastPart(path), err)
		return 0
	}
	return f
}

// keys reports every key of m not in allowed.
func (d *decoder) keys(path string, m map[string]any, allowed ...string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(allowed, k) {
			d.errorf(join(path, k), "unknown key %q (allowed: %s)", k, strings.Join(allowed, ", "))
		}
	}
}

// table asserts a table value; nil is reported as missing.
func (d *decoder) table(path string, v any) (map[string]any, bool) {
	if v == nil {
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		d.errorf(path, "%s must be a table, got %s", lastPart(path), typeName(v))
	}
	return m, ok
}

// str asserts a string; required reports an absent value.
func (d *decoder) str(path string, v any, required bool) string {
	if v == nil {
		if required {
			d.errorf(parentOf(path), "missing %s", lastPart(path))
		}
		return ""
	}
	s, ok := v.(string)
	if !ok {
		d.errorf(path, "%s must be a string, got %s", lastPart(path), typeName(v))
	} else if strings.TrimSpace(s) == "" && required {
		d.errorf(path, "%s must not be empty", lastPart(path))
	}
	return s
}

// strList decodes an array of strings with element positions.
func (d *decoder) strList(path string, v any) ([]string, []Pos) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		d.errorf(path, "%s must be an array of strings, got %s", lastPart(path), typeName(v))
		return nil, nil
	}
	var out []string
	var pos []Pos
	for i, el := range list {
		p := join(path, itoa(i))
		if s := d.str(p, el, true); s != "" {
			out, pos = append(out, s), append(pos, d.ix[p])
		}
	}
	return out, pos
}

func (d *decoder) boolean(path string, v any) bool {
	b, ok := v.(bool)
	if !ok {
		d.errorf(path, "%s must be true or false, got %s", lastPart(path), typeName(v))
	}
	return b
}

func (d *decoder) number(path string, v any) float64 {
	switch n := v.(type) {
	case int64:
		return float64(n)
	case float64:
		if !math.IsNaN(n) && !math.IsInf(n, 0) {
			return n
		}
	}
	d.errorf(path, "%s must be a finite number, got %s", lastPart(path), typeName(v))
	return 0
}

func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64, float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}

// lastPart returns the last key of a path, skipping array indices.
func lastPart(path string) string {
	parts := strings.Split(path, ".")
	for i := len(parts) - 1; i >= 0; i-- {
		if _, err := strconv.Atoi(parts[i]); err != nil {
			return parts[i]
		}
	}
	return path
}

func parentOf(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i]
	}
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }
