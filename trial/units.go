package trial

import "strings"

// NormalizeUnit converts value from the source unit to pareto's normalised
// unit: time to milliseconds, "…/sec" rates to "…/s". Unknown units are
// returned unchanged.
func NormalizeUnit(value float64, unit string) (float64, string) {
	switch strings.ToLower(strings.TrimSpace(unit)) {
	case "ms", "msec", "millisecond", "milliseconds":
		return value, UnitMs
	case "s", "sec", "secs", "second", "seconds":
		return value * 1e3, UnitMs
	case "us", "µs", "usec", "microsecond", "microseconds":
		return value / 1e3, UnitMs
	case "ns", "nsec", "nanosecond", "nanoseconds":
		return value / 1e6, UnitMs
	case "requests/sec", "requests/s", "req/s", "requests per second":
		return value, UnitReqPerS
	case "requests/min", "req/min", "requests per minute":
		return value / 60, UnitReqPerS
	case "tokens/sec", "tokens/s", "tok/s", "tokens per second":
		return value, UnitTokensPerS
	case "tokens/sec/user", "tokens/s/user":
		return value, UnitTokPerSUser
	case "tokens/sec/gpu", "tokens/s/gpu":
		return value, UnitTokPerSGPU
	case "requests", "request":
		return value, UnitRequests
	case "tokens", "token":
		return value, UnitTokens
	}
	return value, unit
}
