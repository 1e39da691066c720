package frontier

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteSchwartz is the O(n²) reference: the union of the strongly connected
// components of {a→b : a beats b} that no outside point beats, computed from
// the transitive closure.
func bruteSchwartz(data []float64, objs []Objective) []bool {
	k := len(objs)
	n := len(data) / k
	reach := make([][]bool, n)
	for a := range n {
		reach[a] = make([]bool, n)
		for b := range n {
			reach[a][b] = a != b && Beats(data[a*k:a*k+k], data[b*k:b*k+k], objs)
		}
	}
	for m := range n {
		for a := range n {
			if reach[a][m] {
				for b := range n {
					reach[a][b] = reach[a][b] || reach[m][b]
				}
			}
		}
	}
	in := make([]bool, n)
	for b := range n {
		in[b] = true
		for a := range n {
			// a reaches b but b does not reach a: b's component is entered.
			if reach[a][b] && !reach[b][a] {
				in[b] = false
				break
			}
		}
	}
	return in
}

func randomObjectives(rng *rand.Rand, k int, cyclic bool) []Objective {
	objs := make([]Objective, k)
	for i := range objs {
		objs[i].Name = fmt.Sprintf("o%d", i)
		if rng.IntN(2) == 0 {
			objs[i].Direction = Maximize
		}
		switch rng.IntN(4) {
		case 0: // no band on this objective
		default:
			objs[i].Noise = []float64{0.02, 0.05, 0.1}[rng.IntN(3)]
			if cyclic {
				objs[i].MinImprove = []float64{0, 0.01, 0.02}[rng.IntN(3)]
			} else {
				objs[i].MinImprove = []float64{0.1, 0.2, 0.3}[rng.IntN(3)]
			}
		}
	}
	return objs
}

func clusteredPoints(rng *rand.Rand, n, k int) []float64 {
	data := make([]float64, n*k)
	for i := range data {
		data[i] = 1 + float64(rng.IntN(25))/100 // many ties, tight cluster
	}
	for i := 0; i+2*k <= len(data) && rng.IntN(3) == 0; i += 2 * k {
		copy(data[i+k:i+2*k], data[i:i+k]) // exact duplicates
	}
	return data
}

func TestNoiseFrontMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tied := 0
	for trial := range 600 {
		k := 2 + trial%4
		n := 1 + rng.IntN(60)
		objs := randomObjectives(rng, k, trial%2 == 0)
		data := clusteredPoints(rng, n, k)
		res := NoiseFront(data, objs)
		want := bruteSchwartz(data, objs)
		for i, d := range res.By {
			if (d < 0) != want[i] {
				t.Fatalf("trial %d k=%d objs=%+v: point %d %v on frontier=%v, want %v",
					trial, k, objs, i, data[i*k:i*k+k], d < 0, want[i])
			}
			if d >= 0 && !Beats(data[int(d)*k:int(d)*k+k], data[i*k:i*k+k], objs) {
				t.Fatalf("trial %d: reported beater %d does not beat %d", trial, d, i)
			}
			if d >= 0 && res.By[d] >= 0 {
				for f, fd := range res.By {
					if fd < 0 && Beats(data[f*k:f*k+k], data[i*k:i*k+k], objs) {
						t.Fatalf("trial %d: point %d explained by off-frontier %d though frontier %d beats it", trial, i, d, f)
					}
				}
			}
		}
		if slices.Index(res.By, -1) < 0 && n > 0 {
			t.Fatalf("trial %d: empty frontier", trial)
		}
		if len(res.Tied) > 0 {
			tied++
		}
	}
	if tied < 20 {
		t.Fatalf("only %d of 600 instances had top cycles; the generator no longer exercises cycles", tied)
	}
	t.Logf("%d of 600 instances had top cycles", tied)
}

func TestNoiseFrontLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, k := range []int{2, 3, 4} {
		for _, cyclic := range []bool{false, true} {
			objs := randomObjectives(rng, k, cyclic)
			data := clusteredPoints(rng, 400, k)
			for i := range data {
				data[i] += rng.Float64() / 10
			}
			res := NoiseFront(data, objs)
			want := bruteSchwartz(data, objs)
			for i, d := range res.By {
				if (d < 0) != want[i] {
					t.Fatalf("k=%d cyclic=%v: point %d on frontier=%v, want %v", k, cyclic, i, d < 0, want[i])
				}
			}
		}
	}
}

func TestMutualPairIsNoiseTied(t *testing.T) {
	objs := []Objective{{Name: "a", Noise: 0.1, MinImprove: 0.04}, {Name: "b", Noise: 0.1, MinImprove: 0.04}}
	data := []float64{1, 1.05, 1.05, 1}
	res := NoiseFront(data, objs)
	if res.By[0] != -1 || res.By[1] != -1 {
		t.Fatalf("By = %v, want both on the frontier", res.By)
	}
	if !res.Cyclic || len(res.Tied) != 1 || !slices.Equal(res.Tied[0], []int32{0, 1}) {
		t.Fatalf("Cyclic=%v Tied=%v, want one tied pair", res.Cyclic, res.Tied)
	}
}

func TestAcyclicMinImprove(t *testing.T) {
	for _, tt := range []struct {
		k     int
		sigma float64
		want  float64
	}{{2, 0.05, 0.0476}, {3, 0.05, 0.0930}, {4, 0.05, 0.1362}, {5, 0.05, 0.1773}} {
		objs := make([]Objective, tt.k)
		for i := range objs {
			objs[i].Noise = tt.sigma
		}
		got := AcyclicMinImprove(objs)
		if got < tt.want-0.0005 || got > tt.want+0.0005 {
			t.Errorf("k=%d σ=%v: AcyclicMinImprove = %.4f, want %.4f", tt.k, tt.sigma, got, tt.want)
		}
		for i := range objs {
			objs[i].MinImprove = got + 1e-9
		}
		if s := CycleSum(objs); s > 1+1e-9 {
			t.Errorf("k=%d: CycleSum at the suggested δ = %v, want <= 1", tt.k, s)
		}
	}
}
