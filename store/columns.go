package store

import (
	"strings"
	"time"
)

// trialColumns are the written columns of the trials table, in the order
// bindTrial binds their values (id is not among them).
var trialColumns = []string{
	"study_id", "hash", "source_path", "source_format", "source_format_version", "source_line", "source_index",
	"labels", "params", "input_tokens", "output_tokens", "mean_input_tokens", "mean_output_tokens",
	"concurrency", "achieved_concurrency", "request_rate", "users", "requests", "succeeded", "failed",
	"problem", "warnings", "engine", "engine_version", "cuda", "driver", "gpu", "host", "ingested_at", "measurements",
}

// sqliteTrialColumns are trialColumns and the SQLite store's hkey.
var sqliteTrialColumns = append(append([]string{}, trialColumns...), "hkey")

// readColumns are the trials columns Trials reads, in scan order.
const readColumns = `id, hash, source_path, source_format, source_format_version, source_line, source_index,
	labels, params, input_tokens, output_tokens, mean_input_tokens, mean_output_tokens,
	concurrency, achieved_concurrency, request_rate, users, requests, succeeded, failed, problem, warnings,
	measurements`

// valuesList renders "(?,?,?),(?,?,?)" for rows of n columns, or with
// numbered placeholders "($1,$2),($3,$4)" when numbered is set.
func valuesList(rows, n int, numbered bool) string {
	var sb strings.Builder
	k := 1
	for r := range rows {
		if r > 0 {
			sb.WriteByte(',')
		}
		sb.WriteByte('(')
		for c := range n {
			if c > 0 {
				sb.WriteByte(',')
			}
			if numbered {
				sb.WriteByte('$')
				sb.WriteString(itoa(k))
				k++
			} else {
				sb.WriteByte('?')
			}
		}
		sb.WriteByte(')')
	}
	return sb.String()
}

func itoa(i int) string {
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

// sqliteTime renders t the way the SQLite store keeps times.
func sqliteTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// parseSQLiteTime reads a time written by sqliteTime; zero if unparsable.
func parseSQLiteTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
