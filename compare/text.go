package compare

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/internal/enc"
)

// WriteJSON writes the report as one line of JSON
// (docs/schema/compare.schema.json, enc.EncodeJSON). A Report also
// writes itself as a table (WriteTable) and as Markdown (WriteMarkdown):
// enc.Write picks one by name.
func (r *Report) WriteJSON(w io.Writer) error { return enc.EncodeJSON(w, r) }

// sig renders v as tables print numbers (enc.AppendNum: 4 significant
// digits, integers up to 10⁹ in full), "-" when not finite.
func sig(n Num) string {
	if !finite(float64(n)) {
		return "-"
	}
	return string(enc.AppendNum(nil, float64(n)))
}

func pct(n Num) string { return string(enc.AppendPercent(nil, float64(n))) }

func ci(iv [2]Num) string {
	if !finite(float64(iv[0])) {
		return "-"
	}
	return string(enc.AppendInterval(nil, float64(iv[0]), float64(iv[1])))
}

func reading(r Reading) string {
	switch {
	case r.Outside != "":
		return "outside (" + r.Outside + " span)"
	case r.Interpolated:
		return sig(r.Value) + " (interpolated)"
	}
	return sig(r.Value)
}

// statusText says a pair's status in words.
func statusText(s string) string {
	switch s {
	case Regression:
		return "regression"
	case RegressionUnsettled:
		return "a regression is not ruled out"
	}
	return "no regression"
}

// WriteTable writes the report as aligned text: the sides, then per pair
// its verdict, hypervolume change, reasons, uplift curve and buckets.
func (r *Report) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	level := fmt.Sprintf("%g%% CI", 100*float64(r.Confidence))
	enc.Section(bw, []string{"side", "points", "runs", "frontier", "hypervolume", level}, len(r.Sides), func(b []byte, row, col int) []byte {
		s := &r.Sides[row]
		switch col {
		case 0:
			return append(b, s.Name...)
		case 1:
			return strconv.AppendInt(b, int64(s.Points), 10)
		case 2:
			return strconv.AppendInt(b, int64(s.Runs), 10)
		case 3:
			return strconv.AppendInt(b, int64(len(s.Frontier)), 10)
		case 4:
			return append(b, sig(s.Hypervolume)...)
		}
		return append(b, (sig(s.Interval[0]) + " to " + sig(s.Interval[1]))...)
	})
	refs := make([]string, len(r.Reference))
	for i, v := range r.Reference {
		refs[i] = sig(v)
	}
	fmt.Fprintf(bw, "reference point: %s (%d resamples, seed %d)\n", strings.Join(refs, ", "), r.Resamples, r.Seed)
	fmt.Fprintf(bw, "bands: %s\n", r.bandsText())
	for i := range r.Pairs {
		p := &r.Pairs[i]
		fmt.Fprintf(bw, "\n%s vs %s: %s, %s\n", enc.Safe(p.A), enc.Safe(p.B), p.Verdict, statusText(p.Status))
		h := p.Hypervolume
		fmt.Fprintf(bw, "hypervolume: %s → %s, %s (%s %s)\n", sig(h.A), sig(h.B), pct(h.Change), level, ci(h.Interval))
		for _, why := range p.Reasons {
			fmt.Fprintf(bw, "  - %s\n", enc.Safe(why))
		}
		if p.Baseline != nil {
			writeBaseline(bw, p.Baseline)
		}
		if u := p.Uplift; u != nil {
			fmt.Fprintf(bw, "\nuplift of %s along %s (%s):\n", enc.Safe(u.Y), enc.Safe(u.X), r.Interpolation)
			enc.Section(bw, []string{u.X, p.A, p.B, "change", level, "status"}, len(u.Curve), func(b []byte, row, col int) []byte {
				c := &u.Curve[row]
				return append(b, []string{sig(c.X), sig(c.A), sig(c.B), pct(c.Change), ci(c.Interval), c.Status}[col]...)
			})
			if len(u.Buckets) > 0 {
				fmt.Fprintf(bw, "\nbuckets:\n")
				enc.Section(bw, []string{u.X, p.A, p.B, "change", level, "status"}, len(u.Buckets), func(b []byte, row, col int) []byte {
					k := &u.Buckets[row]
					return append(b, []string{sig(k.X), reading(k.A), reading(k.B), pct(k.Change), ci(k.Interval), k.Status}[col]...)
				})
			}
		}
	}
	for _, wn := range r.Warnings {
		fmt.Fprintf(bw, "\nwarning: %s\n", enc.Safe(wn))
	}
	return bw.Flush()
}

// bandsText says the bands of every objective and where they come from:
// "ttft noise 3.0%, min-improve 3.0% (measured: CV 1.1%, at most 1.4%, 32
// df)".
func (r *Report) bandsText() string {
	var parts []string
	for _, o := range r.Objectives {
		s := enc.Safe(o.Name)
		switch o.Band {
		case BandUnmeasured:
			s += " none (too few repeats to measure the noise)"
		default:
			s += fmt.Sprintf(" noise %s, min-improve %s", fmtPct1(float64(o.Noise)), fmtPct1(float64(o.MinImprove)))
			if m := o.Measured; o.Band == BandMeasured {
				s += fmt.Sprintf(" (measured: CV %s, at most %s, %d df)", fmtPct1(float64(m.CV)), fmtPct1(float64(m.CVHigh)), m.DF)
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// writeBaseline writes the baseline's drift between the sides.
func writeBaseline(bw *bufio.Writer, d *decide.DriftReport) {
	fmt.Fprintf(bw, "  baseline %s compared first:\n", enc.Safe(d.Baseline))
	for _, w := range d.Workloads {
		for _, o := range w.Objectives {
			fmt.Fprintf(bw, "    %s (%d→%d runs) %s: %s → %s, %s (%s to %s) %s\n", enc.Safe(w.Workload), w.FromRuns, w.ToRuns,
				enc.Safe(o.Name), sig(o.From), sig(o.To), pct(o.Delta), pct(o.Low), pct(o.High), o.Verdict)
		}
	}
}

// md escapes text for a Markdown table cell.
func md(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(enc.Safe(s))
}

// WriteMarkdown writes a compact summary to post as a pull request
// comment: per pair the verdict, the hypervolume change with its interval
// and the bucket table.
func (r *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	level := fmt.Sprintf("%g%% CI", 100*float64(r.Confidence))
	for i := range r.Pairs {
		p := &r.Pairs[i]
		if i > 0 {
			bw.WriteString("\n")
		}
		fmt.Fprintf(bw, "### `%s` vs `%s`: **%s** (%s)\n\n", md(p.A), md(p.B), p.Verdict, statusText(p.Status))
		h := p.Hypervolume
		fmt.Fprintf(bw, "Hypervolume %s → %s: **%s** (%s %s, %d resamples)\n\n", sig(h.A), sig(h.B), pct(h.Change), level, ci(h.Interval), r.Resamples)
		fmt.Fprintf(bw, "Bands: %s\n\n", md(r.bandsText()))
		for _, why := range p.Reasons {
			fmt.Fprintf(bw, "- %s\n", md(why))
		}
		if u := p.Uplift; u != nil && len(u.Buckets) > 0 {
			fmt.Fprintf(bw, "\n| %s | %s | %s | change | %s | |\n|---:|---:|---:|---:|---|---|\n", md(u.X), md(p.A), md(p.B), level)
			for _, k := range u.Buckets {
				fmt.Fprintf(bw, "| %s | %s | %s | %s | %s | %s |\n", sig(k.X), md(reading(k.A)), md(reading(k.B)), pct(k.Change), ci(k.Interval), k.Status)
			}
		}
	}
	for _, wn := range r.Warnings {
		fmt.Fprintf(bw, "\n> warning: %s\n", md(wn))
	}
	return bw.Flush()
}
