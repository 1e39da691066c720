package codec

import (
	"time"
)

// ReadColumns are the trials columns Trials reads, in scan order (see
// newTrialRow).
const ReadColumns = `id, hash, source_path, source_format, source_format_version, source_line, source_index, source_key,
	labels, params, input_tokens, output_tokens, mean_input_tokens, mean_output_tokens,
	concurrency, achieved_concurrency, request_rate, users, requests, succeeded, failed, problem, warnings,
	measurements, layout, allocated_gpus, allocated_gpus_unknown, serving_gpus, serving_gpus_unknown, config_path, config,
	content_id, checksum, session`

// Itoa formats a non-negative i in decimal.
func Itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(b[n:])
		}
	}
}

// SQLiteTime renders t the way the SQLite store keeps times.
func SQLiteTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// ParseSQLiteTime reads a time written by SQLiteTime; zero if unparsable.
func ParseSQLiteTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
