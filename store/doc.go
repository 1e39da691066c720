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
// # Filters
//
// A Query's Where conditions (ParseCondition: KEY OP VALUE with =, !=, <,
// <=, >, >=) are applied in Go after the rows are read, which keeps one
// semantics for both backends: comparisons are numeric when both sides
// parse as numbers, else textual. See Condition for how keys resolve.
//
// Passwords in locations are never printed: Redact removes them, and every
// error this package returns has them removed.
package store
