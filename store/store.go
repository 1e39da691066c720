package store

import (
	"context"
	"os"
	"time"

	"github.com/pareto-llm/pareto/store/internal/locate"

	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/trial"
)

// EnvVar names the environment variable that sets the default location.
const EnvVar = "PARETO_STORE"

// DefaultLocation is the store used when neither a flag nor EnvVar names one.
const DefaultLocation = locate.Default

// Reader reads the studies of a store. OpenReadOnly returns one that
// never writes; every Store is a Reader. Implementations are safe for
// concurrent use by several goroutines, and by several processes sharing
// the same database.
type Reader interface {
	// Trials returns the study's trials in ingest order, filtered by q.
	Trials(ctx context.Context, study string, q Query) ([]trial.Trial, error)
	// Scan hands the trials Trials returns to fn instead, in ingest order,
	// in batches (of up to a thousand), from one read snapshot, keeping
	// none: a read of a large study in constant memory. Every trial of a
	// batch is verified (see Integrity in the package documentation)
	// before fn sees it; the batch and its trials are fn's, except that
	// trials with equal labels (or parameters) may share one map, which
	// fn must only read (a million trials of one engine and model then
	// hold one labels map). An error of fn stops the read and is returned
	// as it is.
	Scan(ctx context.Context, study string, q Query, fn func([]trial.Trial) error) error
	// Columns reads, for every trial of the study that satisfies where (in
	// ingest order), its ID and the value of each spec, without building
	// trials: frontier queries over large studies use it. See ColumnSpec
	// for how a spec matches and Columns for the values of absent,
	// ambiguous and unusable measurements.
	Columns(ctx context.Context, study string, specs []ColumnSpec, where []Condition) (*Columns, error)
	// TrialsByID returns the study's trials whose IDs are in ids (in any
	// order, repeated or not), verified, in ingest order; IDs the study
	// does not hold are left out. A report reads what its page lists of a
	// study read column by column this way.
	TrialsByID(ctx context.Context, study string, ids []string) ([]trial.Trial, error)
	// Skips returns the study's skips, in the order first recorded, that
	// satisfy every condition of where (trial.MatchSkip: a condition on
	// anything but the path, "source", and the CloudAI point, test_case,
	// iteration, step, phase and run, holds for no skip). A study that
	// does not exist is ErrNoStudy.
	Skips(ctx context.Context, study string, where []Condition) ([]trial.Skip, error)
	// Studies lists every study with its trial count and time range.
	Studies(ctx context.Context) ([]Study, error)
	// Check verifies the study (every study when study is empty) in one
	// read snapshot: every trial against its content hash and checksum,
	// as reads do, every block and value column against its checksum and
	// against the trials it copies, and that every trial is in one of the
	// study's blocks. It returns what it found per study, damage included;
	// its error is for a store it could not read (and ErrNoStudy for a
	// study that does not exist).
	Check(ctx context.Context, study string) ([]StudyCheck, error)
	// Close releases the database.
	Close() error
}

// Store keeps studies of trials: a Reader that also writes, and keeps the
// studies' tuning queues (tunequeue.Queue). Open returns one.
type Store interface {
	Reader
	tunequeue.Queue
	// CreateStudy creates the study if it does not exist yet.
	CreateStudy(ctx context.Context, study string) error
	// Ingest stores the trials read from one source in one transaction and
	// returns how many were added and how many were already present (same
	// ID in the study). Trials without an ID get trial.ComputeID; a trial
	// whose ID is not the content hash of what is stored keeps that hash
	// besides, for reads to verify (see Integrity in the package
	// documentation). The study is created if needed.
	Ingest(ctx context.Context, study, source string, trials []trial.Trial) (added, present int, err error)
	// IngestBatches is Ingest for a source read batch by batch (a generic
	// table of any length): in one transaction it calls fill once, and
	// fill hands the source's trials to add in batches as it reads them;
	// each batch is written when added, so memory holds one batch. When
	// fill returns nil the transaction commits and the counts are those
	// of every batch (a trial of a batch already in the study, from
	// before or from an earlier batch, is present); when it returns an
	// error (the reader's, or add's) the transaction is rolled back,
	// nothing of the source is stored, and that error is returned as it
	// is (add's errors are the store's, wrapped as Ingest wraps them).
	// Unlike Ingest, a PostgreSQL deadlock is not retried once fill has
	// begun: the error is returned and the source is not stored.
	IngestBatches(ctx context.Context, study, source string, fill func(add func([]trial.Trial) error) error) (added, present int, err error)
	// SetLabels merges labels into the stored labels of the study's trials
	// whose IDs are in ids, in one transaction: a non-empty value sets the
	// label, an empty value removes it, other labels are kept. The
	// environment columns copied from labels (EnvLabels) follow. It returns
	// how many of the study's trials ids names (each counted once, whether
	// or not its labels changed, so setting the same labels again returns
	// the same count); IDs of no trial of the study are ignored, so a count
	// below the number of distinct ids tells that some are unknown. A study
	// that does not exist is ErrNoStudy; an empty label key is an error.
	//
	// A trial's ID stays the hash computed when it was ingested
	// (trial.ComputeID of what was ingested): IDs identify what was
	// ingested, and labels set later are annotations. Re-ingesting the same
	// result therefore still finds it present, and trial.ComputeID of a
	// trial read back after SetLabels may differ from its ID: the store
	// verifies each trial before relabelling it, and keeps the content
	// hash of the relabelled trial, which reads verify. A damaged trial is
	// an IntegrityError.
	SetLabels(ctx context.Context, study string, ids []string, labels map[string]string) (int, error)
	// RecordSkips records, in one transaction, the inputs of an ingest into
	// the study that yielded no trial, and returns how many were new and
	// how many were known already (a skip of the same study, file and run:
	// it is replaced, so its path, code and reason are the newest). The
	// study is created if needed. Ingest removes the skips of the inputs
	// whose trials it stores; see the package documentation, "Skips".
	RecordSkips(ctx context.Context, study string, skips []trial.Skip) (added, present int, err error)
}

// Study summarises one study.
type Study struct {
	// Name identifies the study.
	Name string
	// Trials is the number of stored trials.
	Trials int
	// Sources is the number of ingests that wrote to the study.
	Sources int
	// Created is when the study was created; First and Last are the ingest
	// times of its oldest and newest trial (zero when it has none).
	Created, First, Last time.Time
}

// Query selects trials of a study.
type Query struct {
	// Where holds conditions that must all hold; see Condition.
	Where []Condition
	// Metrics, when not nil, restricts the measurements returned to those
	// whose Metric or Native name is in the list (the trials are still
	// returned even when none matches). Frontier queries use it to read
	// only the objectives.
	Metrics []string
	// Limit caps the number of trials returned; zero means no limit.
	Limit int
	// Slim returns only each trial's ID, source path and measurements,
	// skipping the decoding of labels, params and warnings; it has no
	// effect when Where is set (conditions need them). Frontier queries
	// over large studies use it and fetch full trials only to show them.
	Slim bool
}

// ErrNoStudy is returned by Trials for a study that does not exist:
// trial.ErrNoStudy, which packages without a database driver (decide)
// test for.
var ErrNoStudy = trial.ErrNoStudy

// Location returns the flag value if set, else $PARETO_STORE, else
// DefaultLocation.
func Location(flag string) string {
	if flag != "" {
		return flag
	}
	if v := os.Getenv(EnvVar); v != "" {
		return v
	}
	return DefaultLocation
}

// SQLitePath returns the file a SQLite store location names (local is
// true), or local false for a PostgreSQL URL; the error is that of a
// location no backend takes. An empty location is resolved by Location.
func SQLitePath(location string) (path string, local bool, err error) {
	kind, target, err := locate.Parse(Location(location))
	if err != nil {
		return "", false, err
	}
	if kind != locate.SQLite {
		return "", false, nil
	}
	return target, true, nil
}
