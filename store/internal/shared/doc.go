// Package shared is the code the SQLite and PostgreSQL stores share above
// the codec and the blocks: the reads of a study (Reads: Trials, Scan,
// TrialsByID, Columns, Skips), which a store embeds over its Dialect (its
// read-only snapshots, and the walk of a study's trials, in which the
// dialects differ), reading and verifying trials (TrialRow, Collector,
// Verifier), building store.Columns from blocks (ColumnsBuilder,
// StoredBlock, EachBlock), pareto check (CheckStudies), labels set later
// (Relabel, Resketch), skips, trials by ID in batches (IDBatches,
// TrialsByIDQuery), a study's row id (StudyID), and the schema: its
// migrations (migrations/sqlite, migrations/postgres, Upgrade), what a
// database holds when opened (SchemaState) and the store.Backend a
// dialect registers (Backend). Its SQL is written with '?' placeholders
// and runs on either dialect through codec.QueryTx, Reader and StudyTx;
// where the dialects' SQL differs, Numbered (PostgreSQL) chooses.
package shared
