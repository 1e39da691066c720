-- Sessions: the measurement session each trial was recorded in (one
-- ingest, gate, tell or tune batch unless a name is given), so that a
-- re-benchmarked baseline is compared as measured in its newest session
-- and not pooled with stale runs. '' for trials recorded before.
ALTER TABLE trials ADD COLUMN session TEXT NOT NULL DEFAULT '';
