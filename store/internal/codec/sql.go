package codec

import (
	"time"
)

// ReadColumns are the columns Trials reads, in scan order (see
// newTrialRow), from the trials joined with their origins (TrialsSelect).
const ReadColumns = `trials.id, hash, o.path, o.format, o.format_version, source_line, source_index, o.file_key,
	labels, params, input_tokens, output_tokens, mean_input_tokens, mean_output_tokens,
	concurrency, achieved_concurrency, request_rate, users, requests, succeeded, failed, problem, warnings,
	measurements, layout, allocated_gpus, allocated_gpus_unknown, serving_gpus, serving_gpus_unknown, config_path, config,
	content_id, checksum, o.session, param_refs`

// TrialsSelect selects ReadColumns of the trials with their origins; the
// caller adds the WHERE clause, on columns of trials (origins has none of
// their names). In SQLite (numbered false), the join is a CROSS JOIN: the
// trials are the outer loop, each origin a lookup by its primary key.
func TrialsSelect(numbered bool) string {
	if numbered {
		return `SELECT ` + ReadColumns + ` FROM trials JOIN origins o ON o.origin = trials.origin_id`
	}
	return `SELECT ` + ReadColumns + ` FROM trials CROSS JOIN origins o ON o.origin = trials.origin_id`
}

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
