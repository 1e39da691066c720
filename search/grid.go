package search

import (
	"fmt"
	"math/rand/v2"
)

// gridOrder visits every configuration of a grid once, in a seeded order:
// position p of the N combinations of the parameters' values is
// combination (a·p + b) mod N, with a coprime to N, so that a budget
// smaller than the grid still spreads over it. Combinations that give an
// inactive parameter a value other than its first, and infeasible ones,
// are skipped.
type gridOrder struct {
	radix []uint64 // values per parameter
	n     uint64   // combinations
	a, b  uint64
}

func newGridOrder(space *Space, seed uint64) (*gridOrder, error) {
	g := &gridOrder{n: 1}
	for i := range space.Params {
		p := &space.Params[i]
		r := uint64(p.count())
		if r == 0 {
			return nil, fmt.Errorf("search: the grid needs values or a step for the float parameter %s", p.Name)
		}
		g.radix = append(g.radix, r)
		if g.n > MaxGrid/r {
			return nil, fmt.Errorf("search: the grid has more than %d configurations", MaxGrid)
		}
		g.n *= r
	}
	rng := rand.New(rand.NewPCG(seed, 0x67726964)) // "grid"
	for {
		g.a = 1 + rng.Uint64N(g.n)
		if gcd(g.a%g.n, g.n) == 1 || g.n == 1 {
			break
		}
	}
	g.b = rng.Uint64N(g.n)
	return g, nil
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// next returns the next configuration of the grid not asked yet.
func (g *gridOrder) next(s *Study) ([]float64, Config, error) {
	values := make([]Value, len(g.radix))
	genes := make([]float64, len(g.radix))
outer:
	for s.next < g.n {
		idx := (g.a*s.next + g.b) % g.n
		s.next++
		c := Config{}
		for i := len(g.radix) - 1; i >= 0; i-- {
			d := idx % g.radix[i]
			idx /= g.radix[i]
			genes[i] = float64(d)
		}
		for i := range s.space.Params {
			p := &s.space.Params[i]
			d := int(genes[i])
			if p.Kind == Categorical {
				values[i] = p.Values[d]
			} else {
				values[i] = p.gridValue(d)
			}
			genes[i] = p.toCoord(values[i])
			if !p.active(c) {
				if d != 0 {
					continue outer
				}
				continue
			}
			c[p.Name] = values[i]
		}
		if s.space.Feasible(c) && !s.asked[c.Key()] {
			return genes, c, nil
		}
	}
	return nil, nil, ErrExhausted
}
