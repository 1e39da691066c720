package store

import (
	"strings"
	"time"
)

// trialColumns are the written columns of the trials table, in the order
// trialArgs appends their values (id is not among them).
var trialColumns = []string{
	"study_id", "hash", "source_path", "source_format", "source_format_version", "source_line", "source_index",
	"labels", "params", "input_tokens", "output_tokens", "mean_input_tokens", "mean_output_tokens",
	"concurrency", "achieved_concurrency", "request_rate", "users", "requests", "succeeded", "failed",
	"problem", "warnings", "engine", "engine_version", "cuda", "driver", "gpu", "host", "ingested_at",
}

// measurementColumns are the columns of the measurements table, in the
// order measurementArgs appends their values.
var measurementColumns = []string{"trial_id", "seq", "metric", "dims", "value", "unit", "native", "source_unit"}

// readColumns are the trials columns Trials reads, in scan order.
const readColumns = `id, hash, source_path, source_format, source_format_version, source_line, source_index,
	labels, params, input_tokens, output_tokens, mean_input_tokens, mean_output_tokens,
	concurrency, achieved_concurrency, request_rate, users, requests, succeeded, failed, problem, warnings`

// trialArgs appends the values of trialColumns for p; ingested is the
// dialect's rendering of the ingest time.
func trialArgs(args []any, studyID int64, p *prepared, ingested any) []any {
	t := p.t
	w := &t.Workload
	e := env(t)
	return append(args, studyID, p.id, t.Source.Path, t.Source.Format, t.Source.FormatVersion,
		int64(t.Source.Line), int64(t.Source.Index), encodeMap(t.Labels), encodeMap(t.Params),
		nullable(w.InputTokens), nullable(w.OutputTokens), nullable(w.MeanInputTokens), nullable(w.MeanOutputTokens),
		nullable(w.Concurrency), nullable(w.AchievedConcurrency), nullable(w.RequestRate), nullable(w.Users),
		w.Requests, t.Succeeded, t.Failed, t.Problem, encodeList(t.Warnings),
		e[0], e[1], e[2], e[3], e[4], e[5], ingested)
}

// measurementArgs appends the values of measurementColumns for the j-th
// measurement of p, stored under trial row id.
func measurementArgs(args []any, id int64, p *prepared, j int) []any {
	m := &p.t.Measurements[j]
	return append(args, id, int64(j), m.Metric, p.dims[j], nullable(m.Value), m.Unit, m.Native, m.SourceUnit)
}

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
