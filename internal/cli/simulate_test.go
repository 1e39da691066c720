package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestSimulateStatus: a configuration that would not start is bad input
// (1), a malformed call a usage error (2).
func TestSimulateStatus(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want int
	}{
		{[]string{"simulate", "--param", "tp=2", "--out", "-"}, exitOK},
		{[]string{"simulate", "--param", "tp=3", "--out", "-"}, exitFailure},
		{[]string{"simulate", "--param", "model=llama-3.1-70b", "--out", "-"}, exitFailure},
		{[]string{"simulate", "--param", "tp=x"}, exitUsage},
		{[]string{"simulate", "--cv", "bogus=1%"}, exitUsage},
		{[]string{"simulate", "--speed", "0"}, exitUsage},
		{[]string{"simulate", "extra"}, exitUsage},
	} {
		var stdout, stderr bytes.Buffer
		if got := Main(context.Background(), tt.args, strings.NewReader(""), &stdout, &stderr); got != tt.want {
			t.Errorf("pareto %s: exit %d; want %d (stderr %s)", strings.Join(tt.args, " "), got, tt.want, stderr.String())
		}
	}
}
