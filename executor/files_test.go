package executor

import "testing"

func TestIsOwnFile(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"stdout.log", true}, {"stderr.log", true}, {"slurm-job.sh", true}, {"slurm-array.sh", true},
		{"slurm-52.out", true}, {"slurm-52.err", true}, {"slurm-7_3.out", true}, {"slurm-array-7_3.err", true},
		{"result.json", false}, {"profile_export_aiperf.json", false}, {"slurm.csv", false}, {"job.sh", false},
	} {
		if got := IsOwnFile(c.name); got != c.want {
			t.Errorf("IsOwnFile(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	if got := ErrorLog("/d", "52"); got != "/d/slurm-52.err" {
		t.Errorf("ErrorLog(slurm) = %s", got)
	}
	if got := ErrorLog("/d", "pid:9"); got != "/d/stderr.log" {
		t.Errorf("ErrorLog(local) = %s", got)
	}
}
