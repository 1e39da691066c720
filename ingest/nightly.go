package ingest

import (
	"regexp"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// readVLLMNightly reads vLLM's nightly benchmark_results.json: an array of
// table rows such as {"Test name", "GPU", "Mean TTFT (ms)", ...}. It is a
// derived table, not a native bench file; each row becomes a trial.
func readVLLMNightly(j *jreader) ([]trial.Trial, error) {
	var out []trial.Trial
	err := j.array("nightly results", func(i int) error {
		b := newBuilder(trial.ToolVLLM, j.src, FormatVLLMNightly)
		b.t.Source.Index = i
		err := j.object("row", func(name []byte) error { return nightlyCell(j, b, string(name)) })
		if err == nil {
			out = append(out, b.finish())
		}
		return err
	})
	if err != nil {
		return out, err
	}
	return out, j.expectEnd()
}

var nightlyStat = regexp.MustCompile(`^(Mean|Median|P[0-9.]+) (TTFT|TPOT|ITL|E2EL) \(ms\)$`)

var nightlyScalars = map[string][2]string{
	"Tput (req/s)":        {trial.RequestThroughput, "requests/s"},
	"Output Tput (tok/s)": {trial.OutputTokenThroughput, "tokens/s"},
	"Total Tput (tok/s)":  {trial.TotalTokenThroughput, "tokens/s"},
}

func nightlyCell(j *jreader, b *builder, col string) error {
	if k := j.d.PeekKind(); k != '0' {
		s, ok, err := j.text()
		if ok {
			switch col {
			case "Test name":
				b.t.SetLabel(trial.LabelTestCase, s)
			case "GPU":
				b.t.SetLabel(trial.LabelHardware, s)
			}
			b.t.SetParam(col, s)
		}
		return err
	}
	v, _, err := j.number(col)
	if err != nil {
		return err
	}
	if m := nightlyStat.FindStringSubmatch(col); m != nil {
		stat, _ := trial.NormalizeStatistic(strings.ToLower(m[1]))
		b.add(strings.ToLower(m[2]), trial.StatDims(stat), v, "ms", col)
		return nil
	}
	if sc, ok := nightlyScalars[col]; ok {
		b.add(sc[0], nil, v, sc[1], col)
		return nil
	}
	if col == "# of req." {
		b.t.Workload.Requests = int64(v)
		b.t.SetParam(col, ftoa(v))
		return nil
	}
	b.add(col, nil, v, "", col)
	return nil
}
