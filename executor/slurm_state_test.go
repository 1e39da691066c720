package executor

import (
	"os"
	"path/filepath"
	"testing"
)

// The files in testdata/slurm are the output of squeue, scontrol and
// sacct --completion captured from the one-node test cluster
// (testdata/ci-slurm.sh, Slurm 22.05) running jobs that completed, failed,
// were cancelled, ran over their time limit, were killed by a signal, lost their node (scontrol
// update State=DOWN: NODE_FAIL, then requeued), were held or ran.

func readSlurm(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "slurm", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseScontrol(t *testing.T) {
	for _, tt := range []struct {
		file, id string
		want     Status
	}{
		{"scontrol-completed.txt", "2", Status{State: Completed, Native: "COMPLETED"}},
		{"scontrol-failed.txt", "3", Status{State: Failed, ExitCode: 3, Native: "FAILED", Reason: "slurm job 3: FAILED (NonZeroExitCode), exit code 3"}},
		{"scontrol-failed-137.txt", "4", Status{State: Failed, ExitCode: 137, Native: "FAILED", Reason: "slurm job 4: FAILED (NonZeroExitCode), exit code 137"}},
		{"scontrol-launch-failed-signal.txt", "10", Status{State: Failed, ExitCode: -1, Native: "FAILED", Reason: "slurm job 10: FAILED (JobLaunchFailure), killed by signal 9"}},
		{"scontrol-cancelled.txt", "5", Status{State: Cancelled, ExitCode: -1, Native: "CANCELLED", Reason: "slurm job 5: CANCELLED, killed by signal 15"}},
		{"scontrol-timeout.txt", "18", Status{State: TimedOut, ExitCode: -1, Native: "TIMEOUT", Reason: "slurm job 18: TIMEOUT (TimeLimit), killed by signal 15"}},
		{"scontrol-array-pending.txt", "37_1", Status{State: Pending, Native: "PENDING", Reason: "slurm job 37_1: PENDING (JobHeldUser)"}},
		{"scontrol-array-failed.txt", "37_1", Status{State: Failed, ExitCode: 1, Native: "FAILED", Reason: "slurm job 37_1: FAILED (NonZeroExitCode), exit code 1"}},
		{"scontrol-running.txt", "8", Status{State: Running, Native: "RUNNING", Reason: "slurm job 8: RUNNING"}},
		{"scontrol-pending.txt", "9", Status{State: Pending, Native: "PENDING", Reason: "slurm job 9: PENDING (JobHeldUser)"}},
		{"scontrol-requeued.txt", "7", Status{State: Pending, Native: "PENDING", Reason: "slurm job 7: PENDING (BeginTime)"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			rec, ok := parseScontrol(readSlurm(t, tt.file), tt.id)
			if !ok {
				t.Fatalf("parseScontrol(%s, %s): job not found", tt.file, tt.id)
			}
			got, err := rec.status(tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("status = %+v; want %+v", got, tt.want)
			}
		})
	}
	// Task 1's record (raw JobId 39) is not task 2's nor job 39's array.
	if _, ok := parseScontrol(readSlurm(t, "scontrol-array-failed.txt"), "37_2"); ok {
		t.Errorf("parseScontrol found task 37_2 in task 37_1's record")
	}
	if _, ok := parseScontrol(readSlurm(t, "scontrol-completed.txt"), "3"); ok {
		t.Errorf("parseScontrol found job 3 in job 2's record")
	}
}

func TestParseSqueue(t *testing.T) {
	running := readSlurm(t, "squeue-running.txt")
	requeued := readSlurm(t, "squeue-requeued.txt")
	for _, tt := range []struct {
		name, out, id string
		want          State
		native        string
	}{
		{"completed", running, "2", Completed, "COMPLETED"},
		{"failed", running, "3", Failed, "FAILED"},
		{"running", running, "8", Running, "RUNNING"},
		{"held", running, "9", Pending, "PENDING"},
		{"requeued after NODE_FAIL", requeued, "7", Pending, "PENDING"},
		{"cancelled", requeued, "5", Cancelled, "CANCELLED"},
		{"launch failure", requeued, "10", Failed, "FAILED"},
		{"array task", readSlurm(t, "squeue-array-pending.txt"), "37_1", Pending, "PENDING"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec, ok := parseSqueue(tt.out, tt.id)
			if !ok {
				t.Fatalf("parseSqueue(%s): job not found", tt.id)
			}
			if rec.state() != tt.want || rec.Native != tt.native {
				t.Errorf("job %s: state %s, native %q; want %s, %q", tt.id, rec.state(), rec.Native, tt.want, tt.native)
			}
		})
	}
	if _, ok := parseSqueue(running, "99"); ok {
		t.Errorf("parseSqueue found job 99, which squeue does not list")
	}
	if _, ok := parseSqueue("", "1"); ok {
		t.Errorf("parseSqueue found a job in empty output")
	}
}

func TestParseSacct(t *testing.T) {
	completion := readSlurm(t, "sacct-completion.txt")
	// sacct-accounting.txt is from the same cluster with slurmdbd and
	// MariaDB (AccountingStorageType=accounting_storage/slurmdbd), kept
	// for the tests only: sacct writes who cancelled ("CANCELLED by 0").
	accounting := readSlurm(t, "sacct-accounting.txt")
	// States the test cluster cannot produce (no cgroup memory limits, no
	// preemption), in the same format; not captured. A requeued job has
	// one line a run, the last the newest.
	written := "42|OUT_OF_MEMORY|0:125|None\n43|PREEMPTED|0:15|None\n" +
		"45|NODE_FAIL|0:0|None\n45|COMPLETED|0:0|None\n46|RUNNING|0:0|None\n47|CANCELLED+|0:0|None\n"
	for _, tt := range []struct {
		name, out, id string
		want          Status
	}{
		{"completed", completion, "1", Status{State: Completed, Native: "COMPLETED"}},
		{"failed", completion, "3", Status{State: Failed, ExitCode: 3, Native: "FAILED", Reason: "slurm job 3: FAILED, exit code 3"}},
		{"signal", completion, "10", Status{State: Failed, ExitCode: -1, Native: "FAILED", Reason: "slurm job 10: FAILED, killed by signal 9"}},
		{"cancelled", completion, "5", Status{State: Cancelled, Native: "CANCELLED", Reason: "slurm job 5: CANCELLED"}},
		{"timeout", completion, "18", Status{State: TimedOut, Native: "TIMEOUT", Reason: "slurm job 18: TIMEOUT"}},
		{"node fail", completion, "7", Status{State: NodeFail, Native: "NODE_FAIL", Reason: "slurm job 7: NODE_FAIL"}},
		{"accounting: cancelled by 0", accounting, "25", Status{State: Cancelled, Native: "CANCELLED by 0", Reason: "slurm job 25: CANCELLED by 0"}},
		{"accounting: failed", accounting, "24", Status{State: Failed, ExitCode: 4, Native: "FAILED", Reason: "slurm job 24: FAILED, exit code 4"}},
		{"accounting: timeout", accounting, "27", Status{State: TimedOut, Native: "TIMEOUT", Reason: "slurm job 27: TIMEOUT"}},
		{"accounting: completed", accounting, "32", Status{State: Completed, Native: "COMPLETED"}},
		{"out of memory", written, "42", Status{State: OutOfMemory, ExitCode: -1, Native: "OUT_OF_MEMORY", Reason: "slurm job 42: OUT_OF_MEMORY, killed by signal 125"}},
		{"preempted", written, "43", Status{State: Preempted, ExitCode: -1, Native: "PREEMPTED", Reason: "slurm job 43: PREEMPTED, killed by signal 15"}},
		{"requeued then completed", written, "45", Status{State: Completed, Native: "COMPLETED"}},
		{"running", written, "46", Status{State: Running, Native: "RUNNING", Reason: "slurm job 46: RUNNING"}},
		{"truncated name", written, "47", Status{State: Cancelled, Native: "CANCELLED+", Reason: "slurm job 47: CANCELLED+"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec, ok := parseSacct(tt.out, tt.id)
			if !ok {
				t.Fatalf("parseSacct(%s): job not found", tt.id)
			}
			got, err := rec.status(tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("status = %+v; want %+v", got, tt.want)
			}
		})
	}
	if _, ok := parseSacct(completion, "9"); ok {
		t.Errorf("parseSacct found job 9, which never ran")
	}
}

func TestSlurmStates(t *testing.T) {
	for _, tt := range []struct {
		native string
		want   State
		final  bool
	}{
		{"PENDING", Pending, false}, {"REQUEUED", Pending, false}, {"RUNNING", Running, false},
		{"COMPLETING", Running, false}, {"SUSPENDED", Running, false}, {"COMPLETED", Completed, true},
		{"FAILED", Failed, true}, {"BOOT_FAIL", Failed, true}, {"DEADLINE", Failed, true},
		{"TIMEOUT", TimedOut, true}, {"CANCELLED", Cancelled, true}, {"CANCELLED by 1000", Cancelled, true},
		{"OUT_OF_MEMORY", OutOfMemory, true}, {"NODE_FAIL", NodeFail, true}, {"PREEMPTED", Preempted, true},
		// A state this code does not know is not final: Wait keeps asking.
		{"SOME_NEW_STATE", Running, false}, {"", Running, false},
	} {
		got := slurmRecord{Native: tt.native}.state()
		if got != tt.want || got.Final() != tt.final {
			t.Errorf("state(%q) = %s (final %t); want %s (final %t)", tt.native, got, got.Final(), tt.want, tt.final)
		}
	}
}

func TestParseExitCode(t *testing.T) {
	for _, tt := range []struct {
		in        string
		code, sig int
		wantErr   bool
	}{
		{"0:0", 0, 0, false}, {"3:0", 3, 0, false}, {"0:9", 0, 9, false}, {"137:0", 137, 0, false},
		{"", 0, 0, false}, {"3", 0, 0, true}, {"a:b", 0, 0, true}, {"-1:0", 0, 0, true},
	} {
		code, sig, err := parseExitCode(tt.in)
		if (err != nil) != tt.wantErr || code != tt.code || sig != tt.sig {
			t.Errorf("parseExitCode(%q) = %d, %d, %v; want %d, %d, error %t", tt.in, code, sig, err, tt.code, tt.sig, tt.wantErr)
		}
	}
}

func TestScontrolFields(t *testing.T) {
	// A WorkDir with a space stays one value.
	got := scontrolFields("JobId=7 JobName=x WorkDir=/tmp/a b StdOut=/tmp/a b/out-7.txt Power=")
	for k, want := range map[string]string{"JobId": "7", "WorkDir": "/tmp/a b", "StdOut": "/tmp/a b/out-7.txt", "Power": ""} {
		if got[k] != want {
			t.Errorf("field %s = %q; want %q", k, got[k], want)
		}
	}
}
