package ingest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// analyzeConfigColumn is the first header cell of the table genai-perf
// analyze writes (analyze_export_genai_perf.csv).
const analyzeConfigColumn = "Config Name"

// sniffGenAIPerfAnalyze recognises analyze_export_genai_perf.csv: a header
// row "Config Name,..." with a GenAI-Perf metric column (a statistic and a
// metric name with its unit, "p99 Time To First Token (ms)", or a
// throughput "... (tokens/sec)").
func sniffGenAIPerfAnalyze(head []byte, _ string) bool {
	line, _, _ := bytes.Cut(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), []byte("\n"))
	if !bytes.HasPrefix(line, []byte(analyzeConfigColumn+",")) {
		return false
	}
	for _, c := range strings.Split(strings.TrimRight(string(line), "\r"), ",")[1:] {
		if _, _, _, ok := analyzeMetricColumn(c); ok {
			return true
		}
	}
	return false
}

// analyzeColumn is one column of the analyze table: a metric (native tag,
// statistic, unit) or a swept setting (param).
type analyzeColumn struct {
	tag, stat, unit string
	param           string
}

// analyzeMetricColumn parses "p99 Time To First Token (ms)", "Avg. Output
// Token Throughput (tokens/sec)" or "Request Throughput (requests/sec)":
// a metric name with its unit, after an optional statistic.
func analyzeMetricColumn(cell string) (tag, stat, unit string, ok bool) {
	cell = strings.TrimSpace(cell)
	if !strings.HasSuffix(cell, ")") || !strings.Contains(cell, " (") {
		return "", "", "", false
	}
	if first, rest, found := strings.Cut(cell, " "); found {
		if s, isStat := trial.NormalizeStatistic(strings.TrimSuffix(strings.ToLower(first), ".")); isStat {
			stat, cell = s, rest
		}
	}
	tag, unit = splitMetricCell(cell, trial.ToolGenAIPerf)
	return tag, stat, unit, unit != ""
}

// analyzeWorkload maps the swept settings genai-perf analyze names to the
// trial's workload.
var analyzeWorkload = map[string]func(*trial.Workload, float64){
	"concurrency":  func(w *trial.Workload, v float64) { w.Concurrency = v },
	"request_rate": func(w *trial.Workload, v float64) { w.RequestRate = v },
	"isl":          func(w *trial.Workload, v float64) { w.InputTokens = v },
	"osl":          func(w *trial.Workload, v float64) { w.OutputTokens = v },
}

// readGenAIPerfAnalyze reads analyze_export_genai_perf.csv, the summary
// genai-perf analyze writes after a sweep: one trial per row of its first
// table, named by "Config Name" (the label run_config); the columns
// without a unit are the swept settings (params, and the workload for
// Concurrency, Request Rate, ISL and OSL); the others are the run's
// statistics ("p99 Time To First Token (ms)": ttft.p99). The GPU table
// after the blank line (per-GPU power, energy, utilisation and memory of
// each run) is not read. A row with fewer fields than the header is an
// error (the file may be truncated), as in readPerfCSV.
func readGenAIPerfAnalyze(data []byte, src *source, f Format, maxRecord int) ([]trial.Trial, error) {
	if err := perfCSVTruncation(data, src); err != nil {
		return nil, err
	}
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, analyzeError(err, src)
	}
	cols := make([]analyzeColumn, len(header))
	for i, c := range header[1:] {
		if tag, stat, unit, ok := analyzeMetricColumn(c); ok {
			cols[i+1] = analyzeColumn{tag: tag, stat: stat, unit: unit}
			continue
		}
		cols[i+1].param = strings.ToLower(strings.Join(strings.Fields(c), "_"))
	}
	var out []trial.Trial
	prev := cr.InputOffset()
	for row := 0; ; row++ {
		rec, err := cr.Read()
		if off := cr.InputOffset(); off-prev > int64(maxRecord) {
			line, _ := src.lineCol(prev)
			return nil, &SyntaxError{File: src.path, Line: line, Col: 1, Offset: prev, Err: ErrTooLarge,
				Msg: "a line over the record size limit (max_record_size)"}
		} else {
			prev = off
		}
		if errors.Is(err, io.EOF) || err == nil && rec[0] == analyzeConfigColumn {
			break // the end, or the GPU table's header (encoding/csv skips the blank line before it)
		}
		if err != nil {
			return nil, analyzeError(err, src)
		}
		if len(rec) < len(header) {
			line, col := cr.FieldPos(len(rec) - 1)
			return nil, &SyntaxError{File: src.path, Line: line, Col: col,
				Msg: fmt.Sprintf("a row of %d fields under a header of %d (the file may be truncated)", len(rec), len(header))}
		}
		t, err := analyzeRow(cr, src, f, cols, rec, row)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, &SyntaxError{File: src.path, Line: 1, Col: 1, Msg: "a genai-perf analyze table without rows (the file may be truncated)"}
	}
	return out, nil
}

// analyzeRow is the trial of one row of the analyze table.
func analyzeRow(cr *csv.Reader, src *source, f Format, cols []analyzeColumn, rec []string, row int) (trial.Trial, error) {
	b := newBuilder(trial.ToolGenAIPerf, src, f)
	b.t.Source.Index = row
	b.t.Source.FormatVersion = "analyze"
	b.t.SetLabel("run_config", strings.TrimSpace(rec[0]))
	for i := 1; i < len(cols); i++ {
		cell := strings.TrimSpace(rec[i])
		if cell == "" || strings.EqualFold(cell, "N/A") {
			continue
		}
		c := cols[i]
		if c.param != "" {
			b.t.SetParam(c.param, cell)
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(cell, ",", ""), 64)
		if err != nil {
			if c.param != "" {
				continue // a setting that is no number is a param only
			}
			line, col := cr.FieldPos(i)
			return trial.Trial{}, &SyntaxError{File: src.path, Line: line, Col: col, Msg: "column " + strconv.Quote(c.tag) + ": not a number: " + strconv.Quote(trial.Excerpt(cell))}
		}
		line, col := cr.FieldPos(i)
		src.num = numPos{line: line, col: col}
		if c.param != "" {
			if set, ok := analyzeWorkload[c.param]; ok {
				set(&b.t.Workload, v)
			}
			continue
		}
		stat := c.stat
		if stat == "mean" && strings.HasSuffix(c.tag, "_throughput") {
			stat = "" // "Avg. Output Token Throughput": the run's one throughput, a scalar as in GenAI-Perf's other exports
		}
		b.addNative(c.tag, stat, v, c.unit)
	}
	return b.finish(), nil
}

// analyzeError positions a CSV error of the analyze table.
func analyzeError(err error, src *source) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &SyntaxError{File: src.path, Line: pe.Line, Col: pe.Column, Msg: pe.Err.Error(), Err: err}
	}
	return src.wrap(err, 0)
}
