package cli

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/internal/enc"
)

// verdictResult is what pareto gate prints: the verdict
// (docs/schema/gate.schema.json).
type verdictResult decide.Verdict

// WriteTable prints the verdict for a reader (writeGateTable).
func (v *verdictResult) WriteTable(w io.Writer) error { return writeGateTable(w, (*decide.Verdict)(v)) }

// archiveResult is what pareto gate --archive and --revoke print: the
// archive members (docs/schema/gate-archive.schema.json).
type archiveResult []decide.ArchiveMember

// WriteTable prints the members (writeArchiveTable).
func (a archiveResult) WriteTable(w io.Writer) error { return writeArchiveTable(w, a) }

// writeGateTable prints a verdict for a reader: the decision and its code,
// the sides, every reason, the per-workload comparison and what more runs
// would settle it. The JSON holds everything this omits.
func writeGateTable(w io.Writer, v *decide.Verdict) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s (%s): candidate %s, baseline %s", v.Decision, v.Code, enc.Safe(v.Candidate), enc.Safe(v.Baseline))
	if v.Nearest != "" && v.Nearest != v.Baseline {
		fmt.Fprintf(bw, ", nearest archive member %s", enc.Safe(v.Nearest))
	}
	bw.WriteString("\n")
	for _, r := range v.Reasons {
		fmt.Fprintf(bw, "  - %s\n", enc.Safe(r))
	}
	type row struct {
		w *decide.WorkloadResult
		o *decide.ObjectiveResult
	}
	var rows []row
	for i := range v.Workloads {
		for j := range v.Workloads[i].Objectives {
			rows = append(rows, row{&v.Workloads[i], &v.Workloads[i].Objectives[j]})
		}
	}
	if len(rows) > 0 {
		bw.WriteString("\n")
		header := []string{"workload", "runs", "objective", "candidate", "baseline", "delta", "interval", "status"}
		enc.Section(bw, header, len(rows), func(b []byte, r, c int) []byte {
			x := rows[r]
			switch c {
			case 0:
				return append(b, x.w.Workload...)
			case 1:
				return fmt.Appendf(b, "%d vs %d", x.w.CandidateRuns, x.w.BaselineRuns)
			case 2:
				return append(b, x.o.Name...)
			case 3:
				return enc.AppendNum(b, float64(x.o.Candidate))
			case 4:
				return enc.AppendNum(b, float64(x.o.Baseline))
			case 5:
				return enc.AppendPercent(b, float64(x.o.Delta))
			case 6:
				b = fmt.Appendf(b, "%g%% CI ", 100*float64(x.o.Level))
				return enc.AppendInterval(b, float64(x.o.Low), float64(x.o.High))
			}
			return append(b, x.o.Status...)
		})
	}
	if m := v.MoreRuns; m.Candidate > 0 || m.Baseline > 0 || len(m.Members) > 0 {
		fmt.Fprintf(bw, "\nmore runs per workload: candidate %d, baseline %d", m.Candidate, m.Baseline)
		for _, k := range slices.Sorted(maps.Keys(m.Members)) {
			fmt.Fprintf(bw, ", %s %d", enc.Safe(k), m.Members[k])
		}
		bw.WriteString("\n")
	}
	if len(v.Regressions) > 0 {
		var rs []string
		for _, r := range v.Regressions {
			rs = append(rs, fmt.Sprintf("%s on %s %s (%s)", r.Objective, r.Workload, enc.AppendPercent(nil, float64(r.Delta)), r.Status))
		}
		fmt.Fprintf(bw, "\nregressions: %s\n", enc.Safe(strings.Join(rs, "; ")))
	}
	return bw.Flush()
}

// writeArchiveTable prints the archive members, one line each.
func writeArchiveTable(w io.Writer, members []decide.ArchiveMember) error {
	bw := bufio.NewWriter(w)
	if len(members) == 0 {
		bw.WriteString("no archive members\n")
		return bw.Flush()
	}
	header := []string{"key", "scope", "params", "workloads", "trials", "sessions"}
	enc.Section(bw, header, len(members), func(b []byte, r, c int) []byte {
		m := members[r]
		switch c {
		case 0:
			return append(b, m.Key...)
		case 1:
			return append(b, m.Scope.String()...)
		case 2:
			for i, k := range slices.Sorted(maps.Keys(m.Params)) {
				if i > 0 {
					b = append(b, ' ')
				}
				b = append(append(append(b, k...), '='), m.Params[k]...)
			}
			return b
		case 3:
			return fmt.Appendf(b, "%d", len(m.Workloads))
		case 4:
			return fmt.Appendf(b, "%d", len(m.Trials))
		}
		return append(b, strings.Join(m.Sessions, ",")...)
	})
	return bw.Flush()
}
