package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pareto-llm/pareto/executor"
	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/ingest"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
)

// Driver runs a tuning study's runs with an executor, one at a time,
// until the budget is spent or ctx is cancelled.
type Driver struct {
	Tuning   *Tuning
	Executor executor.Executor
	// Command is the template (Expand), WorkDir the folder under which
	// each run gets its own (RunDir).
	Command, WorkDir string
	// Worker names this driver in the store; Lease is the lease of its
	// runs, renewed every Lease/3 (DefaultLease when zero).
	Worker string
	Lease  time.Duration
	// TimeLimit bounds each run (0: none); Resources are what each job
	// asks of a scheduler (its TimeLimit, when zero, is TimeLimit).
	TimeLimit time.Duration
	Resources executor.Resources
	// Limits bound the result files read; Results are the patterns that
	// name a run's result files (ReadRun; none: the benchmark results
	// the run's folder holds).
	Limits  ingest.Limits
	Results []string
	// Fields names the driver's fields (result) in the reasons of the
	// runs it fails, as the caller spells them (the command line:
	// --result); nil keeps their own names.
	Fields field.Namer
	// Progress, when set, is called after every run.
	Progress func(tunequeue.Status)
	// Log receives one line per run that failed or was queued again.
	Log io.Writer
	// Join makes the driver a worker that joins the study's current
	// session (JoinSession) instead of starting a new one.
	Join bool
	// PassEnv names the variables the runs need from this process's
	// environment (with the study's Options.PassEnv): Run refuses to start
	// when one is not set, and hides their values (Tuning.Hide). The
	// executor must pass them (executor.Environ's keep).
	PassEnv []string
}

// DefaultLease is the lease of a driver's runs.
const DefaultLease = time.Minute

// WorkerName names this process: host:pid.
func WorkerName() string {
	host, _ := os.Hostname()
	return host + ":" + strconv.Itoa(os.Getpid())
}

// DeadLocal reports whether worker names a process of this host that has
// ended (a driver killed before it could release its runs).
func DeadLocal(worker string) bool {
	host, _ := os.Hostname()
	h, pid, ok := strings.Cut(worker, ":")
	if !ok || h != host {
		return false
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return false
	}
	if n == os.Getpid() {
		return false
	}
	return errors.Is(syscall.Kill(n, 0), syscall.ESRCH)
}

// Run drives the study: it queues again the runs of dead drivers of this
// host, starts a session (baseline runs), then runs until the budget is
// spent (nil), the sampler is exhausted (nil), or ctx is cancelled: the
// running job is then cancelled and its run queued again for the next
// driver, and Run returns ctx's error.
//
// Its error is redacted as the study records texts (Tuning.Redact): it
// may quote the command or a run's output.
func (d *Driver) Run(ctx context.Context) (err error) {
	defer func() { err = d.Tuning.redactError(err) }()
	if d.Worker == "" {
		d.Worker = WorkerName()
	}
	if d.Lease <= 0 {
		d.Lease = DefaultLease
	}
	t := d.Tuning
	if err := CheckTemplate(d.Command, t.Space()); err != nil {
		return err
	}
	if strings.Contains(d.Command, trial.Redacted) {
		return &field.Error{Field: "command", Named: true, Others: []string{"pass_env"}, Reason: "tune: the command holds " + trial.Redacted +
			" where the study removed a secret when it stored it: give the command again, " +
			"or keep the secret in the environment, write $NAME in the command and pass it with %s NAME"}
	}
	t.Hide(CommandSecrets(d.Command)...)
	for _, name := range slices.Concat(t.Options().PassEnv, d.PassEnv) {
		v, ok := os.LookupEnv(name)
		if !ok {
			return fmt.Errorf("tune: %w", &field.Error{Field: "pass_env", Value: name, Err: fmt.Errorf("%s is not set in the environment of this process", name)})
		}
		t.Hide(v)
	}
	if _, err := t.Reclaim(ctx, DeadLocal); err != nil {
		return err
	}
	if _, err := t.Repair(ctx); err != nil {
		return err
	}
	start := t.StartSession
	if d.Join {
		start = t.JoinSession
	}
	if _, err := start(ctx); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		r, err := t.Next(ctx, d.Worker, d.Lease)
		if errors.Is(err, ErrBudget) || errors.Is(err, ErrExhausted) {
			return nil
		}
		if errors.Is(err, ErrPending) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(min(d.Lease/3, 5*time.Second)):
			}
			continue
		}
		if err != nil {
			return err
		}
		if err := d.one(ctx, r); err != nil {
			return err
		}
		if d.Progress != nil {
			if st, err := t.st.TuneStatus(context.WithoutCancel(ctx), t.study); err == nil {
				d.Progress(st)
			}
		}
	}
}

// one runs r and records its outcome.
func (d *Driver) one(ctx context.Context, r Run) error {
	t := d.Tuning
	bg := context.WithoutCancel(ctx)
	// The lease is renewed from the claim until the run is recorded
	// (reading a run's results and recording them may take longer than
	// a lease on a loaded store).
	renew, stop := context.WithCancel(bg)
	defer stop()
	lost := make(chan struct{})
	var mu sync.Mutex
	var started executor.Handle // the job, once started
	go func() {
		tick := time.NewTicker(d.Lease / 3)
		defer tick.Stop()
		for {
			select {
			case <-renew.Done():
				return
			case <-tick.C:
				// A run whose lease was lost (this process was stopped
				// longer than a lease) belongs to another worker now.
				if err := t.st.RenewRun(renew, t.study, r.ID, r.Worker, d.Lease); errors.Is(err, tunequeue.ErrLeaseLost) {
					close(lost)
					mu.Lock()
					h := started
					mu.Unlock()
					// The worker that has the run now follows a job
					// that outlives this process: it is its job.
					if _, ok := d.Executor.(executor.Follower); !ok && h != "" {
						d.Executor.Cancel(bg, h)
					}
					return
				}
			}
		}
	}()
	dir := filepath.Join(d.WorkDir, RunDir(r))
	if r.Attempt > 1 { // an earlier attempt may have recorded its results
		ts, err := t.Recorded(bg, r)
		if err != nil {
			return err
		}
		if len(ts) > 0 {
			_, err := t.Record(bg, r, dir, ts)
			return err
		}
	}
	h := d.follow(bg, r)
	if h != "" {
		if r.Dir != "" {
			dir = r.Dir
		}
		d.logf("run %d (trial %d): waiting for job %s, which an earlier attempt started", r.ID, r.Trial, h)
	} else {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		job := executor.Job{ID: strconv.FormatInt(r.ID, 10), Command: Expand(d.Command, r.Config), Dir: dir, Env: Env(r),
			Resources: d.Resources}
		if job.Resources.TimeLimit == 0 {
			job.Resources.TimeLimit = d.TimeLimit
		}
		var err error
		if h, err = d.Executor.Start(ctx, job); err != nil {
			return errors.Join(err, t.Fail(bg, r, err.Error()))
		}
	}
	mu.Lock()
	started = h
	mu.Unlock()
	if err := t.st.UpdateTune(bg, t.study, func(tx *tunequeue.Tx) error { return tx.StartRun(r.ID, r.Worker, string(h), dir) }); err != nil {
		d.Executor.Cancel(bg, h)
		return err
	}
	st, err := d.Executor.Wait(ctx, h)
	select {
	case <-lost:
		stop()
		d.logf("run %d (trial %d): its lease was lost; left to the worker that has it", r.ID, r.Trial)
		return nil
	default:
	}
	if ctx.Err() != nil {
		d.Executor.Cancel(bg, h)
		d.Executor.Wait(bg, h)
		stop()
		return errors.Join(ctx.Err(), t.Release(bg, r, "interrupted: queued again"))
	}
	if err != nil {
		return errors.Join(err, t.Fail(bg, r, err.Error()))
	}
	if st.State != executor.Completed {
		why := st.Reason
		if last := lastLine(executor.ErrorLog(dir, h)); last != "" {
			why += ": " + last
		}
		d.logf("run %d (trial %d) %s: %s", r.ID, r.Trial, st.State, why)
		return t.Fail(bg, r, fmt.Sprintf("%s: %s (logs in %s)", st.State, why, dir))
	}
	trials, err := ReadRun(bg, dir, d.Results, d.Limits)
	if err != nil {
		why := err.Error()
		if nr, ok := errors.AsType[*NoResultError](err); ok {
			why = strings.Replace(why, nr.Error(), nr.Phrase(d.Fields), 1)
		}
		d.logf("run %d (trial %d): %s", r.ID, r.Trial, why)
		return t.Fail(bg, r, why)
	}
	// A result without one of the study's objectives is a failed run, as
	// tell refuses it: recorded, it would leave the gate unable to judge.
	if missing := t.missing(trials); len(missing) > 0 {
		why := fmt.Sprintf("objective %s missing or not finite in the run's results (%d trial(s) read from %s)", strings.Join(missing, ", "), len(trials), dir)
		d.logf("run %d (trial %d): %s", r.ID, r.Trial, why)
		return t.Fail(bg, r, why)
	}
	fb, err := t.Record(bg, r, dir, trials)
	for _, m := range fb.Mismatches {
		d.logf("run %d (trial %d): %s", r.ID, r.Trial, m)
	}
	if errors.Is(err, tunequeue.ErrLeaseLost) {
		d.logf("run %d (trial %d): %v", r.ID, r.Trial, err)
		return nil
	}
	return err
}

// RunDir is the name of a run's folder under the driver's work folder:
// run-ID, and run-ID.N for its Nth attempt after its worker was lost,
// so that the job of a lost attempt, which may still be running (a local
// process whose driver was killed), cannot write into the folder of the
// attempt that replaces it.
func RunDir(r Run) string {
	name := "run-" + strconv.FormatInt(r.ID, 10)
	if r.Attempt > 1 {
		name += "." + strconv.Itoa(r.Attempt)
	}
	return name
}

// follow returns the handle of the job an earlier attempt of r started
// when the executor can follow it (executor.Follower) and still knows it,
// else "".
func (d *Driver) follow(ctx context.Context, r Run) executor.Handle {
	f, ok := d.Executor.(executor.Follower)
	if !ok || r.Attempt < 2 || r.Handle == "" {
		return ""
	}
	h := executor.Handle(r.Handle)
	if _, known, err := f.Status(ctx, h); err != nil || !known {
		return ""
	}
	return h
}

// ReadRun reads the trials a run left in its folder dir. Without
// patterns, the folder is read as pareto ingest reads a folder it is
// given: only the files a reader recognises as benchmark results (or a
// CloudAI results tree) are trials, so the logs, GPU telemetry CSVs,
// per-request records and benchmark inputs a real client leaves beside
// its results are not; the executor's own files at the top of the
// folder (executor.IsOwnFile) are not read. With patterns
// (search.CheckResultPattern: globs relative to dir, '/' between
// folders), exactly the files and folders they match are read, each as
// pareto ingest reads a path it is given (a generic CSV/JSONL table
// included). A file that cannot be read is an error; so is a run that
// left no result (a *NoResultError listing what it left).
func ReadRun(ctx context.Context, dir string, patterns []string, lim ingest.Limits) ([]trial.Trial, error) {
	dir = filepath.Clean(dir)
	paths := []string{dir}
	load := ingest.LoadOptions{Limits: lim, Ignore: func(p string) bool {
		return filepath.Dir(p) == dir && executor.IsOwnFile(filepath.Base(p))
	}}
	if len(patterns) > 0 {
		var err error
		if paths, err = matchResults(dir, patterns); err != nil {
			return nil, err
		}
		if len(paths) == 0 {
			return nil, noResult(dir, patterns, nil)
		}
	}
	set, err := source.Trials(ctx, source.Spec{Paths: paths, Load: load})
	if set != nil && len(set.Trials) == 0 {
		if err := source.Unreadable(set.Skipped); err != nil {
			return nil, err
		}
		return nil, noResult(dir, patterns, set.Skipped)
	}
	if err == nil {
		err = source.Unreadable(set.Skipped)
	}
	if err != nil {
		return nil, err
	}
	return set.Trials, nil
}

// matchResults returns the files and folders under dir whose path
// relative to it matches one of patterns, sorted (a matched folder is
// not searched further: it is read whole).
func matchResults(dir string, patterns []string) ([]string, error) {
	for _, p := range patterns {
		if err := search.CheckResultPattern(p); err != nil {
			return nil, err
		}
	}
	var out []string
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		for _, pat := range patterns {
			if ok, _ := path.Match(filepath.ToSlash(pat), filepath.ToSlash(rel)); ok {
				out = append(out, p)
				if e.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// MaxLeftListed bounds the files a NoResultError lists.
const MaxLeftListed = 12

// NoResultError is a run that left no benchmark result in its folder.
type NoResultError struct {
	// Dir is the run's folder; Patterns the result patterns, if any.
	Dir      string
	Patterns []string
	// Left lists the files it left (paths relative to Dir, with what
	// pareto took them for when it knows), at most MaxLeftListed of them;
	// More counts the others.
	Left []string
	More int
}

// Error renders "no benchmark result in DIR; it left: a.log, b.csv, ...",
// naming the result patterns by their own name (Phrase).
func (e *NoResultError) Error() string { return e.Phrase(nil) }

// Phrase renders the error with the result patterns' field (result)
// named by name: the command line's --result.
func (e *NoResultError) Phrase(name field.Namer) string {
	var b strings.Builder
	b.WriteString("no benchmark result in " + e.Dir)
	if len(e.Patterns) > 0 {
		b.WriteString(" matching " + name.Name("result") + " " + strings.Join(e.Patterns, ", "))
	}
	if len(e.Left) == 0 {
		b.WriteString("; it left no file")
		return b.String()
	}
	b.WriteString("; it left: " + strings.Join(e.Left, ", "))
	if e.More > 0 {
		fmt.Fprintf(&b, " and %d more", e.More)
	}
	if len(e.Patterns) == 0 {
		b.WriteString(" (name the results with " + name.Name("result") + " GLOB if pareto does not recognise them)")
	}
	return b.String()
}

// noResult lists what a run left in dir, with the reasons of the skips
// that say what a file is (code not_a_result; not for a log or other
// text, ingest.NotResultText, which says no more than its name).
func noResult(dir string, patterns []string, skipped []trial.Skip) *NoResultError {
	what := map[string]string{}
	for _, s := range skipped {
		if s.Code == trial.SkipNotResult && s.Reason != ingest.NotResultText {
			what[filepath.Clean(s.Path)] = s.Reason
		}
	}
	e := &NoResultError{Dir: dir, Patterns: patterns}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if len(e.Left) == MaxLeftListed {
			e.More++
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if w := what[p]; w != "" {
			rel += " (" + w + ")"
		}
		e.Left = append(e.Left, rel)
		return nil
	})
	return e
}

// lastLine returns the last non-empty line of the end of a log file.
func lastLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	const tail = 4096
	if fi, err := f.Stat(); err == nil && fi.Size() > tail {
		f.Seek(-tail, io.SeekEnd)
	}
	b, _ := io.ReadAll(io.LimitReader(f, tail))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// logf logs one line, redacted as the study records texts (Tuning.Redact).
func (d *Driver) logf(format string, args ...any) {
	if d.Log != nil {
		fmt.Fprintln(d.Log, "pareto tune: "+d.Tuning.Redact(fmt.Sprintf(format, args...)))
	}
}
