package ingest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/internal/textin"
	"github.com/pareto-llm/pareto/trial"
)

// readPerfCSV reads profile_export_aiperf.csv and profile_export_genai_perf.csv
// (the fallback when no JSON exists): tables whose header row starts with
// "Metric"; "Metric,Value" rows are scalars; GPU telemetry tables (header
// "Endpoint,...") are skipped. Columns are mapped by name, never by
// position (GenAI-Perf writes percentiles in descending order); thousands
// separators are stripped and "N/A" or empty cells are missing values.
//
// A truncated file is an error, not a smaller trial, wherever the cut
// shows: a last line without its line end (a row or a number cut in the
// middle, see perfCSVTruncation), a row with fewer fields than its header,
// a "Metric" section without rows, or statistics without the
// "Metric,Value" section that always follows them. A "Metric,Value"
// section that ends cleanly is complete, with or without a Request Count
// row (GenAI-Perf wrote none in 2024): a file cut exactly between two of
// its rows cannot be told from a complete one, the tools write no end mark.
func readPerfCSV(data []byte, src *source, f Format, maxRecord int) ([]trial.Trial, error) {
	tool := trial.ToolAIPerf
	if f == FormatGenAIPerfCSV {
		tool = trial.ToolGenAIPerf
	}
	if err := perfCSVTruncation(data, src); err != nil {
		return nil, err
	}
	b := newBuilder(tool, src, f)
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	var header, statsHeader []string
	skipping := false
	hasReq := false
	// The section being read: its header's line and whether a row followed;
	// the line of the last statistics section and whether a "Metric,Value"
	// section came after it.
	sectionLine, sectionRows := 0, true
	statsLine, scalars := 0, false
	endSection := func() error {
		if !sectionRows {
			return &SyntaxError{File: src.path, Line: sectionLine, Col: 1,
				Msg: "a \"Metric\" section without rows (the file may be truncated)"}
		}
		return nil
	}
	var prev int64
	for {
		rec, err := cr.Read()
		if off := cr.InputOffset(); off-prev > int64(maxRecord) {
			line, _ := src.lineCol(prev)
			return nil, &SyntaxError{File: src.path, Line: line, Col: 1, Offset: prev, Err: ErrTooLarge,
				Msg: fmt.Sprintf("a line of %s, over the record size limit of %s (max_record_size)",
					textin.Size(off-prev), textin.Size(int64(maxRecord)))}
		} else {
			prev = off
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &SyntaxError{File: src.path, Line: pe.Line, Col: pe.Column, Msg: pe.Err.Error(), Err: err}
			}
			return nil, src.wrap(err, 0)
		}
		switch {
		case rec[0] == "Metric":
			if err := endSection(); err != nil {
				return nil, err
			}
			header, skipping = normHeader(rec), false
			sectionLine, _ = cr.FieldPos(0)
			sectionRows = false
			if statsHeader == nil && len(header) > 2 {
				statsHeader = header
			}
			if len(header) > 2 {
				statsLine, scalars = sectionLine, false
			} else {
				scalars = true
			}
			continue
		case rec[0] == "Endpoint":
			if err := endSection(); err != nil {
				return nil, err
			}
			skipping = true
			continue
		case skipping || (len(rec) == 1 && rec[0] == ""):
			continue
		case header == nil:
			line, col := cr.FieldPos(0)
			return nil, &SyntaxError{File: src.path, Line: line, Col: col, Msg: "data row before a \"Metric,...\" header"}
		case len(rec) < len(header):
			line, _ := cr.FieldPos(0)
			_, col := cr.FieldPos(len(rec) - 1)
			return nil, &SyntaxError{File: src.path, Line: line, Col: col,
				Msg: fmt.Sprintf("a row of %d fields under a header of %d (the file may be truncated)", len(rec), len(header))}
		case len(rec[0]) > MaxNameLen:
			line, col := cr.FieldPos(0)
			return nil, &SyntaxError{File: src.path, Line: line, Col: col, Err: ErrTooLarge,
				Msg: fmt.Sprintf("metric name of %s is longer than %s: %s", textin.Size(int64(len(rec[0]))), textin.Size(MaxNameLen), textin.Excerpt(rec[0]))}
		}
		sectionRows = true
		tag, unit := splitMetricCell(rec[0], tool)
		stats, err := csvStats(cr, src, header, rec)
		if err != nil {
			return nil, err
		}
		if len(stats) == 1 && stats[0].stat == "mean" {
			src.num = stats[0].pos
			b.addNative(tag, "", stats[0].v, unit)
			switch tag {
			case "request_count":
				b.setSucceeded(stats[0].v)
				hasReq = true
			case "error_request_count":
				b.setFailed(stats[0].v)
				b.known = true
			}
			continue
		}
		for _, s := range stats {
			src.num = s.pos
			b.addNative(tag, s.stat, s.v, unit)
		}
	}
	if err := endSection(); err != nil {
		return nil, err
	}
	if statsLine > 0 && !scalars {
		return nil, &SyntaxError{File: src.path, Line: statsLine, Col: 1,
			Msg: "statistics without the \"Metric,Value\" section that follows them (the file may be truncated)"}
	}
	if len(b.t.Measurements) == 0 && !b.known {
		return nil, &SyntaxError{File: src.path, Line: 1, Col: 1, Msg: "no metric rows"}
	}
	if hasReq && b.t.Failed < 0 && tool == trial.ToolAIPerf {
		b.t.Failed = 0
	}
	b.t.Source.FormatVersion = csvVersion(tool, statsHeader)
	measuredLengths(b)
	return []trial.Trial{b.finish()}, nil
}

// perfCSVTruncation reports a file whose last line has no line end: the
// tools end every row with one, so the row (perhaps a number) was cut.
func perfCSVTruncation(data []byte, src *source) error {
	end := bytes.TrimRight(data, " \t")
	if len(end) == 0 || end[len(end)-1] == '\n' || end[len(end)-1] == '\r' {
		return nil
	}
	off := int64(len(end))
	line, col := src.lineCol(off)
	return &SyntaxError{File: src.path, Line: line, Col: col, Offset: off,
		Msg: "the last line ends without a line end: the file is truncated"}
}

// normHeader maps header cells to statistic names ("Value" and "avg" = mean).
func normHeader(rec []string) []string {
	h := make([]string, len(rec))
	for i, c := range rec {
		c = strings.TrimSpace(c)
		if strings.EqualFold(c, "value") {
			c = "mean"
		}
		if s, ok := trial.NormalizeStatistic(c); ok {
			c = s
		} else if i > 0 {
			c = "" // unknown column: ignored
		}
		h[i] = c
	}
	return h
}

func csvVersion(tool string, header []string) string {
	has := func(s string) bool {
		for _, h := range header {
			if h == s {
				return true
			}
		}
		return false
	}
	if tool == trial.ToolGenAIPerf {
		if has("p1") {
			return "0.0.14+"
		}
		return "pre-0.0.14"
	}
	switch {
	case has("sum"):
		return "0.8+"
	case has("p10"):
		return "2025-10"
	}
	return "0.1"
}

// splitMetricCell turns "Time to First Token (ms)" into ("time_to_first_token", "ms").
func splitMetricCell(cell, tool string) (tag, unit string) {
	cell = strings.TrimSpace(cell)
	name := cell
	if strings.HasSuffix(cell, ")") {
		if i := strings.LastIndex(cell, " ("); i > 0 {
			name, unit = cell[:i], cell[i+2:len(cell)-1]
		}
	}
	tag = strings.ToLower(strings.Join(strings.Fields(name), "_"))
	if unit == "per sec" { // GenAI-Perf before 2025-04
		unit = "tokens/sec"
		if strings.HasPrefix(tag, "request") {
			unit = "requests/sec"
		}
	}
	if unit == "" && (tag == "request_count" || tag == "error_request_count") {
		unit = "requests"
	}
	return tag, unit
}

func csvStats(cr *csv.Reader, src *source, header, rec []string) ([]statValue, error) {
	var out []statValue
	for i := 1; i < len(rec) && i < len(header); i++ {
		cell := strings.TrimSpace(rec[i])
		if header[i] == "" || cell == "" || strings.EqualFold(cell, "N/A") {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(cell, ",", ""), 64)
		if err != nil {
			line, col := cr.FieldPos(i)
			return nil, &SyntaxError{File: src.path, Line: line, Col: col, Msg: "column " + header[i] + ": not a number: " + strconv.Quote(trial.Excerpt(cell))}
		}
		line, col := cr.FieldPos(i)
		out = append(out, statValue{stat: header[i], v: v, pos: numPos{line: line, col: col}})
	}
	return out, nil
}
