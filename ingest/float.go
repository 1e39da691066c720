package ingest

import "github.com/pareto-llm/pareto/internal/decimal"

// exactFloat returns mant * 10^q correctly rounded, as strconv.ParseFloat
// would, when decimal.Float has an exact method for it; ok is false
// otherwise and the caller falls back to strconv.ParseFloat.
func exactFloat(mant uint64, q, _ int, neg bool) (float64, bool) {
	return decimal.Float(mant, q, neg)
}
