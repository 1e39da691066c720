// Package shared is the code the SQLite and PostgreSQL stores share above
// the codec and the blocks: reading and verifying trials (TrialRow,
// Collector, Verifier), building store.Columns from blocks
// (ColumnsBuilder, StoredBlock), pareto check (CheckStudies), labels set
// later (Relabel, Resketch), skips (Skips, read through a dialect's
// read-only snapshot, Reader), trials by ID in batches (IDBatches), a
// study's row id (StudyID), and the schema: its
// migrations (migrations/sqlite, migrations/postgres, Upgrade), what a
// database holds when opened (SchemaState) and the store.Backend a
// dialect registers (Backend). Its SQL is written with '?' placeholders
// and runs on either dialect through codec.QueryTx.
package shared
