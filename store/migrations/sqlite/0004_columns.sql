-- Columnar reads (Columns): one metric of every trial of a study is a range
-- of this covering index, in trial order, without touching the table.
CREATE INDEX measurements_metric ON measurements (metric, dims, trial_id, value);
-- The row id, hash and problem of a study's trials, in ingest order, from
-- the index alone; it replaces trials_study for reads in ingest order.
DROP INDEX trials_study;
CREATE INDEX trials_study ON trials (study_id, id, hash, problem);
