package executor

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// slurmStates maps Slurm's job states (squeue %T, sacct State, scontrol
// JobState) to State. A state missing here is treated as not final, so
// that a state added by a later Slurm never ends a job early.
var slurmStates = map[string]State{
	"PENDING":       Pending,
	"REQUEUED":      Pending,
	"REQUEUE_FED":   Pending,
	"REQUEUE_HOLD":  Pending,
	"RESV_DEL_HOLD": Pending,
	"RUNNING":       Running,
	"CONFIGURING":   Running,
	"COMPLETING":    Running,
	"RESIZING":      Running,
	"SIGNALING":     Running,
	"STAGE_OUT":     Running,
	"STOPPED":       Running,
	"SUSPENDED":     Running,
	"UPDATE_DB":     Running,
	"COMPLETED":     Completed,
	"FAILED":        Failed,
	"BOOT_FAIL":     Failed,
	"DEADLINE":      Failed,
	"REVOKED":       Failed,
	"SPECIAL_EXIT":  Failed,
	"TIMEOUT":       TimedOut,
	"CANCELLED":     Cancelled,
	"OUT_OF_MEMORY": OutOfMemory,
	"NODE_FAIL":     NodeFail,
	"PREEMPTED":     Preempted,
}

// slurmRecord is what one of squeue, sacct or scontrol says of a job.
type slurmRecord struct {
	Native   string // the state as Slurm writes it ("CANCELLED by 0")
	Reason   string // Slurm's reason ("TimeLimit"), "" or "None" for none
	ExitCode string // "N:S" (exit status, signal), "" when unknown
}

// state maps the record's state: the first word of Native, so that
// sacct's "CANCELLED by 1000" is CANCELLED.
func (r slurmRecord) state() State {
	word, _, _ := strings.Cut(r.Native, " ")
	word = strings.TrimSuffix(word, "+") // squeue/sacct truncate long names with '+'
	if s, ok := slurmStates[word]; ok {
		return s
	}
	return Running
}

// status turns the record of job id into a Status. ExitCode is the exit
// status of the batch script, or -1 when a signal ended it (as
// os.ProcessState.ExitCode).
func (r slurmRecord) status(id string) (Status, error) {
	st := Status{State: r.state(), Native: r.Native}
	code, sig, err := parseExitCode(r.ExitCode)
	if err != nil {
		return Status{}, fmt.Errorf("executor: slurm job %s: %w", id, err)
	}
	st.ExitCode = code
	if sig != 0 {
		st.ExitCode = -1
	}
	if st.State == Completed {
		return st, nil
	}
	reason := "slurm job " + id + ": " + r.Native
	if r.Reason != "" && r.Reason != "None" {
		reason += " (" + r.Reason + ")"
	}
	if sig != 0 {
		reason += fmt.Sprintf(", killed by signal %d", sig)
	} else if code != 0 {
		reason += fmt.Sprintf(", exit code %d", code)
	}
	st.Reason = reason
	return st, nil
}

// parseExitCode reads Slurm's "N:S" exit code; "" is 0:0.
func parseExitCode(s string) (code, sig int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, ":")
	code, err1 := strconv.Atoi(a)
	sig, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || code < 0 || sig < 0 {
		return 0, 0, fmt.Errorf("exit code %q is not N:S", s)
	}
	return code, sig, nil
}

// parseSqueue reads `squeue -h -o %i|%T|%r` for job id: its record, or
// false when squeue does not list it.
func parseSqueue(out, id string) (slurmRecord, bool) {
	for _, f := range pipeLines(out) {
		if len(f) >= 3 && f[0] == id {
			return slurmRecord{Native: f[1], Reason: f[2]}, true
		}
	}
	return slurmRecord{}, false
}

// parseSacct reads `sacct -n -P -o JobID,State,ExitCode,Reason` for job
// id (the allocation's line, not its steps'). sacct may list a job more
// than once (requeued); the last line is the newest.
func parseSacct(out, id string) (slurmRecord, bool) {
	var rec slurmRecord
	found := false
	for _, f := range pipeLines(out) {
		if len(f) >= 3 && f[0] == id {
			rec = slurmRecord{Native: f[1], ExitCode: f[2]}
			if len(f) >= 4 {
				rec.Reason = f[3]
			}
			found = true
		}
	}
	return rec, found
}

// parseScontrol reads `scontrol show job -o ID`: one line of Key=Value
// fields separated by spaces.
func parseScontrol(out, id string) (slurmRecord, bool) {
	for line := range strings.SplitSeq(out, "\n") {
		fields := scontrolFields(line)
		// An array task's JobId is its own (raw) ID; its handle is
		// ArrayJobId_ArrayTaskId.
		if fields["JobId"] != id && fields["ArrayJobId"]+"_"+fields["ArrayTaskId"] != id {
			continue
		}
		return slurmRecord{Native: fields["JobState"], Reason: fields["Reason"], ExitCode: fields["ExitCode"]}, fields["JobState"] != ""
	}
	return slurmRecord{}, false
}

// scontrolFields splits a one-line scontrol record. Values may hold spaces
// (a Command or WorkDir), so a field starts only where a word has the
// form Key=.
func scontrolFields(line string) map[string]string {
	m := map[string]string{}
	key := ""
	for word := range strings.FieldsSeq(line) {
		k, v, ok := strings.Cut(word, "=")
		if ok && k != "" && isScontrolKey(k) {
			key = k
			m[key] = v
			continue
		}
		if key != "" {
			m[key] += " " + word
		}
	}
	return m
}

func isScontrolKey(k string) bool {
	for _, c := range k {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '/' || c == ':' || c == '_') {
			return false
		}
	}
	return true
}

// pipeLines splits parsable output ('|'-separated, one record a line).
func pipeLines(out string) [][]string {
	var lines [][]string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" {
			lines = append(lines, strings.Split(line, "|"))
		}
	}
	return lines
}
