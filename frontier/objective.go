package frontier

import (
	"fmt"
	"strings"
)

// Direction says whether an objective is minimised or maximised.
type Direction int8

const (
	// Minimize prefers smaller values (latencies, GPU count).
	Minimize Direction = iota
	// Maximize prefers larger values (throughput, accuracy).
	Maximize
)

// String returns "minimize" or "maximize".
func (d Direction) String() string {
	if d == Maximize {
		return "maximize"
	}
	return "minimize"
}

// ParseDirection accepts min, minimize, minimise, max, maximize and maximise.
func ParseDirection(s string) (Direction, error) {
	switch strings.ToLower(s) {
	case "min", "minimize", "minimise":
		return Minimize, nil
	case "max", "maximize", "maximise":
		return Maximize, nil
	}
	return Minimize, fmt.Errorf("unknown direction %q (want min or max)", s)
}

// Objective is one axis of the trade-off.
type Objective struct {
	// Name identifies the objective (a column or metric selector).
	Name string
	// Direction says which way is better.
	Direction Direction
	// Noise is the relative noise band σ (0.15 means 15%); zero means none.
	Noise float64
	// MinImprove is the relative minimum improvement δ in [0, 1) that counts
	// as a meaningful win; zero means any strict improvement.
	MinImprove float64
}

// Relative reports whether the objective uses a relative band, in which
// case only strictly positive values are valid.
func (o Objective) Relative() bool { return o.Noise != 0 || o.MinImprove != 0 }
