package query

import (
	"math"
	"testing"

	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/frontier"
)

func TestParseObjective(t *testing.T) {
	for _, tt := range []struct {
		in   string
		name string
		dir  frontier.Direction
		bad  bool
	}{
		{"ttft.p99", "ttft.p99", frontier.Minimize, false},
		{"ttft.p99:max", "ttft.p99", frontier.Maximize, false},
		{"output_token_throughput", "output_token_throughput", frontier.Maximize, false},
		{"output_token_throughput:min", "output_token_throughput", frontier.Minimize, false},
		{"ttft{statistic=p99,phase=a:b}", "ttft{statistic=p99,phase=a:b}", frontier.Minimize, false},
		{"ttft{phase=x}:maximize", "ttft{phase=x}", frontier.Maximize, false},
		{"ttft (ms):min", "ttft (ms)", frontier.Minimize, false}, // a table column need not be a selector
		{"my_score", "", 0, true},            // unknown metrics need a direction
		{"ttft_p99_latency_ms", "", 0, true}, // no guessing from the name
		{"ttft:sideways", "", 0, true},
		{":min", "", 0, true},
		{"ttft.p99:min:max", "", 0, true}, // two directions
		{"vllm:num_requests_running:min", "vllm:num_requests_running", frontier.Minimize, false},
	} {
		t.Run(tt.in, func(t *testing.T) {
			o, err := ParseObjective(tt.in)
			if tt.bad {
				if fe, ok := field.As(err); !ok || fe.Field != "objective" || fe.Value != tt.in {
					t.Fatalf("ParseObjective(%q) = %v, %v; want a *field.Error on objective %q", tt.in, o, err, tt.in)
				}
				return
			}
			if err != nil || o.Name != tt.name || o.Direction != tt.dir {
				t.Errorf("ParseObjective(%q) = %q, %v, %v; want %q, %v", tt.in, o.Name, o.Direction, err, tt.name, tt.dir)
			}
		})
	}
}

func TestParsePercent(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		bad  bool
	}{{"5%", 0.05, false}, {"0.05", 0.05, false}, {" 12.5% ", 0.125, false}, {"-1%", 0, true}, {"x", 0, true}, {"NaN", 0, true}} {
		got, err := ParsePercent(tt.in)
		if (err != nil) != tt.bad || (!tt.bad && got != tt.want) {
			t.Errorf("ParsePercent(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

// TestParseBand lists the spellings of a band (--noise, --min-improve, and
// a report configuration's noise and min_improve, which share ParseBand)
// and what each gives, as a noise band and as a minimum improvement.
func TestParseBand(t *testing.T) {
	const syntax = "is not a percentage such as 5% or a fraction such as 0.05"
	const noise = "is not a noise band: want 0% or more, such as 5% or 0.05"
	const improve = "is not a minimum improvement: want at least 0% and below 100%, such as 5% or 0.05"
	for _, tt := range []struct {
		in               string
		want             float64
		noiseErr, minErr string
	}{
		{"5%", 0.05, "", ""}, {"0.05", 0.05, "", ""}, {" 12.5 % ", 0.125, "", ""}, {"0", 0, "", ""}, {"99.9%", 0.999, "", ""},
		{"150%", 1.5, "", "150% " + improve}, {"100%", 1, "", "100% " + improve}, {"1", 1, "", "100% " + improve},
		{"-1%", 0, "-1% " + noise, "-1% " + improve}, {"-0.01", 0, "-1% " + noise, "-1% " + improve},
		{"inf", 0, "+Inf% " + noise, "+Inf% " + improve},
		{"x", 0, `"x" ` + syntax, `"x" ` + syntax}, {"NaN", 0, `"NaN" ` + syntax, `"NaN" ` + syntax},
		{"", 0, `"" ` + syntax, `"" ` + syntax}, {"5 percent", 0, `"5 percent" ` + syntax, `"5 percent" ` + syntax},
	} {
		for _, k := range []struct {
			kind BandKind
			err  string
		}{{NoiseBand, tt.noiseErr}, {MinImprove, tt.minErr}} {
			got, err := ParseBand(tt.in, k.kind)
			if k.err == "" {
				if err != nil || math.Abs(got-tt.want) > 1e-12 {
					t.Errorf("ParseBand(%q, %d) = %v, %v; want %v", tt.in, k.kind, got, err, tt.want)
				}
				continue
			}
			if err == nil || err.Error() != k.err {
				t.Errorf("ParseBand(%q, %d) = %v, %v; want the error %q", tt.in, k.kind, got, err, k.err)
			}
		}
	}
}

// FuzzParseObjective checks that objective parsing never panics and that
// an accepted objective has a name and a direction.
func FuzzParseObjective(f *testing.F) {
	for _, s := range []string{"ttft.p99", "ttft.p99:max", "x{a=b:c}:min", ":", "ttft{", "a:b:c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseObjective(s)
		if err == nil && o.Name == "" {
			t.Fatalf("ParseObjective(%q) accepted an empty name", s)
		}
	})
}
