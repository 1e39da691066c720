package ingest

import "github.com/pareto-llm/pareto/trial"

// statInfo is a normalised statistic, its shared dims and their fixed
// records dims index (0 when not fixed).
type statInfo struct {
	stat string
	dims trial.Dims
	id   uint32
}

// commonStatNames are the statistic names of AIPerf and GenAI-Perf
// blocks; commonStats holds them normalised once by
// trial.NormalizeStatistic, and fixedDims holds nil (index noDims) and
// their dims.
var commonStatNames = []string{"avg", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99",
	"p99.9", "min", "max", "std", "count", "sum", "mean", "median"}

var commonStats, fixedDims = func() ([]statInfo, []trial.Dims) {
	stats, fixed := []statInfo{}, []trial.Dims{nil}
	for _, n := range commonStatNames {
		st, _ := trial.NormalizeStatistic(n)
		fixed = append(fixed, trial.StatDims(st))
		stats = append(stats, statInfo{st, fixed[len(fixed)-1], uint32(len(fixed) - 1)})
	}
	return stats, fixed
}()

// commonStatIndex returns the index of name in commonStatNames, or -1.
// It switches on the name packed into an integer (statKey), which is much
// cheaper than a string switch.
func commonStatIndex(name []byte) int {
	switch statKey(name) {
	case 0x0300000000677661: // avg
		return 0
	case 0x0200000000003170: // p1
		return 1
	case 0x0200000000003570: // p5
		return 2
	case 0x0300000000303170: // p10
		return 3
	case 0x0300000000353270: // p25
		return 4
	case 0x0300000000303570: // p50
		return 5
	case 0x0300000000353770: // p75
		return 6
	case 0x0300000000303970: // p90
		return 7
	case 0x0300000000353970: // p95
		return 8
	case 0x0300000000393970: // p99
		return 9
	case 0x050000392e393970: // p99.9
		return 10
	case 0x03000000006e696d: // min
		return 11
	case 0x030000000078616d: // max
		return 12
	case 0x0300000000647473: // std
		return 13
	case 0x050000746e756f63: // count
		return 14
	case 0x03000000006d7573: // sum
		return 15
	case 0x040000006e61656d: // mean
		return 16
	case 0x06006e616964656d: // median
		return 17
	}
	return -1
}

// statKey packs a name of up to 7 bytes into an integer with its length
// in the top byte; longer names give 0.
func statKey(name []byte) uint64 {
	if len(name) > 7 {
		return 0
	}
	k := uint64(len(name)) << 56
	for i, c := range name {
		k |= uint64(c) << (8 * i)
	}
	return k
}

// lookupStat is trial.NormalizeStatistic for a block member name.
func lookupStat(name []byte) (statInfo, bool) {
	if i := commonStatIndex(name); i >= 0 {
		return commonStats[i], true
	}
	st, ok := trial.NormalizeStatistic(string(name))
	return statInfo{stat: st}, ok
}
