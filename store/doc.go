// Package store keeps every trial of a study, with its whole metric vector,
// configuration and environment, so that frontiers can be derived whenever
// asked: the frontier is a query, never a stored object.
//
// # Backends
//
// Open selects a backend from the location (see Backend: package
// store/all links both, store/sqlite and store/postgres):
//
//	pareto.db, ./runs/a.db, sqlite:///abs/path.db, file:x.db   embedded SQLite (pure Go, no cgo)
//	postgres://user:pass@host/db, postgresql://...              PostgreSQL (pgx)
//
// The SQLite store is one file with no server to start. It runs in WAL mode
// with a busy timeout, and Ingest retries a source whose transaction found
// the database locked, so several processes on one host can share a file.
// The PostgreSQL store lets many hosts write to one study at once: trials
// are inserted with ON CONFLICT DO NOTHING on the trial ID in the study, in
// hash order, and a transaction that deadlocks or fails to serialise is
// retried.
//
// # Opening: reading and writing
//
// Open returns a Store, which reads and writes: it creates a new store (a
// SQLite file, or pareto's tables in an empty PostgreSQL database) and
// migrates an older one. OpenReadOnly returns a Reader, which only reads:
// it never creates, migrates or writes, nor changes a SQLite database's
// journal mode (its connections are opened with mode=ro, and PostgreSQL
// sessions with default_transaction_read_only), so it works on read-only
// files and directories and with a role that may only SELECT. A WAL-mode
// SQLite store read in a writable directory gets SQLite's -wal and -shm
// files if they are missing (its readers' shared index; the database file
// is not changed, and the next writer to close removes them); in a
// read-only directory, where SQLite cannot create them and no writer can
// be at work, the database is read as immutable. A store of an older
// schema is ErrOldSchema to OpenReadOnly: Migrate (pareto migrate), or
// Open, upgrades it.
//
// Both refuse a database that holds tables but not pareto's schema (its
// schema_migrations recording 0001_init.sql) with ErrNotStore, naming its
// tables, before changing anything: an application's database or an Optuna
// storage given by mistake is left as it was.
//
// # Schema
//
// studies (name, creation time); origins (what the trials of one file
// share: path, key, format and version, session, ingest time); trials (ID,
// its origin by id, line and index in the file, labels, params less those
// its measurements give back (codec.ParamRefs), workload, counts, problem,
// warnings, environment columns derived from labels, the trial's
// measurements packed in one
// blob: metric, dims, unit, native name, source unit and value of each, in
// order, and its deployment: serving layout as JSON, allocated and serving
// GPU counts with the reasons when unknown, and the executed configuration's
// path and text, kept byte for byte in a BLOB or BYTEA); blocks (the trials one ingest added, up to 65,536: their row
// ids, IDs and problems, packed) with block_values (per block and
// (metric, dims) pair, the values of its trials in row-id order, packed as
// float64s, frontier.Missing where a trial has no such measurement,
// several, or a problem); sources (one row per ingested source, with the
// counts it added); skips (the inputs of the study that yielded no trial,
// see Skips). There is no frontier table. The environment columns
// (engine, engine_version, cuda, driver, gpu, host) copy well-known labels
// (see trial.EnvLabels) so that SQL users can index and query them; the labels
// stay the source of truth.
//
// The PostgreSQL store keeps the trial ID UNIQUE per study and
// indexes trials by (study, id) and (study, engine, engine_version). The
// SQLite store indexes only 32 bits of the hash (trials_key on
// study and hkey): its writer holds the database's write lock and
// compares full hashes among the trials under the same key. It finds a
// study's trials through the row-id ranges of its blocks (first_trial to
// last_trial), so that an ingest updates one index per trial.
//
// The schema is one file per dialect, version 1 (store/internal/shared's
// migrations/sqlite and migrations/postgres, 0001_init.sql). A later version is a forward-only
// migration beside it (0002_name.sql, in both dialects), applied in order
// by Open and Migrate, each in its own transaction, and recorded in
// schema_migrations; the read-only openers refuse a store whose schema is
// older (ErrOldSchema) or newer than the one this package reads.
//
// # Idempotence and atomicity
//
// Ingest writes one source in one transaction: either every new trial of
// the source is stored with all its measurements and its blocks, or none
// is. A trial whose ID (trial.ComputeID: a hash of its content and of its
// position, the file named by Source.Key and the index in it) is already
// in the study is counted as present and not written again, so
// re-ingesting a file adds nothing, while runs whose numbers agree, in two
// files or two records of one file, are two trials.
//
// # Integrity
//
// Every read verifies what it reads, and a mismatch
// is an IntegrityError (errors.Is ErrDamaged) naming the trial or block
// and the study, never changed values. A trial's ID is trial.ComputeID of
// what was ingested: its position (file key, else path, and index), labels,
// params, workload, counts, problem and every measurement's metric, dims,
// value and unit. A full read hashes the trial it decoded and compares
// with the stored content hash: the ID, or content_id where the ID is not
// the hash of what is stored (an ID the caller of Ingest set, labels
// SetLabels changed later: SetLabels verifies the
// trial, then stores the hash of the relabelled one). What the hash does
// not cover — the source path, format, version and line, the packed
// measurements whole (native names and source units), the warnings, the
// layout and the other deployment fields — and the ID itself are covered
// by a CRC-32C kept with the row (codec.TrialChecksum); a slim read is verified
// by it alone. Values the store cannot keep exactly (-0 and NaNs of other
// bits in the workload, invalid UTF-8 in labels, params or dims) are
// stored, and hashed, in the form a read returns them (asStored, in store/internal/codec).
//
// The columnar path verifies blocks by checksum, not by hashing trials
// (which would cost a frontier over 10⁶ trials seconds): a CRC-32C of each
// block's row-id range, count and packed row ids, IDs and problems, and of
// each value column with its block's first row id, metric and dims (and of
// its sketches: see Columnar reads). The
// SQLite store also checks that each block's row range holds the number of
// trials the block counts.
//
// Check verifies a whole store in one snapshot, and what reads cannot:
// that each block equals the block its trials make (row ids, IDs,
// problems, every value column) and that every trial is in one of its
// study's blocks. Reads do not see a bit flipped in a row's study id, or
// in a value column's block id (the trial or the values then go missing
// from the study, which Check reports), nor in the environment columns
// copied from labels (used by SQL filters) or the ingest times shown by
// Studies.
//
// # Skips
//
// A study keeps, besides its trials, the inputs of
// its ingests that yielded no trial (trial.Skip: a file that could not be
// read, a failed CloudAI run, a file of no known format inside a
// directory), recorded by RecordSkips, so that a report written from the
// study alone lists the same exclusions as one written from the files.
//
// A skip is keyed, as a trial is, on the study and the input's identity:
// the file as trial IDs name it (Skip.File: its key from the ingest root,
// else its path) and, for a CloudAI point, its run (case/iteration/step/
// phase). Recording a skip whose identity is known replaces the stored one
// (the newest path, code and reason win, in the place of the first) and
// adds nothing. Ingest removes the skips that the trials it stores
// supersede, in the same transaction: the input yields trials now, so a
// fixed file no longer shows as failed. A trial supersedes the skips of
// its file and of every directory above it, a skip of a CloudAI point only
// when the trial's "run" label names that point. Skips filters with the
// conditions of a Query, read by trial.MatchSkip.
//
// # Labels set later
//
// SetLabels merges labels into stored trials (pareto gate records
// admission this way) and updates their environment columns in the same
// transaction. It changes nothing else: a trial's ID stays the hash of
// what was ingested, so a labelled trial is still one trial, and
// re-ingesting its source still finds it present.
//
// # Filters
//
// A Query's Where conditions (trial.ParseCondition: KEY OP VALUE with =, !=, <,
// <=, >, >=) are applied in Go after the rows are read, which keeps one
// semantics for both backends: comparisons are numeric when both sides
// parse as numbers, else textual. See trial.Condition for how keys resolve.
//
// Columns applies conditions on environment columns with non-numeric
// values in SQL (a label present with an empty value counts as absent
// there), and the others with the same Go filter, over the trials read as
// Trials reads them, in the same snapshot.
//
// # Columnar reads
//
// Columns returns the trial IDs of a study and one float64 column per
// (metric, dims) pair from the study's blocks and their block_values, in
// a single read snapshot, without building trials: a frontier over a
// million trials reads a few blobs per block (about a hundred blocks).
// Conditions, if any, select row ids first (see Filters). Blocks written
// by concurrent PostgreSQL ingests may interleave in row ids; the columns
// are put in row-id (ingest) order.
//
// Each block also keeps its trials' sketches
// (trial.Sketch: the repeat key under the default configuration keys,
// repeat.RepeatKey, and the source path, format, line and index and the
// "id" and "run" labels that name a row), computed at ingest from each
// trial as stored, renewed by SetLabels, and covered by a CRC-32C with the
// block's first row id and the sketches' version (columnar.SketchVersion, which
// includes repeat.KeyVersion). Columns returns them when every block of
// the study has sketches of this version, so that a frontier of the
// median of repeats over 10⁶ trials reads blocks, not trials (about 2.5
// CPU-s instead of 15); a block without them (sketches of another
// definition of keys) makes Columns return none, and the caller reads the trials. Check
// compares each block's sketches with those its trials make.
//
// # Ingest
//
// Measurements are packed, and the blocks built, in Go. The SQLite store
// writes through the low-level API with one INSERT OR FAIL statement of
// one row prepared once per transaction (the study id bound once, empty
// text as NULL, a parameter rebound only when its NULL or integer changes;
// a statement of several rows would open a statement journal), writes an
// origin once per file, looks the source's hash keys up 250 per
// statement, keeps foreign-key checks off for the transaction (the row ids
// written are those it just inserted), builds trials_key at the end of an
// ingest into a store without trials, and runs with a 64 MiB page cache
// and checkpoints every 64 MiB of WAL. The PostgreSQL store inserts trials
// 1,000 per INSERT ... SELECT FROM unnest.
//
// # Tuning queue
//
// Both stores keep the state of pareto tune, ask and tell beside a study
// (tunequeue.Queue, which every Store is), with the SQL of package
// tunequeue: see its documentation.
//
// # Layout
//
// The backends, their shared code, the codec of rows and the columnar
// blocks and sketches are packages of their own below this one, which
// holds the interfaces, Open and the query and result types; see
// docs/STORE.md, "Layout".
//
// Passwords in locations are never printed: Redact removes them, and every
// error this package returns has them removed.
package store
