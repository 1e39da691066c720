package compare

import (
	"cmp"
	"math"
	"slices"

	"github.com/pareto-llm/pareto/frontier"
)

// Interpolation says how a frontier's Y is read at an X between its
// points.
type Interpolation int8

const (
	// Step reads the best Y of a point whose X is at least as good as the
	// X asked (the frontier as a staircase): what a measured
	// configuration achieves there. It is exact on a piecewise-constant
	// frontier.
	Step Interpolation = iota
	// Linear interpolates linearly between the two frontier points
	// around the X asked, as InferenceX reads throughput at a fixed
	// interactivity.
	Linear
)

// String returns "step" or "linear".
func (i Interpolation) String() string {
	if i == Linear {
		return "linear"
	}
	return "step"
}

// ParseInterpolation reads "step" or "linear".
func ParseInterpolation(s string) (Interpolation, bool) {
	switch s {
	case "step":
		return Step, true
	case "linear":
		return Linear, true
	}
	return Step, false
}

// Curve is a 2-objective frontier as a function Y(X): its points sorted
// by ascending X, each strictly better on Y than every point with a worse
// X (the staircase of the strict frontier, duplicates removed).
type Curve struct {
	X, Y []float64
	// xMax and yMax say which way each axis is better.
	xMax, yMax bool
}

// NewCurve returns the curve of the points (xs[i], ys[i]); non-finite
// points are ignored.
func NewCurve(xs, ys []float64, x, y frontier.Objective) Curve {
	c := Curve{xMax: x.Direction == frontier.Maximize, yMax: y.Direction == frontier.Maximize}
	idx := make([]int, 0, len(xs))
	for i := range xs {
		if finite(xs[i]) && finite(ys[i]) {
			idx = append(idx, i)
		}
	}
	// Best X first, ties best Y first; keep a point when its Y beats every
	// Y seen (the sweep of the 2D strict frontier).
	slices.SortFunc(idx, func(a, b int) int {
		if d := c.cmpX(xs[b], xs[a]); d != 0 {
			return d
		}
		return c.cmpY(ys[b], ys[a])
	})
	for _, i := range idx {
		if n := len(c.X); n > 0 && c.cmpY(ys[i], c.Y[n-1]) <= 0 {
			continue
		}
		c.X, c.Y = append(c.X, xs[i]), append(c.Y, ys[i])
	}
	if c.xMax { // best X first is descending X: reverse to ascending
		slices.Reverse(c.X)
		slices.Reverse(c.Y)
	}
	return c
}

// cmpX compares a and b on X, positive when a is better.
func (c *Curve) cmpX(a, b float64) int {
	if c.xMax {
		return cmp.Compare(a, b)
	}
	return cmp.Compare(b, a)
}

// cmpY compares a and b on Y, positive when a is better.
func (c *Curve) cmpY(a, b float64) int {
	if c.yMax {
		return cmp.Compare(a, b)
	}
	return cmp.Compare(b, a)
}

// Len returns the number of frontier points.
func (c *Curve) Len() int { return len(c.X) }

// Span returns the lowest and highest X of the curve (NaN when empty).
func (c *Curve) Span() (lo, hi float64) {
	if len(c.X) == 0 {
		return math.NaN(), math.NaN()
	}
	return c.X[0], c.X[len(c.X)-1]
}

// Best returns the best X the curve reaches (NaN when empty).
func (c *Curve) Best() float64 {
	lo, hi := c.Span()
	if c.xMax {
		return hi
	}
	return lo
}

// Outside says where x lies against the span: "below", "above" or "" when
// within it (or the curve is empty: then At is NaN anyway).
func (c *Curve) Outside(x float64) string {
	lo, hi := c.Span()
	switch {
	case x < lo:
		return "below"
	case x > hi:
		return "above"
	}
	return ""
}

// Measured reports whether a frontier point lies exactly at x.
func (c *Curve) Measured(x float64) bool {
	_, found := slices.BinarySearch(c.X, x)
	return found
}

// At returns Y at x read with interp, x clamped to the span (NaN for an
// empty curve). Step reads the point with the nearest X at least as good
// as x; Linear interpolates between the points around x.
func (c *Curve) At(x float64, interp Interpolation) float64 {
	n := len(c.X)
	if n == 0 || math.IsNaN(x) {
		return math.NaN()
	}
	lo, hi := c.X[0], c.X[n-1]
	x = min(max(x, lo), hi)
	i, found := slices.BinarySearch(c.X, x) // c.X[i] >= x
	if found {
		return c.Y[i]
	}
	// c.X[i-1] < x < c.X[i], 1 <= i < n.
	if interp == Linear {
		x0, x1, y0, y1 := c.X[i-1], c.X[i], c.Y[i-1], c.Y[i]
		return y0 + (y1-y0)*(x-x0)/(x1-x0)
	}
	if c.xMax {
		return c.Y[i]
	}
	return c.Y[i-1]
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
