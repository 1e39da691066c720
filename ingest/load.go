package ingest

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/trial"
)

// LoadOptions configures Load.
type LoadOptions struct {
	// GPUsPerNode is the system's gpus_per_node for CloudAI trees (0: the
	// per-allocated-GPU metrics are absent and each trial says why).
	GPUsPerNode int
	// System names the system in CloudAI run labels.
	System string
	// GPUs are the GPUs that served each result read from a file (not a
	// CloudAI run, whose tree says), for its per-GPU metrics: allocated
	// and serving GPUs alike, their total divides, and with Replicas they
	// give the trial a one-role layout (trial.GPUs.Deployment). Zero: the
	// file's own count where it records one (AIPerf's GPU telemetry: the
	// serving GPUs it saw), else none.
	GPUs trial.GPUs
	// Scenario, when set, makes every directory path a CloudAI scenario
	// results directory walked as that scenario's reporter does (see
	// cloudai.WalkOptions.Scenario): test-run.toml is then optional.
	Scenario *cloudai.Scenario
	// Tests are the test TOMLs the scenario's test_name entries refer to
	// (cloudai.LoadTests), for runs without test-run.toml.
	Tests map[string]*cloudai.TestDefinition
	// Workers reads files concurrently (0: GOMAXPROCS).
	Workers int
	// Each, when set, receives the trials of each input (a file, or a
	// CloudAI run with its run) in the order Load would list them, as soon
	// as they are read, and the Dataset keeps none (Trials and Runs stay
	// empty; Skipped is filled as usual): a large directory is then never
	// held in memory whole. An error from Each ends the loading (inputs
	// being read are finished, none is handed over) and Load returns it.
	Each func(ts []trial.Trial, run *cloudai.Run) error
	// Batches, with Each, hands the records of a file of many (SGLang
	// JSONL, vLLM --append-result, a vLLM sweep's summary array) to Each
	// in batches of a few hundred as they are read, so that no such file
	// is held whole; otherwise Each gets a file's trials at once. The
	// batches of a file read before a bad record are kept, and the file
	// is skipped as unreadable at that record (without Batches, nothing
	// of it is kept).
	Batches bool
	// NoIDs, with Each, leaves the ID of the trials read from benchmark
	// result files unset: for a caller that keeps none of them and names
	// them by their place (pareto front's streamed rows), the SHA-256 of
	// each trial's content is a fifth of its reading. Tables, CloudAI
	// runs and trials given their GPU counts still get theirs.
	NoIDs bool
	// Transient, with Each, says that Each keeps no trial's Measurements
	// slice (nor a pointer into it), Params map or Labels map once it
	// returns, nor the slice of trials it was given: Load then fills that
	// memory again with the measurements, parameters and labels of files
	// read later, and a streamed file's next batch of records, rather
	// than allocating theirs (a ~14 KB AIPerf export holds 30 KB of
	// measurements, 3 KB of maps; 3·10⁴ SGLang records 30 MB and 16 MB).
	// Copies of single measurements and trials, and strings, may be kept.
	Transient bool
	// EachTable, when set with Each, brackets each generic table: it is
	// called with the table's path and read, which reads the table and
	// hands its trials to Each in batches of TableBatch lines as they are
	// read, so that a table of any length is held one batch at a time
	// (without EachTable, Each receives a table's trials in one batch).
	// read returns the table's error (nil, a positioned error, a
	// *NotResultError for a table that turns out to be no result, ...),
	// possibly after some batches were handed on: EachTable undoes them
	// then (pareto ingest stores each table in one transaction) and
	// returns that error, and the table is skipped as usual. Any other
	// error of EachTable, or of Each, ends the loading.
	EachTable func(path string, read func() error) error
	// Stdin is read for the path "-" (nil: no standard input).
	Stdin io.Reader
	// Table says how the rows of generic tables become trials. A file
	// named on the command line (not one found inside a directory) that
	// is no benchmark result is read as a generic CSV/JSONL table
	// (ReadTable), one trial per row.
	Table TableOptions
	// AsTable reads on purpose as a generic CSV/JSONL table (ReadTable),
	// without looking for a benchmark format, every file named, standard
	// input, and every .csv or .jsonl file found in a directory (pareto's
	// --as table); the other files of a directory are read as usual. A
	// file that is no table is skipped with the table's reason.
	AsTable bool
	// Limits bound the size of each input and of each record read (zero:
	// the defaults).
	Limits Limits
	// Progress, when set, is called as inputs are handed on (or skipped):
	// done of the total found so far, a file or a CloudAI run counting
	// one. Calls never overlap (they may come from several goroutines).
	Progress func(done, total int)
	// Ignore, when set, names files found inside directories that are
	// neither read nor listed as skipped (a job's own logs, say); it gets
	// the file's path as found.
	Ignore func(path string) bool
}

// Skip is an input that yields no trial, with the reason (trial.Skip).
type Skip = trial.Skip

// Skip codes set by Load besides the CloudAI exclusion codes.
const (
	SkipError         = trial.SkipError
	SkipUnknownFormat = trial.SkipUnknownFormat
)

// Dataset is everything Load found.
type Dataset struct {
	Trials []trial.Trial
	// Runs holds, aligned with Trials, the CloudAI run each trial came
	// from (its layout, GPU counts and executed config), or nil.
	Runs    []*cloudai.Run
	Skipped []Skip

	each    func([]trial.Trial, *cloudai.Run) error // LoadOptions.Each
	table   func(string, func() error) error        // LoadOptions.EachTable
	err     error                                   // the first error of each
	opts    TableOptions                            // LoadOptions.Table
	asTable bool                                    // LoadOptions.AsTable
	gpus    trial.GPUs                              // LoadOptions.GPUs
	lim     Limits                                  // LoadOptions.Limits
	noIDs   bool                                    // LoadOptions.NoIDs, with Each
	named   map[string]bool                         // files named by the caller, read as tables when no result
	place   *placer                                 // names files for trial.Source.Key
	twins   twins                                   // CSV exports held back until their JSON twin may be read

	batches bool // LoadOptions.Batches, with Each
	// spare takes the measurements of trials Each is done with
	// (LoadOptions.Transient) unless holding: the twin rule keeps the
	// trials being added.
	spare   *spares
	holding bool

	progress    func(done, total int) // LoadOptions.Progress
	done, total int                   // inputs handed on, and found
}

// found counts n more inputs to read; read counts one read.
func (d *Dataset) found(n int) {
	d.total += n
	if d.progress != nil {
		d.progress(d.done, d.total)
	}
}

func (d *Dataset) read() {
	d.done++
	if d.progress != nil {
		d.progress(d.done, d.total)
	}
}

func (d *Dataset) add(ts []trial.Trial, run *cloudai.Run) {
	if run == nil {
		for i := range ts {
			d.gpuCount(&ts[i])
		}
	}
	switch {
	case d.err != nil:
	case d.each != nil:
		d.err = d.each(ts, run)
		// The one trial of an AIPerf export, and the records of a vLLM or
		// SGLang file, are what the fast readers fill (a slice and maps
		// of each trial's own, not shared with another trial: every
		// reader makes, or takes, a trial's slice and maps for it).
		if d.err == nil && d.spare != nil && !d.holding && (isTwinJSON(ts) || servingRecords(ts)) {
			for i := range ts {
				t := &ts[i]
				d.spare.give(t.Measurements)
				d.spare.giveMap(t.Params)
				d.spare.giveMap(t.Labels)
				t.Measurements, t.Params, t.Labels = nil, nil, nil
			}
		}
	default:
		d.Trials = append(d.Trials, ts...)
		for range ts {
			d.Runs = append(d.Runs, run)
		}
	}
}

// gpuCount gives a trial read from a file its GPU counts and per-GPU
// metrics: LoadOptions.GPUs, else the parallel sizes its file records of
// the server (recordedDeployment: SGLang's server_info, vLLM's
// tensor_parallel_size metadata), else the serving GPUs it records
// (trial.LabelGPUCount, from AIPerf's telemetry), else nothing.
// The fast AIPerf reader applies the same rule before it computes the ID
// (builder.finishRecords), and the trial comes here with its deployment.
func (d *Dataset) gpuCount(t *trial.Trial) {
	if t.Deployment != nil {
		return
	}
	dep := fileDeployment(d.gpus, t)
	if dep == nil {
		return
	}
	t.Deployment = dep
	trial.AddPerGPU(t, dep)
	if d.noIDs && t.ID == "" { // read without one (LoadOptions.NoIDs)
		t.Sort()
		return
	}
	t.Finalize()
}

// fileDeployment is the deployment of a trial read from a file (see
// Dataset.gpuCount), nil when nothing gives its GPU counts: gpus
// (LoadOptions.GPUs), else the parallel sizes its file records of the
// server, else the serving GPUs its telemetry saw.
func fileDeployment(gpus trial.GPUs, t *trial.Trial) *trial.Deployment {
	dep := gpus.Deployment(t.Labels[trial.LabelEngine]) // nil without LoadOptions.GPUs
	if dep == nil {
		dep = recordedDeployment(t)
	}
	if s := t.Labels[trial.LabelGPUCount]; dep == nil && s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			dep = &trial.Deployment{ServingGPUs: n,
				AllocatedGPUsUnknown: "the file records the GPUs its telemetry saw, not the GPUs allocated"}
		}
	}
	return dep
}

// skip records an input that yielded no trial, naming it for Skip.Key
// from base as the trials' files are named (standard input has no key).
func (d *Dataset) skip(base string, s Skip) {
	s.Reason = trial.RedactText(s.Reason) // a reader's error may quote the input
	if s.Path != "-" {
		s.Key = d.place.key(base, s.Path)
	}
	d.Skipped = append(d.Skipped, s)
}

// Failed reports how many inputs could not be read (code "error").
func (d *Dataset) Failed() int {
	n := 0
	for _, s := range d.Skipped {
		if s.Code == SkipError {
			n++
		}
	}
	return n
}

// Load reads every path: a file of any supported format, a CloudAI
// scenario results directory, or a directory searched recursively for
// both. Files inside directories that no reader claims are skipped with
// code "not_a_result" and why, or "unknown_format" when what they are
// cannot be told (binary data, not UTF-8; see unknownFormat and
// Dataset.unclaimedInDir: docs/FORMATS.md, "Files no reader claims");
// files that fail to parse, are over
// the LoadOptions.Limits, are not regular files (named pipes, devices,
// sockets) or make a reader panic (a bug: a *safe.InternalError naming the
// file) are skipped with code "error". With LoadOptions.Scenario every directory path is
// that scenario's results directory. A file named in paths (not found in
// a directory) that is no benchmark result is read as a generic table
// (with LoadOptions.AsTable every named file, and the .csv and .jsonl files
// of directories, are read as tables whatever their content), and "-"
// reads LoadOptions.Stdin. A path named twice, however written, and a
// file both named and found in a directory named, are read once. The
// returned error is non-nil only for a path that does not exist, or when
// LoadOptions.Each fails.
//
// Every trial's Source.Key names its file independently of the working
// directory and of how the path was written (absolute or relative), for
// its ID (trial.ComputeID): it is the file's path, with '/' separators,
// from the parent of the ingest root, the deepest directory holding every
// path given (a directory given alone is its own root, so its name starts
// the keys; a file given alone is under its directory). The files of a
// CloudAI results tree are named from the tree's parent instead, whatever
// was given: "scenario_2026-08-06_10-00-00/case/0/..." whether the tree,
// its parent or several trees were named. So reading "runs", "./runs",
// "/abs/runs", "runs/*" or "runs/*/*.json" gives the same keys, and the
// same IDs; reading "runs/a" alone after "runs" does not (it names a's
// files "a/..."). Source.Key is left empty where it equals Source.Path.
func Load(paths []string, opts LoadOptions) (*Dataset, error) {
	d := &Dataset{each: opts.Each, batches: opts.Batches && opts.Each != nil, table: opts.EachTable, opts: opts.Table, asTable: opts.AsTable,
		gpus: opts.GPUs, lim: opts.Limits, named: map[string]bool{}, progress: opts.Progress, noIDs: opts.NoIDs && opts.Each != nil}
	if opts.Transient && opts.Each != nil {
		d.spare = newSpares()
	}
	var onDisk []string
	cwd, _ := os.Getwd()
	given := map[string]bool{} // by absPath: "runs" and "./runs/" are one path
	for _, p := range paths {
		if k := absPath(cwd, p); p != "-" && !given[k] {
			given[k] = true
			onDisk = append(onDisk, p)
		}
	}
	dirs := make([]bool, len(onDisk))
	for i, p := range onDisk {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		dirs[i] = st.IsDir()
	}
	d.place = newPlacer(onDisk, dirs)
	if slices.Contains(paths, "-") {
		d.readStdin(opts)
	}
	var files []string
	for i, p := range onDisk {
		if !dirs[i] {
			files = append(files, p)
			d.named[p] = true
			continue
		}
		if opts.Scenario != nil {
			d.loadCloudAI(p, opts)
			continue
		}
		files = append(files, d.walkDir(p, opts)...)
	}
	d.readFiles(d.uniqueFiles(cwd, files), opts, false)
	return d, d.err
}

// uniqueFiles is files with each file once, as first named or found: a
// file named twice, or named and found in a directory also named, is one
// measurement, not two repeats. A file named in any of its spellings
// counts as named.
func (d *Dataset) uniqueFiles(cwd string, files []string) []string {
	seen := make(map[string]int, len(files))
	out := files[:0:0]
	for _, f := range files {
		k := absPath(cwd, f)
		if i, dup := seen[k]; dup {
			if d.named[f] {
				d.named[out[i]] = true
			}
			continue
		}
		seen[k] = len(out)
		out = append(out, f)
	}
	return out
}

// absPath is path made absolute from the working directory cwd, and
// clean: the same for "runs", "./runs/" and "/abs/runs" (clean only when
// cwd is unknown).
func absPath(cwd, path string) string {
	if filepath.IsAbs(path) || cwd == "" {
		return filepath.Clean(path)
	}
	return filepath.Join(cwd, path)
}

// walkDir collects the result files under root and loads any CloudAI
// results trees found there directly. A root that is a symlink to a
// directory (a "latest" link to the newest run) is walked through it, as
// find -H does, with its files named under the link; symlinks below it
// are not followed. A directory that cannot be listed (no permission),
// root included, is an input that could not be read (a skip with code
// error): the rest of the tree is still read.
func (d *Dataset) walkDir(root string, opts LoadOptions) []string {
	if st, err := os.Lstat(root); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		root += string(filepath.Separator) // Lstat of "link/" is its directory's
	}
	var files []string
	filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			d.skip(d.place.base, Skip{Path: path, Code: SkipError, Reason: err.Error()})
			if e == nil || e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			if cloudai.IsResultsTree(path) {
				d.loadCloudAI(path, opts)
				return filepath.SkipDir
			}
			if path != root && e.Name()[0] == '.' {
				return filepath.SkipDir
			}
			return nil
		}
		if e.Type().IsRegular() && e.Name()[0] != '.' && (opts.Ignore == nil || !opts.Ignore(path)) {
			files = append(files, path)
		}
		return nil
	})
	return files
}

// readFiles reads files concurrently, adding each file's trials, or its
// skip, in input order as soon as the files before it are done. Inside
// directories a file of unknown format is skipped, not an error.
func (d *Dataset) readFiles(files []string, opts LoadOptions, strict bool) {
	results := make([][]trial.Trial, len(files))
	errs := make([]error, len(files))
	done := make([]bool, len(files))
	next := 0
	keys := make([]string, len(files))
	for i, f := range files {
		keys[i] = d.place.key(d.place.base, f)
	}
	d.found(len(files))
	d.twins.expect(files)
	tables := make([]bool, len(files))
	for i, f := range files {
		tables[i] = d.isTable(f)
	}
	var part func(i int, ts []trial.Trial) error
	passed := make([]bool, len(files)) // some of the file's trials went on as read
	if d.batches {
		part = func(i int, ts []trial.Trial) error { return d.passOn(files, i, next, ts, results, passed) }
	}
	readFiles(files, keys, opts.Workers, readSettings{lim: d.lim, noIDs: d.noIDs, deploy: &d.gpus, spare: d.spare}, tables, func(i int, ts []trial.Trial, err error) {
		if results[i] != nil {
			ts = append(results[i], ts...)
		}
		results[i], errs[i], done[i] = ts, err, true
		for ; next < len(files) && done[next]; next++ {
			if tables[next] {
				d.flushTwins(files[next])
				d.addTable(files[next], nil)
				d.read()
				continue
			}
			switch {
			case errors.Is(errs[next], errLoadStopped):
			case passed[next]:
				d.addRest(files[next], results[next], errs[next])
			default:
				d.addFileTwins(files[next], results[next], errs[next], strict)
			}
			results[next] = nil
			d.read()
		}
	}, part)
	d.flushTwins("")
}

// isTable reports whether file f is read as a generic table whatever its
// content (LoadOptions.AsTable): a file named, or a .csv or .jsonl file
// found in a directory.
func (d *Dataset) isTable(f string) bool {
	if !d.asTable {
		return false
	}
	switch strings.ToLower(filepath.Ext(f)) {
	case ".csv", ".jsonl":
		return true
	}
	return d.named[f]
}

// addFile adds the trials of file f, or its skip.
func (d *Dataset) addFile(f string, ts []trial.Trial, err error, strict bool) {
	var nr *NotResultError
	switch {
	case err == nil && len(ts) > 0 && !measured(ts):
		d.Skipped = append(d.Skipped, Skip{Path: f, Code: trial.SkipNotResult,
			Reason: fmt.Sprintf("read as %s, but without a measurement in any of its %d records: not a benchmark result", ts[0].Source.Format, len(ts))})
	case err == nil:
		d.add(ts, nil)
	case errors.As(err, &nr):
		d.Skipped = append(d.Skipped, Skip{Path: f, Code: trial.SkipNotResult, Reason: nr.What})
	case errors.Is(err, ErrBinary) && d.named[f]:
		d.Skipped = append(d.Skipped, Skip{Path: f, Code: SkipError, Reason: err.Error()})
	case errors.Is(err, ErrUnknownFormat) && d.named[f]:
		d.addTable(f, nil)
	case errors.Is(err, ErrUnknownFormat) && !strict:
		d.skip(d.place.base, d.unclaimedInDir(f, err))
	default:
		d.skip(d.place.base, Skip{Path: f, Code: SkipError, Reason: err.Error()})
	}
}

// NotResultText is the reason of the not_a_result skip of a text file
// found in a directory that is neither a benchmark result nor a CSV/JSONL
// table (a README, a log): it says no more than the file's name, and a
// list of what a run left (tune) need not repeat it.
const NotResultText = "not a result file: text that is no benchmark result and no CSV/JSONL table"

// unclaimedInDir is the skip of a file found in a directory that no
// reader claims and that unknownFormat did not already recognise as no
// result (err wraps ErrUnknownFormat). Binary data and text that is not
// UTF-8 cannot be told (unknown_format). Any other text is not_a_result,
// as inside directories only benchmark results are read: with the
// table's own reason when the file, read as the generic table it would
// be read as when named (the trials dropped), says it is no result (so
// the reason is the same both ways); else with what it is, a table or
// other text (a README, a log).
func (d *Dataset) unclaimedInDir(f string, err error) Skip {
	if errors.Is(err, ErrBinary) || errors.Is(err, errNotText) {
		return Skip{Path: f, Code: SkipUnknownFormat,
			Reason: "not a benchmark result this version reads, and not text it can tell (binary data, or not UTF-8)"}
	}
	why := NotResultText
	if file, _, oerr := d.lim.open(f); oerr == nil {
		terr := readTable(file, f, d.opts, d.lim, func([]trial.Trial) error { return nil })
		file.Close()
		var nr *NotResultError
		switch {
		case errors.As(terr, &nr):
			why = nr.What
		case terr == nil:
			why = "a generic table, not a benchmark result file: inside directories only results are read " +
				"(a CSV or JSONL table is read when named on its own, or inside a directory when every input is to be read as a table)"
		}
	}
	return Skip{Path: f, Code: trial.SkipNotResult, Reason: why}
}

// measured reports whether some trial of ts holds a measurement: a file
// whose every record has none (a wrapper list that looks like a result,
// say) is no result.
func measured(ts []trial.Trial) bool {
	return slices.ContainsFunc(ts, func(t trial.Trial) bool { return len(t.Measurements) > 0 })
}

// addTable reads a named file that is no benchmark result as a generic
// table (data is nil: read the file), or skips it with the table's error.
// With EachTable, the table's trials are handed on batch by batch.
func (d *Dataset) addTable(f string, data []byte) {
	var r io.Reader = bytes.NewReader(data)
	if data == nil {
		file, _, err := d.lim.open(f)
		if err != nil {
			d.skip(d.place.base, Skip{Path: f, Code: SkipError, Reason: err.Error()})
			return
		}
		defer file.Close()
		r = file
	}
	opts := d.opts
	if f != "-" {
		opts.key = d.place.key(d.place.base, f)
	}
	batches := d.table != nil && d.each != nil && d.err == nil
	var all []trial.Trial
	var readErr, eachErr error
	read := func() error {
		readErr = readTable(r, f, opts, d.lim, func(ts []trial.Trial) error {
			if !batches {
				all = append(all, ts...)
				return nil
			}
			d.add(ts, nil)
			eachErr = d.err
			return eachErr
		})
		return readErr
	}
	var err error
	if batches {
		err = d.table(f, read)
	} else {
		err = read()
	}
	var nr *NotResultError
	switch {
	case eachErr != nil || (err != nil && readErr == nil) || (err != nil && !errors.Is(err, readErr)):
		d.err = cmp.Or(err, eachErr) // the consumer's
	case errors.As(err, &nr):
		d.skip(d.place.base, Skip{Path: f, Code: trial.SkipNotResult, Reason: nr.What})
	case err != nil && !d.asTable && prose(f, data, d.lim):
		d.skip(d.place.base, Skip{Path: f, Code: trial.SkipNotResult, Reason: NotResultText}) // as inside a folder
	case err != nil:
		why := "as it is no benchmark result pareto recognises"
		if d.asTable {
			why = "as every input was to be read as a table"
		}
		d.skip(d.place.base, Skip{Path: f, Code: SkipError,
			Reason: fmt.Sprintf("%v (read as a generic CSV/JSONL table, %s)", err, why)})
	case !batches:
		d.add(all, nil)
	}
}

// prose reports whether the named file f (data, or read again when nil)
// that failed to read as a table is text and no table: its first
// non-blank line has no comma and does not start a JSON value (a README,
// a log), so that the table's parse error is not the reason given.
func prose(f string, data []byte, lim Limits) bool {
	if data == nil {
		file, _, err := lim.open(f)
		if err != nil {
			return false
		}
		head := make([]byte, 4096)
		n, _ := io.ReadFull(file, head)
		file.Close()
		data = head[:n]
	}
	data = bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf")
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if len(line) == 0 || line[0] == '{' || line[0] == '[' && jsonArrayStart(line) {
		return false
	}
	return !bytes.ContainsRune(line, ',') || line[0] == '[' // a Markdown link or badge, commas or not
}

// readStdin reads standard input as a benchmark result, else as a table.
func (d *Dataset) readStdin(opts LoadOptions) {
	if opts.Stdin == nil {
		d.Skipped = append(d.Skipped, Skip{Path: "-", Code: SkipError, Reason: "-: no standard input"})
		return
	}
	data, err := d.lim.ReadAll(opts.Stdin, "-")
	if err != nil {
		d.Skipped = append(d.Skipped, Skip{Path: "-", Code: SkipError, Reason: err.Error()})
		return
	}
	if opts.AsTable {
		d.addTable("-", data)
		return
	}
	ts, err := readBytesLimited(slices.Clone(data), "-", d.lim)
	var nr *NotResultError
	switch {
	case errors.As(err, &nr):
		d.Skipped = append(d.Skipped, Skip{Path: "-", Code: trial.SkipNotResult, Reason: nr.What})
	case errors.Is(err, ErrUnknownFormat) && !errors.Is(err, ErrBinary):
		d.addTable("-", data)
	case err != nil:
		d.Skipped = append(d.Skipped, Skip{Path: "-", Code: SkipError, Reason: err.Error()})
	default:
		d.add(ts, nil)
	}
}

// loadCloudAI walks a CloudAI results tree and turns each successful point
// into trials carrying the run's context, configuration and GPU counts.
func (d *Dataset) loadCloudAI(dir string, opts LoadOptions) {
	base := filepath.Dir(d.place.abs(dir))
	runs, excl, err := cloudai.Walk(dir, cloudai.WalkOptions{GPUsPerNode: opts.GPUsPerNode, System: opts.System,
		Scenario: opts.Scenario, Tests: opts.Tests})
	if err != nil {
		d.skip(base, Skip{Path: dir, Code: SkipError, Reason: err.Error()})
		return
	}
	for _, x := range excl {
		d.skip(base, Skip{Path: x.Path, Run: exclusionID(x), Case: x.Case, Iteration: x.Iteration,
			Step: x.Step, Phase: x.Phase, Code: x.Code, Reason: x.Reason})
	}
	key := func(f string) string { return d.place.key(base, f) }
	d.found(len(runs))
	for i := range runs {
		r := &runs[i]
		ts, err := readRun(r, key, d.lim)
		d.read()
		if err == nil {
			err = checkNUL(ts, 0, &source{path: r.Dir}) // the run's parameters come from its TOMLs
		}
		if err != nil {
			d.skip(base, Skip{Path: r.Dir, Run: r.ID(), Case: r.Case, Iteration: r.Iteration,
				Step: r.Step, Phase: r.Phase, Code: SkipError, Reason: err.Error()})
			continue
		}
		d.add(ts, r)
	}
}

func exclusionID(x cloudai.Exclusion) string {
	return fmt.Sprintf("%s/%d/%d/%s", x.Case, x.Iteration, x.Step, x.Phase)
}

// readRun reads every result file of a run, with key naming the files for
// trial.Source.Key, and attaches the run context. A file that cannot be
// read is the run's error (damage is reported, never replaced by another
// file's measurements).
func readRun(r *cloudai.Run, key func(path string) string, lim Limits) ([]trial.Trial, error) {
	var all []trial.Trial
	for _, f := range r.Files {
		ts, err := readFileAt(f.Path, key(f.Path), lim)
		if err != nil {
			return nil, err
		}
		all = append(all, ts...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%s: no result files", r.Dir)
	}
	dep := deployment(r)
	for i := range all {
		attachRun(&all[i], r, dep, len(all) > 1, i)
	}
	return all, nil
}

// deployment returns what ran r: its layout, GPU counts and executed
// configuration, whose text is read with its secrets redacted
// (cloudai.ReadConfigText; empty when unreadable) and otherwise as is.
func deployment(r *cloudai.Run) *trial.Deployment {
	d := &trial.Deployment{Layout: r.Layout, AllocatedGPUs: r.AllocatedGPUs, AllocatedGPUsUnknown: r.AllocatedGPUsUnknown,
		ServingGPUs: r.ServingGPUs, ServingGPUsUnknown: r.ServingGPUsUnknown, ConfigPath: r.ConfigPath}
	if r.ConfigPath != "" {
		if text, err := cloudai.ReadConfigText(r.ConfigPath); err == nil {
			d.Config = text
		}
	}
	return d
}

// attachRun labels a trial with its CloudAI run, adds the executed
// parameters and the deployment (shared by the run's trials) and derives
// the per-GPU throughputs.
func attachRun(t *trial.Trial, r *cloudai.Run, dep *trial.Deployment, several bool, i int) {
	t.SetLabel(trial.LabelTestCase, r.Case)
	t.SetLabel(trial.LabelIteration, strconv.Itoa(r.Iteration))
	if r.Step > 0 {
		t.SetLabel(trial.LabelStep, strconv.Itoa(r.Step))
	}
	if r.Phase != "" {
		t.SetLabel(trial.LabelPhase, r.Phase)
	} else {
		delete(t.Labels, trial.LabelPhase) // the run, not the file, says which phase
	}
	t.SetLabel("run", r.ID())
	if several {
		t.SetLabel("run", r.ID()+"#"+strconv.Itoa(i))
	}
	t.SetLabel("benchmark", r.Benchmark)
	keys := make([]string, 0, len(r.Labels))
	for k := range r.Labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, ok := t.Labels[k]; !ok || k == trial.LabelEngine { // the CloudAI test knows the server
			t.SetLabel(k, r.Labels[k])
		}
	}
	for _, p := range r.Params {
		t.SetParam(p.Key, p.Value)
	}
	for _, p := range r.PhaseParams {
		t.SetParam("phase."+p.Key, p.Value)
	}
	if r.Layout != nil {
		t.SetLabel("layout", cloudai.DescribeLayout(r.Layout))
	}
	t.Warnings = append(t.Warnings, r.Warnings...)
	t.Deployment = dep
	trial.AddPerGPU(t, dep)
	t.Finalize()
}
