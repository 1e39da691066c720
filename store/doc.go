// Package store keeps every trial of a study, with its whole metric vector,
// configuration and environment, so that frontiers can be derived whenever
// asked: the frontier is a query, never a stored object.
//
// # Backends
//
// Open selects a backend from the location:
//
//	pareto.db, ./runs/a.db, sqlite:///abs/path.db, file:x.db   embedded SQLite (pure Go, no cgo)
//	postgres://user:pass@host/db, postgresql://...              PostgreSQL (pgx)
//
// The SQLite store is one file with no server to start. It runs in WAL mode
// with a busy timeout, and Ingest retries a source whose transaction found
// the database locked, so several processes on one host can share a file.
// The PostgreSQL store lets many hosts write to one study at once: trials
// are inserted with ON CONFLICT DO NOTHING on the study's content hash, in
// hash order, and a transaction that deadlocks or fails to serialise is
// retried.
//
// # Schema
//
// studies (name, creation time); trials (content hash unique per study,
// source, labels, params, workload, counts, problem, warnings, environment
// columns derived from labels, ingest time); measurements (trial, position,
// metric, dims, value, unit, native name, source unit); sources (one row per
// ingested source, with the counts it added). There is no frontier table.
// The environment columns (engine, engine_version, cuda, driver, gpu, host)
// copy well-known labels (see EnvLabels) so that SQL users can index and
// query them; the labels stay the source of truth.
//
// Two covering indexes serve columnar reads: measurements_metric (metric,
// dims, trial_id, value) and trials_study (study_id, id, hash, problem).
//
// The schema is versioned by embedded, forward-only migrations
// (migrations/sqlite, migrations/postgres), applied in order on Open, each
// in its own transaction, and recorded in schema_migrations.
//
// # Idempotence and atomicity
//
// Ingest writes one source in one transaction: either every new trial of
// the source is stored with all its measurements, or none is. A trial whose
// content hash (trial.ComputeID) is already in the study is counted as
// present and not written again, so re-ingesting a file adds nothing.
//
// # Labels set later
//
// SetLabels merges labels into stored trials (pareto gate records
// admission this way) and updates their environment columns in the same
// transaction. It changes nothing else: a trial's ID stays the content
// hash of what was ingested, so a labelled trial is still one trial, and
// re-ingesting its source still finds it present.
//
// # Filters
//
// A Query's Where conditions (ParseCondition: KEY OP VALUE with =, !=, <,
// <=, >, >=) are applied in Go after the rows are read, which keeps one
// semantics for both backends: comparisons are numeric when both sides
// parse as numbers, else textual. See Condition for how keys resolve.
//
// Columns applies conditions on environment columns with non-numeric
// values in SQL (a label present with an empty value counts as absent
// there), and the others with the same Go filter, over the trials read as
// Trials reads them, in the same snapshot.
//
// # Columnar reads
//
// Columns returns the trial IDs of a study and one float64 column per
// (metric, dims) pair, from one scan of trials_study and one UNION ALL of
// measurements_metric ranges in a single read snapshot, without building
// trials: a frontier over a million trials reads about three million
// index entries. The SQLite store scans with the low-level ncruces API;
// the PostgreSQL store decodes binary rows without Scan.
//
// # Ingest
//
// The SQLite store writes through the low-level API with multi-row
// INSERT OR FAIL statements prepared once per transaction, foreign-key
// checks off for the transaction (the row ids written are those it just
// inserted), a 64 MiB page cache and checkpoints every 64 MiB of WAL.
//
// Passwords in locations are never printed: Redact removes them, and every
// error this package returns has them removed.
package store
